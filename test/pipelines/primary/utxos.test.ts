import { Effect } from "effect"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { HttpError, type RouteDef } from "@chainetl/emulator/http/contract"
import { SourceError } from "../../../src/Errors.ts"
import { defaultJob, type Job } from "../../../src/Job.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { query, runSpine } from "../../support/spine.ts"
import { primaryJobPart } from "../../support/emulatorJob/primary.ts"
import { byKey, columnTypes, rejectReasons, uncommentedColumns } from "../../support/catalogReads.ts"
import { overRestClient } from "../../support/clientWraps.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("utxos")

type Rec = Record<string, unknown>
type AddressSet = Job["addressSets"][number]

const LETTER: Record<string, string> = { "p-chain": "P", "x-chain": "X", "c-chain": "C" }

/** Route 2 in full for one address set (plain fetch): the emulator's own answer. */
const listUtxos = async (emu: RunningEmulator, set: AddressSet, includeSpent: boolean): Promise<Rec[]> => {
  const out: Rec[] = []
  let token: string | undefined
  do {
    const u = new URL(`${emu.baseUrl}/v1/networks/${set.network}/blockchains/${set.blockchain}/utxos`)
    u.searchParams.set("pageSize", "1024")
    u.searchParams.set("includeSpent", String(includeSpent))
    if (token) u.searchParams.set("pageToken", token)
    const res = await fetch(u, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ addresses: set.addresses.join(",") }) })
    const body = (await res.json()) as Rec
    out.push(...(body["utxos"] as Rec[]))
    token = body["nextPageToken"] as string | undefined
  } while (token)
  return out
}

/** The row each REST UTXO must become: the decoded output columns equal the service's own fields. */
const expectedRow = (set: AddressSet, u: Rec) => {
  const asset = u["asset"] as Rec
  const stakeable = BigInt((u["stakeableLocktime"] as number | undefined) ?? 0)
  return {
    network: set.network,
    blockchain: set.blockchain,
    address_set: set.name,
    utxo_id: u["utxoId"],
    tx_id: u["txHash"] ?? u["creationTxHash"],
    output_index: Number(u["outputIndex"]),
    asset_id: asset["assetId"],
    output_type: stakeable > 0n ? 22 : 7,
    amount: asset["amount"],
    locktime: String(u["platformLocktime"] ?? u["locktime"]),
    stakeable_locktime: String(stakeable),
    threshold: u["threshold"],
    addresses: (u["addresses"] as string[]).map((a) => `${LETTER[set.blockchain]}-${a}`).sort(),
    utxo_bytes: u["utxoBytes"],
    asset_symbol: asset["symbol"],
    utxo_type: u["utxoType"],
    staked: u["staked"] ?? null,
    block_number: u["blockNumber"] ?? null,
    created: BigInt((u["blockTimestamp"] ?? u["timestamp"]) as number),
    consuming_tx_hash: u["consumingTxHash"] ?? null,
    consumed: u["consumingBlockTimestamp"] ?? u["consumingTxTimestamp"] ?? null,
    created_on_chain_id: u["createdOnChainId"],
    consumed_on_chain_id: u["consumedOnChainId"],
    utxo_end: u["utxoEndTimestamp"] ?? null
  }
}

const expected = async (emu: RunningEmulator, sets: ReadonlyArray<AddressSet>, includeSpent: boolean) => {
  const rows = []
  for (const set of sets) for (const u of await listUtxos(emu, set, includeSpent)) rows.push(expectedRow(set, u))
  return rows.sort(byKey<Rec>("address_set", "utxo_id"))
}

const actual = async (out: string) =>
  (
    await query(
      path.join(out, "catalog.duckdb"),
      `SELECT network, blockchain, address_set, utxo_id, tx_id, output_index, asset_id, output_type, amount::VARCHAR AS amount,
         locktime::VARCHAR AS locktime, stakeable_locktime::VARCHAR AS stakeable_locktime, threshold, list_sort(addresses) AS addresses,
         utxo_bytes, asset_symbol, utxo_type, staked, block_number::VARCHAR AS block_number, epoch(block_timestamp)::BIGINT AS created,
         consuming_tx_hash, epoch(consuming_block_timestamp)::INTEGER AS consumed, created_on_chain_id, consumed_on_chain_id,
         epoch(utxo_end_timestamp)::INTEGER AS utxo_end
       FROM utxos`
    )
  ).sort(byKey<Rec>("address_set", "utxo_id"))

