import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "../../../src/emulator/index.ts"
import { SourceError } from "../../../src/Errors.ts"
import type { Job } from "../../../src/Job.ts"
import { filesUnder, runSpine, tempOut } from "../../support/spine.ts"
import { type Rec, call, columnTypes, newCalls, nodeJob, overRpc, plain, rejectReasons, rows, uncommented } from "./support.ts"
import * as path from "node:path"

const DATASETS = ["node_x_blocks", "node_p_blocks"]

/** A transfer output's amount, or the one inside a stakeable lock. */
const outputAmount = (o: Rec): string => String(o["amount"] ?? (o["output"] as Rec | undefined)?.["amount"] ?? "")

/** The emulator's json block at each height of [from, tip], in the columns compared. */
const expectedBlocks = async (emu: RunningEmulator, chain: "X" | "P", from: bigint) => {
  const method = chain === "X" ? "avm.getBlockByHeight" : "platform.getBlockByHeight"
  const tip = BigInt(String(chain === "X" ? (await call(emu, "X", "avm.getHeight"))["height"] : (await call(emu, "P", "platform.getCurrentSupply"))["height"]))
  const out: Rec[] = []
  for (let h = from; h <= tip; h++) {
    const b = (await call(emu, chain, method, { height: chain === "X" ? String(h) : Number(h), encoding: "json" }))["block"] as Rec
    const txs = b["txs"] as Rec[]
    out.push({
      height: String(b["height"]),
      block_id: b["id"],
      parent_id: b["parentID"],
      ts: String(b["time"]),
      tx_ids: txs.map((t) => t["id"]).join(","),
      amounts: txs.flatMap((t) => ((t["unsignedTx"] as Rec)["outputs"] as Rec[] | undefined ?? []).map((o) => outputAmount(o["output"] as Rec))).join(",")
    })
  }
  return out
}

const actualBlocks = (out: string, dataset: string) =>
  rows(
    out,
    dataset === "node_x_blocks"
      ? `SELECT height::VARCHAR AS height, block_id, parent_id, epoch(block_timestamp)::BIGINT::VARCHAR AS ts, array_to_string(tx_ids, ',') AS tx_ids FROM node_x_blocks`
      : `SELECT height::VARCHAR AS height, block_id, parent_id, epoch(block_timestamp)::BIGINT::VARCHAR AS ts,
           array_to_string(list_transform(txs, t -> t.tx_id), ',') AS tx_ids,
           array_to_string(flatten(list_transform(txs, t -> list_transform(t.outputs, o -> coalesce(o.amount::VARCHAR, '')))), ',') AS amounts
         FROM node_p_blocks`,
    (r) => String(r["height"]).padStart(20, "0")
  )

const withoutAmounts = (rs: Rec[]) => rs.map(({ amounts: _a, ...r }) => r)

