import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { SourceError } from "../../../src/Errors.ts"
import type { Job } from "../../../src/Job.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { runSpine } from "../../support/spine.ts"
import { type Rec, columnTypes, rejectReasons, rows, sortBy, uncommentedColumns } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("fanouts")

const outputText = (o: Rec): string => {
  const out = o["output"] as Rec
  const t = (out["output"] as Rec | undefined) ?? out
  return `${o["assetID"]}:${String(t["amount"])}:${(t["addresses"] as string[]).join("+")}`
}
const inputText = (i: Rec): string => `${i["txID"]}:${i["outputIndex"]}:${String((i["input"] as Rec)["amount"])}`

/** The emulator's avm.getTx (json) of every tx of X heights [from, tip], in the columns compared. */
const expectedTxs = async (emu: RunningEmulator, from: bigint) => {
  const net = emu.world.primary.network("mainnet")
  const out: Rec[] = []
  for (let h = from; h <= net.height("X"); h++) {
    for (const issued of net.blockTxs("X", h)) {
      const tx = (await call(emu, "X", "avm.getTx", { txID: issued.id, encoding: "json" }))["tx"] as Rec
      const u = tx["unsignedTx"] as Rec
      out.push({
        tx_id: tx["id"],
        block_height: String(h),
        ts: String(issued.block.timestamp),
        tx_type: issued.type,
        inputs: ((u["inputs"] as Rec[]) ?? []).map(inputText).join(","),
        outputs: ((u["outputs"] as Rec[]) ?? []).map(outputText).join(","),
        imported: ((u["importedInputs"] as Rec[] | undefined) ?? []).map(inputText).join(","),
        exported: ((u["exportedOutputs"] as Rec[] | undefined) ?? []).map(outputText).join(","),
        source_chain: u["sourceChain"] ?? null,
        destination_chain: u["destinationChain"] ?? null,
        asset_symbol: u["symbol"] ?? null,
        signatures: (tx["credentials"] as Rec[]).map((c) => ((c["credential"] as Rec)["signatures"] as string[]).length).join(",")
      })
    }
  }
  return sortBy(out, (r) => String(r["tx_id"]))
}

const OUTPUT = (list: string) =>
  `array_to_string(list_transform(${list}, o -> o.asset_id || ':' || o.amount::VARCHAR || ':' || array_to_string(o.addresses, '+')), ',')`
const INPUT = (list: string) => `array_to_string(list_transform(${list}, i -> i.tx_id || ':' || i.output_index::VARCHAR || ':' || i.amount::VARCHAR), ',')`

const actualTxs = (out: string) =>
  rows(
    out,
    `SELECT tx_id, block_height::VARCHAR AS block_height, epoch(block_timestamp)::BIGINT::VARCHAR AS ts, tx_type,
       ${INPUT("inputs")} AS inputs, ${OUTPUT("outputs")} AS outputs, ${INPUT("imported_inputs")} AS imported, ${OUTPUT("exported_outputs")} AS exported,
       source_chain, destination_chain, asset_symbol, array_to_string(list_transform(credentials, c -> len(c.signatures)::VARCHAR), ',') AS signatures
     FROM node_transactions`,
    (r) => String(r["tx_id"])
  )