/** Test-only routes that make route 2 unavailable: 405 on mainnet, 404 "Cannot POST" on fuji. */
const postUnavailable: ReadonlyArray<RouteDef> = [
  { method: "POST", host: "data", seedRoute: 2, path: "/v1/networks/mainnet/blockchains/{blockchainId}/utxos", handle: () => { throw new HttpError(405, "Method Not Allowed") } },
  { method: "POST", host: "data", seedRoute: 2, path: "/v1/networks/fuji/blockchains/{blockchainId}/utxos", handle: (ctx) => { throw new HttpError(404, `Cannot POST ${ctx.path}`) } }
]

describe("utxos (routes 2/3) through the spine", () => {
  let emu: RunningEmulator
  let sets: ReadonlyArray<AddressSet>
  let out: string
  let job: Job

  beforeAll(async () => {
    emu = await startEmulator({ seed: 11 })
    sets = primaryJobPart(emu).addressSets ?? []
    job = { ...defaultJob, addressSets: sets, includeSpent: true }
    out = await tempOut()
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: ["utxos"] }))
    expect(report.status).toBe("succeeded")
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given P- and X-chain address sets on both networks, when utxos runs with includeSpent, then every UTXO's decoded columns equal the service's fields", async () => {
    expect(sets.map((s) => `${s.network}/${s.blockchain}`)).toEqual(["mainnet/p-chain", "mainnet/x-chain", "fuji/p-chain", "fuji/x-chain"])
    const want = await expected(emu, sets, true)
    // spent outputs are listed, and one set needs more than one 1024-row page
    expect(want.some((r) => r.consuming_tx_hash !== null)).toBe(true)
    expect(want.filter((r) => r.address_set.startsWith("fuji-p")).length).toBeGreaterThan(1024)
    expect(await actual(out)).toEqual(want)
    expect(await rejectReasons(out, "utxos")).toEqual([])
  })

  it("given a run, when DuckDB describes utxos, then amounts are exact, locktimes BIGINT, owners a list and every column is commented", async () => {
    const catalog = path.join(out, "catalog.duckdb")
    expect(await columnTypes(out, "utxos")).toMatchObject({
      network: "VARCHAR",
      blockchain: "VARCHAR",
      snapshot_date: "DATE",
      utxo_id: "VARCHAR",
      output_index: "INTEGER",
      output_type: "INTEGER",
      amount: "DECIMAL(38,0)",
      locktime: "BIGINT",
      stakeable_locktime: "BIGINT",
      threshold: "INTEGER",
      addresses: "VARCHAR[]",
      block_number: "DECIMAL(38,0)",
      block_timestamp: "TIMESTAMP WITH TIME ZONE",
      credentials: "STRUCT(signature VARCHAR, public_key VARCHAR)[]"
    })
    expect(await uncommentedColumns(out, "utxos")).toEqual([])
    const parts = await query(catalog, "SELECT DISTINCT network, blockchain, snapshot_date::VARCHAR AS d FROM utxos ORDER BY ALL")
    expect(parts.map((p) => `${p["network"]}/${p["blockchain"]}`)).toEqual(["fuji/p-chain", "fuji/x-chain", "mainnet/p-chain", "mainnet/x-chain"])
  })

  it("given a UTXO whose service amount disagrees with its bytes, when utxos runs, then it is rejected with both values and the rest are written", async () => {
    const set = sets.find((s) => s.blockchain === "x-chain") as AddressSet
    const first = (await listUtxos(emu, set, false))[0] as Rec
    const bytesAmount = String((first["asset"] as Rec)["amount"])
    const tamper = overRestClient((real) => ({
      ...real,
      post: (service, p, q, body) =>
        Effect.map(real.post(service, p, q, body), (b) => {
          const page = b as { utxos: Rec[] }
          return { ...page, utxos: page.utxos.map((u) => (u["utxoId"] === first["utxoId"] ? { ...u, asset: { ...(u["asset"] as Rec), amount: `${bytesAmount}1` } } : u)) }
        })
    }))
    const tampered = await tempOut()
    await Effect.runPromise(runSpine(tampered, emu, { job: { ...defaultJob, addressSets: [set] }, datasets: ["utxos"] }, tamper))
    expect(await rejectReasons(tampered, "utxos")).toEqual([
      `utxoBytes disagree with the service's fields: asset.amount: bytes ${bytesAmount} ≠ service ${bytesAmount}1`
    ])
    const ids = (await actual(tampered)).map((r) => r["utxo_id"])
    expect(ids).not.toContain(first["utxoId"])
    expect(ids.length).toBe((await listUtxos(emu, set, false)).length - 1)
  })

  it("given route 2 answering 405 on mainnet and 404 on fuji, when utxos runs, then every slice lists through route 3 and the rows are the same", async () => {
    const noPost = await startEmulator({ seed: 11 }, { routes: postUnavailable })
    try {
      const calls: string[] = []
      const count = overRestClient((real) => ({
        ...real,
        get: (service, p, q) => {
          if (p.endsWith("/utxos")) calls.push(`GET ${p}`)
          return real.get(service, p, q)
        },
        post: (service, p, q, body) => {
          calls.push(`POST ${p}`)
          return real.post(service, p, q, body)
        }
      }))
      const fallback = await tempOut()
      const report = await Effect.runPromise(runSpine(fallback, noPost, { job, datasets: ["utxos"] }, count))
      expect(report.status).toBe("succeeded")
      // one refused POST per slice, then GET pages of 100 only
      expect(calls.filter((c) => c.startsWith("POST")).length).toBe(sets.length)
      expect(noPost.state().requests.byStatus).toMatchObject({ "404": 2, "405": 2 })
      const rows = (await actual(fallback)).length
      expect(calls.filter((c) => c.startsWith("GET")).length).toBeGreaterThanOrEqual(Math.ceil(rows / 100))
      expect(await actual(fallback)).toEqual(await actual(out))
    } finally {
      await noPost.close()
    }
  })

  it("given pages that repeat the previous page's last UTXO and a run that fails mid-listing, when it resumes, then each UTXO is written once", async () => {
    const set = sets.find((s) => s.network === "mainnet" && s.blockchain === "x-chain") as AddressSet
    const small: Job = { ...defaultJob, addressSets: [set], includeSpent: true }
    // the last record of the page that handed out each token, shared by both runs
    const lastBefore = new Map<string, Rec>()
    let posts = 0
    const repeating = (failAt: number) =>
      overRestClient((real) => ({
        ...real,
        post: (service, p, q, body) => {
          if (++posts === failAt) return Effect.fail(new SourceError({ reason: "HttpStatus", request: `POST ${p}`, status: 400, detail: "injected" }))
          return Effect.map(real.post(service, p, { ...q, pageSize: 3 }, body), (b) => {
            const page = b as { utxos: Rec[]; nextPageToken?: string }
            const token = q?.["pageToken"]
            const repeat = typeof token === "string" ? lastBefore.get(token) : undefined
            if (page.nextPageToken !== undefined) lastBefore.set(page.nextPageToken, page.utxos[page.utxos.length - 1] as Rec)
            return { ...page, utxos: repeat === undefined ? page.utxos : [repeat, ...page.utxos] }
          })
        }
      }))
    const resumed = await tempOut()
    // 5 rows a part: pages 1-2 and 3-4 are committed, page 5 is fetched but not, the 6th request fails
    const failed = await Effect.runPromise(runSpine(resumed, emu, { job: small, datasets: ["utxos"], partRows: 5 }, repeating(6)))
    expect(failed.status).toBe("failed")
    const done = await Effect.runPromise(runSpine(resumed, emu, { job: small, datasets: ["utxos"], partRows: 5 }, repeating(-1)))
    expect(done.status).toBe("succeeded")
    const rows = await actual(resumed)
    expect(new Set(rows.map((r) => r["utxo_id"])).size).toBe(rows.length)
    expect(rows).toEqual((await actual(out)).filter((r) => r["address_set"] === set.name))
    expect(await rejectReasons(resumed, "utxos")).toEqual([])
  })
})
