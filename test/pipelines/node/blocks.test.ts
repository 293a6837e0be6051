import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { test as it } from "../../support/emulatorFixtures.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { SourceError } from "../../../src/Errors.ts"
import type { Job } from "../../../src/Job.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { filesUnder, runSpine } from "../../support/spine.ts"
import { type Rec, columnTypes, plain, rejectReasons, rows, uncommentedColumns } from "../../support/catalogReads.ts"
import { call } from "../../support/emulatorAnswers.ts"
import { newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"
import * as path from "node:path"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("blocks")

const DATASETS = ["node_x_blocks", "node_p_blocks"]

/** A transfer output's amount, or the one inside a stakeable lock. */
const outputAmount = (o: Rec): string => String(o["amount"] ?? (o["output"] as Rec | undefined)?.["amount"] ?? "")

/** A block json's txs in block order: a BanffProposalBlock's decision `txs`, then its proposal `tx`. */
const jsonTxs = (b: Rec): Rec[] => [...((b["txs"] as Rec[] | undefined) ?? []), ...(b["tx"] ? [b["tx"] as Rec] : [])]

const tipOf = async (emu: RunningEmulator, chain: "X" | "P"): Promise<bigint> =>
  BigInt(String(chain === "X" ? (await call(emu, "X", "avm.getHeight"))["height"] : (await call(emu, "P", "platform.getCurrentSupply"))["height"]))

/**
 * The emulator's json block at each height of [from, tip], in the columns compared; P-chain
 * blocks with the type the emulator built them as (the json names none).
 */
const expectedBlocks = async (emu: RunningEmulator, chain: "X" | "P", from: bigint) => {
  const method = chain === "X" ? "avm.getBlockByHeight" : "platform.getBlockByHeight"
  const tip = await tipOf(emu, chain)
  const net = emu.world.primary.network("mainnet")
  const out: Rec[] = []
  for (let h = from; h <= tip; h++) {
    const b = (await call(emu, chain, method, { height: chain === "X" ? String(h) : Number(h), encoding: "json" }))["block"] as Rec
    const txs = jsonTxs(b)
    out.push({
      height: String(b["height"]),
      block_id: b["id"],
      parent_id: b["parentID"],
      block_type: chain === "X" ? "StandardBlock" : net.block("P", h)?.blockType,
      ts: b["time"] === undefined ? null : String(b["time"]),
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
      ? `SELECT height::VARCHAR AS height, block_id, parent_id, block_type, epoch(block_timestamp)::BIGINT::VARCHAR AS ts, array_to_string(tx_ids, ',') AS tx_ids FROM node_x_blocks`
      : `SELECT height::VARCHAR AS height, block_id, parent_id, block_type, epoch(block_timestamp)::BIGINT::VARCHAR AS ts,
           array_to_string(list_transform(txs, t -> t.tx_id), ',') AS tx_ids,
           array_to_string(flatten(list_transform(txs, t -> list_transform(t.outputs, o -> coalesce(o.amount::VARCHAR, '')))), ',') AS amounts
         FROM node_p_blocks`,
    (r) => String(r["height"]).padStart(20, "0")
  )

const withoutAmounts = (rs: Rec[]) => rs.map(({ amounts: _a, ...r }) => r)

describe("node_x_blocks and node_p_blocks (node blocks by height window) through the spine", () => {
  let emu: RunningEmulator
  let job: Job
  let out: string
  let pages: Record<string, number>
  let pFrom: bigint
  const calls = newCalls()

  beforeAll(async () => {
    emu = await startEmulator({ seed: 11 })
    job = nodeJob(emu)
    pFrom = (await tipOf(emu, "P")) - 199n
    out = await tempOut()
    const report = await Effect.runPromise(runSpine(out, emu, { job, datasets: DATASETS }, overRpc(calls)))
    expect(report.status).toBe("succeeded")
    pages = Object.fromEntries(report.slices.map((s) => [s.dataset, s.pages]))
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the last 200 heights in windows of 100, when the blocks run, then each height's row equals the node's block (P: decoded from its hex, X: its json) and every window is one page", async () => {
    expect(job.nodeXHeights).toEqual({ from: "1" })
    expect(job.nodePHeights).toEqual({ from: String(pFrom) })
    expect(withoutAmounts(await actualBlocks(out, "node_x_blocks"))).toEqual(withoutAmounts(await expectedBlocks(emu, "X", 1n)))
    const p = await actualBlocks(out, "node_p_blocks")
    expect(p.length).toBe(200)
    expect(p).toEqual(await expectedBlocks(emu, "P", pFrom))
    // X: [1,100) [100,200) [200]; P: the rest of pFrom's window of 100, the next, and the open one
    expect(calls.count("avm.getBlockByHeight")).toBe(200)
    expect(calls.log.filter((c) => c.method === "platform.getBlockByHeight").map((c) => c.params["encoding"])).toEqual(Array(200).fill("hex"))
    expect(pages).toEqual({ node_x_blocks: 3, node_p_blocks: pFrom % 100n === 0n ? 2 : 3 })
    expect(await rejectReasons(out, "node_x_blocks")).toEqual([])
    expect(await rejectReasons(out, "node_p_blocks")).toEqual([])
  })

  it("given P-chain blocks, when their txs are read, then each tx type, from the codec's type id, is the type the emulator issued", async () => {
    const net = emu.world.primary.network("mainnet")
    const want: Rec[] = []
    for (let h = pFrom; h <= pFrom + 199n; h++) for (const t of net.blockTxs("P", h)) want.push({ height: String(h), tx_id: net.served.of(t.id), tx_type: t.type })
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
    expect(x).toMatchObject({ network: "VARCHAR", date: "DATE", height: "BIGINT", block_id: "VARCHAR", block_type: "VARCHAR", block_timestamp: "TIMESTAMP WITH TIME ZONE", tx_count: "INTEGER", tx_ids: "VARCHAR[]" })
    const p = await columnTypes(out, "node_p_blocks")
    expect(p["txs"]).toMatch(/^STRUCT\(tx_id VARCHAR, tx_type VARCHAR, .*outputs STRUCT\(asset_id VARCHAR, fx_id VARCHAR, amount DECIMAL\(38,0\), locktime BIGINT, threshold INTEGER, addresses VARCHAR\[\].*\)\[\].*weight DECIMAL\(38,0\).*\)\[\]$/)
    expect(await uncommentedColumns(out, "node_x_blocks")).toEqual([])
    expect(await uncommentedColumns(out, "node_p_blocks")).toEqual([])
    for (const f of await filesUnder(path.join(out, "node_x_blocks"))) expect(f).toMatch(/^network=mainnet\/month=\d{4}-\d{2}\/part-/)
  })

  it("given a finished run, when the network moves on and the blocks run again, then only the new heights are asked for and the open window is continued into new windows", async ({ ownEmulator, out: again }) => {
    // an emulator of its own: moving the file's clock would change what the other tests compare
    const own = await ownEmulator({ seed: 11 })
    const ownJob = nodeJob(own)
    const ownFrom = (await tipOf(own, "P")) - 199n
    const first = newCalls()
    await Effect.runPromise(runSpine(again, own, { job: ownJob, datasets: DATASETS }, overRpc(first)))
    const xTip = await tipOf(own, "X")
    const pTip = await tipOf(own, "P")
    own.advance(2400)
    const newX = (await tipOf(own, "X")) - xTip
    const newP = (await tipOf(own, "P")) - pTip
    const second = newCalls()
    const report = await Effect.runPromise(runSpine(again, own, { job: ownJob, datasets: DATASETS }, overRpc(second)))
    expect(report.status).toBe("succeeded")
    // 2400 s: 120 X blocks (every 20 s); 80 P slots (every 30 s) and a proposal and commit block per reward due meanwhile
    expect(newX).toBe(120n)
    expect(newP).toBeGreaterThanOrEqual(80n)
    expect((newP - 80n) % 2n).toBe(0n)
    expect(second.count("avm.getBlockByHeight")).toBe(120)
    expect(second.count("platform.getBlockByHeight")).toBe(Number(newP))
    expect(second.log.filter((c) => c.method === "avm.getBlockByHeight").map((c) => Number(c.params["height"])).sort((a, b) => a - b)[0]).toBe(201)
    expect(second.log.filter((c) => c.method === "platform.getBlockByHeight").map((c) => BigInt(String(c.params["height"]))).sort((a, b) => (a < b ? -1 : 1))[0]).toBe(pTip + 1n)
    expect(withoutAmounts(await actualBlocks(again, "node_x_blocks"))).toEqual(withoutAmounts(await expectedBlocks(own, "X", 1n)))
    expect(await actualBlocks(again, "node_p_blocks")).toEqual(await expectedBlocks(own, "P", ownFrom))
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
      // the blocks fetched are the range's; every other getBlockByHeight probed for the tip
      const tip = await tipOf(fresh, "P")
      const probes = probed.log.filter((c) => c.method === "platform.getBlockByHeight").length - 200
      // genesis, then 1, 3, 7, … up past the tip, then a bisection: about 2·log2(tip) calls
      const bits = Math.ceil(Math.log2(Number(tip) + 2))
      expect(probes).toBeGreaterThanOrEqual(bits)
      expect(probes).toBeLessThanOrEqual(2 * bits + 1)
      expect(plain(await actualBlocks(o, "node_p_blocks"))).toEqual(plain(await actualBlocks(out, "node_p_blocks")))
    } finally {
      await fresh.close()
    }
  })

  it("given X-chain blocks whose json has no time (not a shape avalanchego writes), when node_x_blocks runs, then they are rejected, saying so, and none is written", async () => {
    const o = await tempOut()
    const untimed = overRpc(newCalls(), (real, chain, method, params) =>
      method === "avm.getBlockByHeight"
        ? Effect.map(real(chain, method, params), (r) => ({ ...(r as Rec), block: { ...((r as Rec)["block"] as Rec), time: undefined } }))
        : real(chain, method, params)
    )
    const report = await Effect.runPromise(runSpine(o, emu, { job: { ...job, nodeXHeights: { from: "5", to: "8" } }, datasets: ["node_x_blocks"] }, untimed))
    expect(report.status).toBe("succeeded")
    const reasons = await rejectReasons(o, "node_x_blocks")
    expect(reasons).toHaveLength(3)
    // the reason names the field: the block's time
    for (const r of reasons) expect(r).toMatch(/└─ \["time"\] └─/)
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