describe("node_transactions and assets (node fan-outs) through the spine", () => {
  let emu: RunningEmulator
  let job: Job
  let out: string
  const calls = newCalls()

  beforeAll(async () => {
    emu = await startEmulator({ seed: 11 })
    job = nodeJob(emu)
    out = await tempOut()
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: ["node_x_blocks", "node_transactions", "avm_utxos", "assets"] }, overRpc(calls)))
    expect(report.status).toBe("succeeded")
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the crawled X blocks, when node_transactions runs, then every tx of them is one row equal to the node's avm.getTx, nested inputs and outputs included", async () => {
    const want = await expectedTxs(emu, 1n)
    expect(want.length).toBeGreaterThan(300)
    // the AVM's five tx types (vms/avm/txs/codec.go), each told by its own json fields
    expect(new Set(want.map((t) => t["tx_type"]))).toEqual(new Set(["BaseTx", "CreateAssetTx", "OperationTx", "ImportTx", "ExportTx"]))
    expect(await actualTxs(out)).toEqual(want)
    expect(calls.count("avm.getTx")).toBe(want.length)
    expect(await rejectReasons(out, "node_transactions")).toEqual([])
  })

  it("given the asset ids in avm_utxos and node_transactions, when assets runs, then each is one row equal to the node's avm.getAssetDescription", async () => {
    const ids = (
      await rows(
        out,
        "SELECT DISTINCT asset_id FROM avm_utxos UNION SELECT DISTINCT unnest(list_transform(outputs, o -> o.asset_id)) FROM node_transactions UNION SELECT tx_id FROM node_transactions WHERE tx_type = 'CreateAssetTx'",
        (r) => String(r["asset_id"])
      )
    ).map((r) => String(r["asset_id"]))
    const want = []
    for (const id of ids) {
      const d = await call(emu, "X", "avm.getAssetDescription", { assetID: id })
      want.push({ asset_id: id, name: d["name"], symbol: d["symbol"], denomination: Number(d["denomination"]) })
    }
    expect(want.length).toBeGreaterThan(3)
    expect(await rows(out, "SELECT asset_id, name, symbol, denomination FROM assets", (r) => String(r["asset_id"]))).toEqual(want)
    // one lookup per id, plus the run's one network check
    expect(calls.count("avm.getAssetDescription")).toBe(want.length + 1)
  })

  it("given a run, when DuckDB describes the views, then amounts are exact, inputs and outputs nested lists, and every column is commented", async () => {
    const types = await columnTypes(out, "node_transactions")
    expect(types).toMatchObject({ network: "VARCHAR", date: "DATE", block_height: "BIGINT", block_timestamp: "TIMESTAMP WITH TIME ZONE", tx_id: "VARCHAR", asset_denomination: "INTEGER" })
    expect(types["outputs"]).toMatch(/^STRUCT\(asset_id VARCHAR, fx_id VARCHAR, amount DECIMAL\(38,0\), locktime BIGINT, threshold INTEGER, addresses VARCHAR\[\], stakeable_locktime BIGINT, output_json VARCHAR\)\[\]$/)
    expect(types["inputs"]).toMatch(/^STRUCT\(tx_id VARCHAR, output_index INTEGER, asset_id VARCHAR, fx_id VARCHAR, amount DECIMAL\(38,0\), signature_indices INTEGER\[\].*\)\[\]$/)
    expect(types["credentials"]).toBe("STRUCT(fx_id VARCHAR, signatures VARCHAR[])[]")
    expect(await columnTypes(out, "assets")).toMatchObject({ network: "VARCHAR", snapshot_date: "DATE", asset_id: "VARCHAR", denomination: "INTEGER" })
    expect(await uncommentedColumns(out, "node_transactions")).toEqual([])
    expect(await uncommentedColumns(out, "assets")).toEqual([])
  })

  it("given a run over the first height only, when the network moves on and the fan-outs run over all heights, then only the new blocks' txs and never-seen assets are asked for", async () => {
    // an emulator of its own: moving the file's clock would add blocks the other tests do not expect
    const emu = await startEmulator({ seed: 11 })
    try {
      await movesOn(emu, nodeJob(emu))
    } finally {
      await emu.close()
    }
  })

  const movesOn = async (emu: RunningEmulator, job: Job) => {
    const o = await tempOut()
    // first the txs of height 1 only, so the second pass meets assets never seen
    const first = newCalls()
    const early: Job = { ...job, nodeXHeights: { from: "1", to: "2" } }
    await Effect.runPromise(runSpine(o, emu, { job: early, datasets: ["node_x_blocks", "node_transactions", "assets"] }, overRpc(first)))
    const fromTxs = (await rows(o, "SELECT asset_id FROM assets", (r) => String(r["asset_id"]))).length
    const before = (await rows(o, "SELECT tx_id FROM node_transactions", (r) => String(r["tx_id"]))).length
    const net = emu.world.primary.network("mainnet")
    emu.advance(1200)
    let newTxs = 0
    for (let h = 2n; h <= net.height("X"); h++) newTxs += net.blockTxs("X", h).length
    expect(newTxs).toBeGreaterThan(0)
    const second = newCalls()
    await Effect.runPromise(runSpine(o, emu, { job, datasets: ["node_x_blocks", "node_transactions", "avm_utxos", "assets"] }, overRpc(second)))
    expect(second.count("avm.getTx")).toBe(newTxs)
    expect((await rows(o, "SELECT tx_id FROM node_transactions", (r) => String(r["tx_id"]))).length).toBe(before + newTxs)
    const all = (await rows(o, "SELECT asset_id FROM assets", (r) => String(r["asset_id"]))).length
    expect(all).toBeGreaterThan(fromTxs)
    expect(second.count("avm.getAssetDescription")).toBe(all - fromTxs + 1)
  }

  it("given a tx the node does not know, when node_transactions runs twice, then it is rejected once with the node's words and not asked for again", async () => {
    const o = await tempOut()
    const net = emu.world.primary.network("mainnet")
    // the id the node serves for it (a hash of its bytes), as the pipeline reads it from the blocks
    const missing = net.served.of(net.blockTxs("X", 150n)[0]!.id)
    const unknown = (c: ReturnType<typeof newCalls>) =>
      overRpc(c, (real, chain, method, params) =>
        method === "avm.getTx" && params["txID"] === missing
          ? Effect.fail(new SourceError({ reason: "Rpc", request: `POST node /ext/bc/X ${method}`, status: 200, detail: "code -32000: not found" }))
          : real(chain, method, params)
      )
    const c1 = newCalls()
    await Effect.runPromise(runSpine(o, emu, { job, datasets: ["node_x_blocks", "node_transactions"] }, unknown(c1)))
    expect(await rejectReasons(o, "node_transactions")).toEqual(["node has no answer: POST node /ext/bc/X avm.getTx: code -32000: not found"])
    const c2 = newCalls()
    const again = await Effect.runPromise(runSpine(o, emu, { job, datasets: ["node_transactions"] }, unknown(c2)))
    expect(again.status).toBe("succeeded")
    expect(c2.count("avm.getTx")).toBe(0)
    expect(await rejectReasons(o, "node_transactions")).toHaveLength(1)
  })
})