describe("node_x_blocks and node_p_blocks (node json blocks by height window) through the spine", () => {
  let emu: RunningEmulator
  let job: Job
  let out: string
  let pages: Record<string, number>
  const calls = newCalls()

  beforeAll(async () => {
    emu = await startEmulator({ seed: 11 })
    job = nodeJob(emu)
    out = await tempOut()
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: DATASETS }, overRpc(calls)))
    expect(report.status).toBe("succeeded")
    pages = Object.fromEntries(report.slices.map((s) => [s.dataset, s.pages]))
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the last 200 heights in windows of 100, when the blocks run, then each height's row equals the node's json block and every window is one page", async () => {
    expect(job.nodeXHeights).toEqual({ from: "1" })
    expect(job.nodePHeights).toEqual({ from: "61" })
    expect(withoutAmounts(await actualBlocks(out, "node_x_blocks"))).toEqual(withoutAmounts(await expectedBlocks(emu, "X", 1n)))
    const p = await actualBlocks(out, "node_p_blocks")
    expect(p.length).toBe(200)
    expect(p).toEqual(await expectedBlocks(emu, "P", 61n))
    // X: [1,100) [100,200) [200] — P: [61,100) [100,200) [200,260]
    expect(calls.count("avm.getBlockByHeight")).toBe(200)
    expect(calls.count("platform.getBlockByHeight")).toBe(200)
    expect(pages).toEqual({ node_x_blocks: 3, node_p_blocks: 3 })
    expect(await rejectReasons(out, "node_x_blocks")).toEqual([])
  })

  it("given P-chain blocks, when their txs are read, then each tx type inferred from the json equals the type the emulator issued", async () => {
    const net = emu.world.primary.network("mainnet")
    const want: Rec[] = []
    for (let h = 61n; h <= 260n; h++) for (const t of net.blockTxs("P", h)) want.push({ height: String(h), tx_id: net.served.of(t.id), tx_type: t.type })
    const got = await rows(
      out,
      "SELECT height::VARCHAR AS height, t.tx_id, t.tx_type FROM (SELECT height, unnest(txs) AS t FROM node_p_blocks)",
      (r) => `${String(r["height"]).padStart(20, "0")}${r["tx_id"]}`
    )
    const key = (r: Rec) => `${String(r["height"]).padStart(20, "0")}${r["tx_id"]}`
    expect(got).toEqual(want.sort((a, b) => (key(a) < key(b) ? -1 : 1)))
    expect(new Set(got.map((r) => r["tx_type"])).size).toBeGreaterThan(3)
  })

  it("given a run, when DuckDB describes the views, then heights are BIGINT, times TIMESTAMPTZ, txs nested with exact amounts, and every column is commented", async () => {
    const x = await columnTypes(out, "node_x_blocks")
    expect(x).toMatchObject({ network: "VARCHAR", date: "DATE", height: "BIGINT", block_id: "VARCHAR", block_timestamp: "TIMESTAMP WITH TIME ZONE", tx_count: "INTEGER", tx_ids: "VARCHAR[]" })
    const p = await columnTypes(out, "node_p_blocks")
    expect(p["txs"]).toMatch(/^STRUCT\(tx_id VARCHAR, tx_type VARCHAR, .*outputs STRUCT\(asset_id VARCHAR, fx_id VARCHAR, amount DECIMAL\(38,0\), locktime BIGINT, threshold INTEGER, addresses VARCHAR\[\].*\)\[\].*weight DECIMAL\(38,0\).*\)\[\]$/)
    expect(await uncommented(out, "node_x_blocks")).toEqual([])
    expect(await uncommented(out, "node_p_blocks")).toEqual([])
    for (const f of await filesUnder(path.join(out, "node_x_blocks"))) expect(f).toMatch(/^network=mainnet\/month=\d{4}-\d{2}\/part-/)
  })

  it("given a finished run, when the network moves on and the blocks run again, then only the new heights are asked for and the open window is continued into new windows", async () => {
    const again = await tempOut()
    const first = newCalls()
    await Effect.runPromise(runSpine(again, emu, { job, datasets: DATASETS }, overRpc(first)))
    const xTip = BigInt(String((await call(emu, "X", "avm.getHeight"))["height"]))
    emu.advance(2400)
    const newX = BigInt(String((await call(emu, "X", "avm.getHeight"))["height"])) - xTip
    const second = newCalls()
    const report = await Effect.runPromise(runSpine(again, emu, { job, datasets: DATASETS }, overRpc(second)))
    expect(report.status).toBe("succeeded")
    // 2400 s: 120 X blocks (every 20 s), 80 P blocks (every 30 s), past the 300 boundary on both
    expect(newX).toBe(120n)
    expect(second.count("avm.getBlockByHeight")).toBe(120)
    expect(second.count("platform.getBlockByHeight")).toBe(80)
    expect(second.log.filter((c) => c.method === "avm.getBlockByHeight").map((c) => Number(c.params["height"])).sort((a, b) => a - b)[0]).toBe(201)
    expect(withoutAmounts(await actualBlocks(again, "node_x_blocks"))).toEqual(withoutAmounts(await expectedBlocks(emu, "X", 1n)))
    expect(await actualBlocks(again, "node_p_blocks")).toEqual(await expectedBlocks(emu, "P", 61n))
  })

  it("given a node whose platform.getCurrentSupply leaves out the height, when node_p_blocks runs, then the tip is probed in a few calls and the rows are the same", async () => {
    const fresh = await startEmulator({ seed: 11 })
    try {
      const probed = newCalls()
      const noHeight = overRpc(probed, (real, chain, method, params) =>
        method === "platform.getCurrentSupply" ? Effect.map(real(chain, method, params), (r) => ({ ...(r as Rec), height: undefined })) : real(chain, method, params)
      )
      const o = await tempOut()
      const report = await Effect.runPromise(runSpine(o, fresh, { job: nodeJob(fresh), datasets: ["node_p_blocks"] }, noHeight))
      expect(report.status).toBe("succeeded")
      const probes = probed.log.filter((c) => c.method === "platform.getBlockByHeight" && c.params["encoding"] === "hex")
      // genesis, 1,3,7,…,255, 511 (missing), then bisection of (255, 511): 1 + 9 + 8
      expect(probes.length).toBe(18)
      expect(plain(await actualBlocks(o, "node_p_blocks"))).toEqual(plain(await actualBlocks(out, "node_p_blocks")))
    } finally {
      await fresh.close()
    }
  })

  it("given blocks whose json has no time, when node_x_blocks runs, then their timestamp is null and they go under the ingestion day", async () => {
    const o = await tempOut()
    const untimed = overRpc(newCalls(), (real, chain, method, params) =>
      method === "avm.getBlockByHeight"
        ? Effect.map(real(chain, method, params), (r) => ({ ...(r as Rec), block: { ...((r as Rec)["block"] as Rec), time: undefined } }))
        : real(chain, method, params)
    )
    const report = await Effect.runPromise(runSpine(o, emu, { job: { ...job, nodeXHeights: { from: "5", to: "8" } }, datasets: ["node_x_blocks"] }, untimed))
    expect(report.status).toBe("succeeded")
    const got = await rows(o, "SELECT height::VARCHAR AS height, block_timestamp, date::VARCHAR AS d, ingested_at::DATE::VARCHAR AS ingested FROM node_x_blocks", (r) => String(r["height"]))
    expect(got.map((r) => [r["height"], r["block_timestamp"], r["d"] === r["ingested"]])).toEqual([
      ["5", null, true],
      ["6", null, true],
      ["7", null, true]
    ])
  })

  it("given a run that fails inside its second window, when it resumes, then it continues from the committed windows' cursor and every height is written once", async () => {
    const o = await tempOut()
    // a fixed range: earlier tests moved the network on
    const ranged: Job = { ...job, nodeXHeights: { from: "1", to: "201" } }
    let n = 0
    const failAt = (at: number) =>
      overRpc(newCalls(), (real, chain, method, params) =>
        method === "avm.getBlockByHeight" && ++n === at
          ? Effect.fail(new SourceError({ reason: "Rpc", request: `POST node /ext/bc/X ${method}`, status: 200, detail: "code -32603: injected" }))
          : real(chain, method, params)
      )
    const failed = await Effect.runPromise(runSpine(o, emu, { job: ranged, datasets: ["node_x_blocks"], partRows: 50 }, failAt(150)))
    expect(failed.status).toBe("failed")
    const resumed = newCalls()
    const done = await Effect.runPromise(runSpine(o, emu, { job: ranged, datasets: ["node_x_blocks"], partRows: 50 }, overRpc(resumed)))
    expect(done.status).toBe("succeeded")
    // window [1,100) was committed; [100,200) and [200,201) are fetched again, nothing else
    expect(resumed.count("avm.getBlockByHeight")).toBe(101)
    expect(resumed.count("avm.getHeight")).toBe(0)
    const heights = (await actualBlocks(o, "node_x_blocks")).map((r) => Number(r["height"]))
    expect(heights).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
  })

  it("given a fixed range with an end, when the blocks run, then only heights below the end are fetched and a rerun asks for none", async () => {
    const fixed: Job = { ...job, nodeXHeights: { from: "10", to: "25" } }
    const o = await tempOut()
    const c1 = newCalls()
    await Effect.runPromise(runSpine(o, emu, { job: fixed, datasets: ["node_x_blocks"] }, overRpc(c1)))
    expect((await actualBlocks(o, "node_x_blocks")).map((r) => Number(r["height"]))).toEqual(Array.from({ length: 15 }, (_, i) => 10 + i))
    const c2 = newCalls()
    await Effect.runPromise(runSpine(o, emu, { job: fixed, datasets: ["node_x_blocks"] }, overRpc(c2)))
    expect(c2.count("avm.getBlockByHeight")).toBe(0)
  })
})
