import { Effect } from "effect"
import { describe, expect } from "vitest"
import { decodeUtxoHex } from "../../../src/decode/utxo.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import { crawledOnce } from "../../support/crawledOnce.ts"
import { runSpine } from "../../support/spine.ts"
import { type Rec, columnTypes, plain, rejectReasons, rows, sortBy, uncommentedColumns } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"

type AddressSet = Job["addressSets"][number]
const P_CHAIN_ID = "11111111111111111111111111111111LpoYY"

/** Every hex UTXO avm.getUTXOs gives for the set (plain fetch, endIndex paging). */
const nodeHex = async (emu: RunningEmulator, set: AddressSet, sourceChain?: string): Promise<string[]> => {
  const out: string[] = []
  let start: Rec | undefined
  for (;;) {
    const page = await call(emu, "X", "avm.getUTXOs", { addresses: set.addresses, limit: 1024, ...(start ? { startIndex: start } : {}), ...(sourceChain ? { sourceChain } : {}) })
    out.push(...(page["utxos"] as string[]))
    if (Number(page["numFetched"]) < 1024) return out
    start = page["endIndex"] as Rec
  }
}

/** Route 2 (REST) for the set: the service's own fields of the same UTXOs. */
const restUtxos = async (emu: RunningEmulator, set: AddressSet): Promise<Rec[]> => {
  const res = await fetch(`${emu.baseUrl}/v1/networks/${set.network}/blockchains/x-chain/utxos?pageSize=1024`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ addresses: set.addresses.join(",") })
  })
  const body = (await res.json()) as Rec
  expect(body["nextPageToken"]).toBeUndefined()
  return body["utxos"] as Rec[]
}

const decodedRow = (set: AddressSet, hex: string, source: string | null) => {
  const d = decodeUtxoHex(hex, "avax", "X")
  return plain({
    address_set: set.name,
    source_chain: source,
    utxo_id: d.utxoId,
    tx_id: d.txId,
    output_index: d.outputIndex,
    asset_id: d.assetId,
    output_type: d.outputType,
    amount: d.amount,
    locktime: d.locktime,
    stakeable_locktime: d.stakeableLocktime,
    threshold: d.threshold,
    addresses: [...d.addresses],
    utxo_bytes: hex
  }) as Rec
}

const actual = (out: string) =>
  rows(
    out,
    `SELECT address_set, source_chain, utxo_id, tx_id, output_index, asset_id, output_type, amount::VARCHAR AS amount, locktime::VARCHAR AS locktime,
       stakeable_locktime::VARCHAR AS stakeable_locktime, threshold, addresses, utxo_bytes FROM avm_utxos`,
    (r) => `${r["address_set"]}|${r["utxo_id"]}`
  )

/** The file's crawl from the worker's shared emulator (these tests only read from it), made for the first test that asks. */
const it = crawledOnce("avm-utxos", "shared", async ({ emu, out }) => {
  const job = nodeJob(emu)
  const sets = job.addressSets.filter((s) => s.network === "mainnet" && s.blockchain === "x-chain")
  const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: ["avm_utxos"] }))
  expect(report.status).toBe("succeeded")
  return { job, sets, out }
})

