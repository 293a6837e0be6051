import { Effect } from "effect"
import * as path from "node:path"
import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { fetchAll, query, runSpine } from "../../support/spine.ts"
import { NETWORKS } from "../../support/emulatorJob/groups.ts"
import { byKey, columnTypes, rejectReasons, uncommentedColumns } from "../../support/catalogReads.ts"

type Rec = Record<string, unknown>

/** Route 8's delegators of both networks, all statuses, in the columns we compare. */
const expected = async (emu: RunningEmulator, snapshot: string) => {
  const rows = []
  for (const network of NETWORKS) {
    for (const d of await fetchAll(`${emu.baseUrl}/v1/networks/${network}/delegators`, "delegators")) {
      rows.push({
        network,
        snapshot_date: snapshot,
        tx_hash: d["txHash"],
        node_id: d["nodeId"],
        reward_addresses: d["rewardAddresses"],
        amount_delegated: d["amountDelegated"],
        delegation_fee: d["delegationFee"],
        start: BigInt(d["startTimestamp"] as number),
        end: BigInt(d["endTimestamp"] as number),
        delegation_status: d["delegationStatus"],
        gross_reward: d["grossReward"] ?? null,
        net_reward: d["netReward"] ?? null,
        estimated_gross_reward: d["estimatedGrossReward"] ?? null,
        estimated_net_reward: d["estimatedNetReward"] ?? null
      })
    }
  }
  return rows.sort(byKey<Rec>("network", "tx_hash"))
}

const actual = async (catalog: string) =>
  (
    await query(
      catalog,
      `SELECT network, snapshot_date::VARCHAR AS snapshot_date, tx_hash, node_id, reward_addresses, amount_delegated::VARCHAR AS amount_delegated,
         delegation_fee, epoch(start_timestamp)::BIGINT AS start, epoch(end_timestamp)::BIGINT AS "end", delegation_status,
         gross_reward::VARCHAR AS gross_reward, net_reward::VARCHAR AS net_reward,
         estimated_gross_reward::VARCHAR AS estimated_gross_reward, estimated_net_reward::VARCHAR AS estimated_net_reward
       FROM delegators`
    )
  ).sort(byKey<Rec>("network", "tx_hash"))

/** One crawl of delegators from the worker's shared emulator, made for the file's first test that asks. */
const it = crawledOnce("delegators", "shared", async ({ emu, out }) => ({ out, report: await Effect.runPromise(runSpine(out, emu, { datasets: ["delegators"] })) }))

// the first test that asks for the crawl also waits for it: twice the default time
describe("delegators (route 8) through the spine", { timeout: 120_000 }, () => {
  it("given a run, when the catalog is read, then delegators equal the emulator's delegations of every status on both networks", async ({ emulator: emu, crawled: { out, report } }) => {
    expect(report.status).toBe("succeeded")
    // the run's day as the spine handed it to the slices (it follows the service's clock, not ours)
    const runDate = report.slices[0]?.params["snapshot_date"] ?? ""
    expect(runDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const want = await expected(emu, runDate)
    // no status filter is applied: finished and running delegations are both there
    expect([...new Set(want.map((d) => d.delegation_status))]).toEqual(expect.arrayContaining(["active", "completed"]))
    expect(await actual(path.join(out, "catalog.duckdb"))).toEqual(want)
    expect(await rejectReasons(out, "delegators")).toEqual([])
  })

  it("given a run, when DuckDB describes delegators, then amounts are DECIMAL(38,0), times TIMESTAMPTZ, the snapshot a DATE key and every column is commented", async ({ crawled: { out } }) => {
    expect(await columnTypes(out, "delegators")).toMatchObject({
      network: "VARCHAR",
      snapshot_date: "DATE",
      tx_hash: "VARCHAR",
      reward_addresses: "VARCHAR[]",
      amount_delegated: "DECIMAL(38,0)",
      gross_reward: "DECIMAL(38,0)",
      estimated_net_reward: "DECIMAL(38,0)",
      start_timestamp: "TIMESTAMP WITH TIME ZONE",
      delegation_status: "VARCHAR"
    })
    expect(await uncommentedColumns(out, "delegators")).toEqual([])
  })

  it("given a finished snapshot, when the same day runs again, then the slices are skipped and no row is doubled", async ({ emulator: emu, crawled: { out } }) => {
    const again = await Effect.runPromise(runSpine(out, emu, { datasets: ["delegators"] }))
    expect(again.slices.map((s) => s.status)).toEqual(["skipped", "skipped"])
    const [{ n }] = (await query(path.join(out, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n FROM delegators")) as [{ n: number }]
    expect(n).toBe((await expected(emu, "")).length)
  })
})
