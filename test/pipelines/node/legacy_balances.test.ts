import { Effect } from "effect"
import { describe, expect } from "vitest"
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import { selectDatasets } from "../../../src/Runner.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { runSpine } from "../../support/spine.ts"
import { type Rec, columnTypes, plain, rows, uncommentedColumns } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"

const actual = async (out: string) =>
  plain(
    await rows(
      out,
      `SELECT address, method,
         list_transform(balances, b -> struct_pack(asset := b.asset, balance := b.balance::VARCHAR, unlocked := b.unlocked::VARCHAR,
           locked_stakeable := b.locked_stakeable::VARCHAR, locked_not_stakeable := b.locked_not_stakeable::VARCHAR)) AS balances,
         array_to_string(list_transform(utxo_ids, u -> u.tx_id || ':' || u.output_index::VARCHAR || ':' || coalesce(u.tx_status, '-')), ',') AS utxos
       FROM legacy_balances`,
      (r) => `${r["address"]}|${r["method"]}`
    )
  ) as Rec[]

/** The node job with legacy enabled (it is off by default). */
const legacyJob = (emu: RunningEmulator): Job => {
  const node = nodeJob(emu)
  return { ...node, legacy: { ...node.legacy, enabled: true } }
}

/** The file's crawl from the worker's shared emulator (these tests only read from it), made for the first test that asks. */
const it = crawledOnce("legacy-balances", "shared", async ({ emu, out }) => {
  const calls = newCalls()
  const job = legacyJob(emu)
  const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: ["legacy_balances"] }, overRpc(calls)))
  expect(report.status).toBe("succeeded")
  return { job, out, calls }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("legacy_balances (deprecated balance methods) through the spine", { timeout: 120_000 }, () => {
  it("given the default selection, when legacy is off or on, then legacy_balances is left out or included", ({ emulator }) => {
    const job = legacyJob(emulator)
    expect(selectDatasets([], { ...job, legacy: { ...job.legacy, enabled: false } }).map((d) => d.name)).not.toContain("legacy_balances")
    expect(selectDatasets([], job).map((d) => d.name)).toContain("legacy_balances")
  })

  it("given an X- and a P-chain address, when legacy_balances runs, then each method's row equals the node's answer, tx statuses included", async ({ emulator: emu, crawled: { job, out, calls } }) => {
    const [x, p] = job.legacy.addresses.map((a) => a.address)
    expect(x).toMatch(/^X-avax1/)
    expect(p).toMatch(/^P-avax1/)
    const none = { unlocked: null, locked_stakeable: null, locked_not_stakeable: null }
    const all = await call(emu, "X", "avm.getAllBalances", { address: x })
    const avax = await call(emu, "X", "avm.getBalance", { address: x, assetID: "AVAX" })
    const statuses: string[] = []
    for (const u of avax["utxoIDs"] as Rec[]) statuses.push(`${u["txID"]}:${u["outputIndex"]}:${(await call(emu, "X", "avm.getTxStatus", { txID: u["txID"] }))["status"]}`)
    const pb = await call(emu, "P", "platform.getBalance", { addresses: [p] })
    const map = (k: string, asset: string) => String((pb[k] as Rec)[asset] ?? "0")
    expect(await actual(out)).toEqual([
      {
        address: p,
        method: "platform.getBalance",
        balances: Object.keys(pb["balances"] as Rec)
          .sort()
          .map((asset) => ({
            asset,
            balance: map("balances", asset),
            unlocked: map("unlockeds", asset),
            locked_stakeable: map("lockedStakeables", asset),
            locked_not_stakeable: map("lockedNotStakeables", asset)
          })),
        utxos: (pb["utxoIDs"] as Rec[]).map((u) => `${u["txID"]}:${u["outputIndex"]}:-`).join(",")
      },
      { address: x, method: "avm.getAllBalances", balances: (all["balances"] as Rec[]).map((b) => ({ asset: b["asset"], balance: b["balance"], ...none })), utxos: "" },
      { address: x, method: "avm.getBalance", balances: [{ asset: "AVAX", balance: avax["balance"], ...none }], utxos: statuses.join(",") }
    ])
    expect(statuses.length).toBeGreaterThan(0)
    // one status call per distinct tx
    expect(calls.count("avm.getTxStatus")).toBe(new Set((avax["utxoIDs"] as Rec[]).map((u) => u["txID"])).size)
  })

  it("given a run, when DuckDB describes legacy_balances, then balances are exact and nested, and every column is commented", async ({ crawled: { out } }) => {
    const types = await columnTypes(out, "legacy_balances")
    expect(types).toMatchObject({ network: "VARCHAR", snapshot_date: "DATE", address: "VARCHAR", method: "VARCHAR" })
    expect(types["balances"]).toBe(
      "STRUCT(asset VARCHAR, balance DECIMAL(38,0), unlocked DECIMAL(38,0), locked_stakeable DECIMAL(38,0), locked_not_stakeable DECIMAL(38,0))[]"
    )
    expect(types["utxo_ids"]).toBe("STRUCT(tx_id VARCHAR, output_index INTEGER, tx_status VARCHAR)[]")
    expect(await uncommentedColumns(out, "legacy_balances")).toEqual([])
  })
})