// the first test that asks for the crawl also waits for it: twice the default time
describe("avm_utxos (avm.getUTXOs) through the spine", { timeout: 120_000 }, () => {
  it("given the job's mainnet x-chain sets, when avm_utxos runs, then each set's own and atomic UTXOs are rows equal to their hex decoded", async ({ emulator: emu, crawled: { sets, out } }) => {
    expect(sets.map((s) => s.name)).toEqual(["mainnet-x-wallet-0", "mainnet-x-atomic-wallet-1"])
    const want: Rec[] = []
    for (const set of sets) {
      for (const hex of await nodeHex(emu, set)) want.push(decodedRow(set, hex, null))
      for (const hex of await nodeHex(emu, set, "P")) want.push(decodedRow(set, hex, P_CHAIN_ID))
      expect(await nodeHex(emu, set, "C")).toEqual([])
    }
    expect(want.filter((r) => r["source_chain"] === P_CHAIN_ID)).toHaveLength(1)
    expect(plain(await actual(out))).toEqual(sortBy(want, (r) => `${r["address_set"]}|${r["utxo_id"]}`))
    expect(await rejectReasons(out, "avm_utxos")).toEqual([])
  })

  it("given the same addresses, when route 2 (REST) lists them, then its fields equal the decoded columns of the same UTXOs", async ({ emulator: emu, crawled: { sets, out } }) => {
    for (const set of sets) {
      const rest = sortBy(
        (await restUtxos(emu, set)).map((u) => ({
          utxo_id: u["utxoId"],
          tx_id: u["creationTxHash"],
          output_index: Number(u["outputIndex"]),
          asset_id: (u["asset"] as Rec)["assetId"],
          amount: String((u["asset"] as Rec)["amount"]),
          locktime: String(u["locktime"]),
          threshold: u["threshold"],
          addresses: (u["addresses"] as string[]).map((a) => `X-${a}`).sort(),
          utxo_bytes: u["utxoBytes"]
        })),
        (r) => String(r.utxo_id)
      )
      const mine = (await actual(out))
        .filter((r) => r["address_set"] === set.name)
        .map((r) => ({
          utxo_id: r["utxo_id"],
          tx_id: r["tx_id"],
          output_index: r["output_index"],
          asset_id: r["asset_id"],
          amount: r["amount"],
          locktime: r["locktime"],
          threshold: r["threshold"],
          addresses: [...(r["addresses"] as string[])].sort(),
          utxo_bytes: r["utxo_bytes"]
        }))
      expect(rest.length).toBeGreaterThan(20)
      expect(mine).toEqual(rest)
    }
  })

  it("given a run, when DuckDB describes avm_utxos, then amounts are exact, locktimes BIGINT, owners a list, partitions network/chain/snapshot_date, every column commented", async ({ emulator: emu, crawled: { out } }) => {
    expect(await columnTypes(out, "avm_utxos")).toMatchObject({
      network: "VARCHAR",
      chain: "VARCHAR",
      snapshot_date: "DATE",
      utxo_id: "VARCHAR",
      output_index: "INTEGER",
      output_type: "INTEGER",
      amount: "DECIMAL(38,0)",
      locktime: "BIGINT",
      stakeable_locktime: "BIGINT",
      threshold: "INTEGER",
      addresses: "VARCHAR[]"
    })
    expect(await uncommentedColumns(out, "avm_utxos")).toEqual([])
    const parts = await rows(out, "SELECT DISTINCT network, chain, snapshot_date::VARCHAR AS d FROM avm_utxos", (r) => String(r["d"]))
    expect(parts).toEqual([{ network: "mainnet", chain: "x-chain", d: new Date(emu.clock.now() * 1000).toISOString().slice(0, 10) }])
  })

  it("given churn (pages overlap, the set flickers) and pages of 5, when avm_utxos runs, then each UTXO is written once and every one is a UTXO the node has", async ({ emulator: emu, crawled: { job, sets }, folder }) => {
    const churn = await startEmulator({ seed: 11, utxoChurn: true })
    try {
      const set = sets[0]!
      const calls = newCalls()
      let returned = 0
      // pages of 5: a full page of 5 reads as a full page of the pipeline's 1024 (rule 5: more may exist)
      const small = overRpc(calls, (real, chain, method, params) =>
        method === "avm.getUTXOs"
          ? Effect.map(real(chain, method, { ...params, limit: 5 }), (r) => {
              const n = ((r as Rec)["utxos"] as string[]).length
              returned += n
              return { ...(r as Rec), numFetched: n === 5 ? "1024" : String(n) }
            })
          : real(chain, method, params)
      )
      const o = await folder("avm-utxos")
      const report = await Effect.runPromise(runSpine(o, churn, { job: { ...job, addressSets: [set], atomicSourceChains: [] }, datasets: ["avm_utxos"] }, small))
      expect(report.status).toBe("succeeded")
      const got = (await actual(o)).map((r) => String(r["utxo_id"]))
      const truth = new Set((await nodeHex(emu, set)).map((h) => decodeUtxoHex(h, "avax", "X").utxoId))
      expect(calls.count("avm.getUTXOs")).toBeGreaterThan(5)
      // the node repeated the previous page's last UTXO on every later page
      expect(returned).toBeGreaterThan(got.length)
      expect(new Set(got).size).toBe(got.length)
      expect(got.every((id) => truth.has(id))).toBe(true)
      expect(got.length).toBeGreaterThanOrEqual(truth.size - calls.count("avm.getUTXOs"))
    } finally {
      await churn.close()
    }
  })
})
