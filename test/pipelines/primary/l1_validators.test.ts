import { Effect } from "effect"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import type { RunningEmulator } from "@chainetl/emulator"
import { dataset } from "../../../pipelines/l1_validators.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { query, runSpine } from "../../support/spine.ts"
import { NETWORKS } from "../../support/emulatorJob/groups.ts"
import { byKey, columnTypes, rejectReasons, uncommentedColumns } from "../../support/catalogReads.ts"

type Rec = Record<string, unknown>

/** Route 13 with inactive validators, page by page, each item with its page's blockHeight. */
const expected = async (emu: RunningEmulator, includeInactive = true) => {
  const rows = []
  for (const network of NETWORKS) {
    let token: string | undefined
    do {
      const u = new URL(`${emu.baseUrl}/v1/networks/${network}/l1Validators`)
      u.searchParams.set("pageSize", "100")
      if (includeInactive) u.searchParams.set("includeInactiveL1Validators", "true")
      if (token) u.searchParams.set("pageToken", token)
      const body = (await (await fetch(u)).json()) as Rec
      for (const v of body["validators"] as Rec[]) {
        const owner = (o: unknown) => ({ addresses: (o as Rec)["addresses"], threshold: (o as Rec)["threshold"] })
        rows.push({
          network,
          validation_id: v["validationId"],
          validation_id_hex: v["validationIdHex"],
          node_id: v["nodeId"],
          subnet_id: v["subnetId"],
          weight: String(v["weight"]),
          remaining_balance: String(v["remainingBalance"]),
          creation: BigInt(v["creationTimestamp"] as number),
          bls_public_key: (v["blsCredentials"] as Rec)["publicKey"],
          bls_credentials: v["blsCredentials"],
          remaining_balance_owner: owner(v["remainingBalanceOwner"]),
          deactivation_owner: owner(v["deactivationOwner"]),
          block_height: body["blockHeight"]
        })
      }
      token = body["nextPageToken"] as string | undefined
    } while (token)
  }
  return rows.sort(byKey<Rec>("network", "validation_id"))
}

const actual = async (catalog: string) =>
  (
    await query(
      catalog,
      `SELECT network, validation_id, validation_id_hex, node_id, subnet_id, weight::VARCHAR AS weight, remaining_balance::VARCHAR AS remaining_balance,
         epoch(creation_timestamp)::BIGINT AS creation, bls_public_key, bls_credentials, remaining_balance_owner, deactivation_owner,
         block_height::VARCHAR AS block_height
       FROM l1_validators`
    )
  )
    .map((r) => ({ ...r, bls_credentials: JSON.parse(String(r["bls_credentials"])) }))
    .sort(byKey<Rec>("network", "validation_id"))

/** One crawl from the worker's shared emulator, made for the file's first test that asks and read by the others. */
const it = crawledOnce("l1_validators", "shared", async ({ emu, out }) => ({ out, report: await Effect.runPromise(runSpine(out, emu, { datasets: ["l1_validators"] })) }))

// the first test that asks for the crawl also waits for it: twice the default time
describe("l1_validators (route 13, inactive included) through the spine", { timeout: 120_000 }, () => {
  it("given a run, when the catalog is read, then l1_validators equal route 13's active and inactive validators with their page's block height", async ({ emulator: emu, crawled: { out, report } }) => {
    expect(report.status).toBe("succeeded")
    const want = await expected(emu)
    // inactive validators are there: more than the default (active only) listing
    expect(want.length).toBeGreaterThan((await expected(emu, false)).length)
    expect(await actual(path.join(out, "catalog.duckdb"))).toEqual(want)
    expect(await rejectReasons(out, "l1_validators")).toEqual([])
  })

  it("given a run, when DuckDB describes l1_validators, then weight and balance are exact decimals, owners are structs and every column is commented", async ({ crawled: { out } }) => {
    expect(await columnTypes(out, "l1_validators")).toMatchObject({
      network: "VARCHAR",
      snapshot_date: "DATE",
      weight: "DECIMAL(38,0)",
      remaining_balance: "DECIMAL(38,0)",
      block_height: "DECIMAL(38,0)",
      creation_timestamp: "TIMESTAMP WITH TIME ZONE",
      remaining_balance_owner: "STRUCT(addresses VARCHAR[], threshold INTEGER)"
    })
    expect(await uncommentedColumns(out, "l1_validators")).toEqual([])
  })

  it("given a weight and a balance above 2^53 delivered as bigint, when the record is mapped, then both stay exact", () => {
    const big = 2n ** 60n + 7n
    const record = {
      item: {
        validationId: "v",
        validationIdHex: "0x00",
        nodeId: "NodeID-x",
        subnetId: "s",
        weight: big,
        remainingBalance: big + 1n,
        creationTimestamp: 1_735_689_600,
        blsCredentials: {},
        remainingBalanceOwner: { addresses: [], threshold: 0 },
        deactivationOwner: { addresses: [], threshold: 0 }
      },
      page: { blockHeight: "12" }
    }
    const row = dataset.toRow(record, makeSlice("l1_validators", { network: "mainnet", snapshot_date: "2025-01-01" }))
    expect(row).toMatchObject({ weight: big, remaining_balance: big + 1n, block_height: 12n, bls_public_key: null, bls_credentials: "{}" })
  })
})
