/**
 * Issue 38, item 4: a rejected height is never "done". Two builds of node_p_blocks on one output:
 * the first cannot map the blocks at some heights (its toRow throws RecordError there, as a build
 * that does not know a block type would), the second can. The registered dataset is wrapped, not
 * copied, so whatever its decoding becomes this stays the test of the walk's bookkeeping; its
 * record is `{height, block}` and its key `height`, and nothing here reads `block`.
 *
 * Run as `chainetl backfill` and the nightly run do, with the same planning, crawling and catalog
 * steps (Runner.ts planRun, crawlSlice, buildCatalog), on the emulator's node.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect } from "vitest"
import { findDataset } from "../../../pipelines/index.ts"
import { catalogEntries } from "../../../src/catalogEntries.ts"
import { rejectedIn } from "../../../src/cli/summary.ts"
import { plan } from "../../../src/cli/dryRun.ts"
import { crawlSlice } from "../../../src/crawl/Crawler.ts"
import { type AnyDataset, type Backfill, RecordError } from "../../../src/crawl/Dataset.ts"
import { scannedHeights } from "../../../src/crawl/Heights.ts"
import type { RunningEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import { planRun, startReport } from "../../../src/Runner.ts"
import { buildCatalog } from "../../../src/sink/Catalog.ts"
import { test as it } from "../../support/emulatorFixtures.ts"
import { spineLayers } from "../../support/spine.ts"
import { type Calls, newCalls, overRpc } from "../../support/clientWraps.ts"
import { nodeJob } from "../../support/emulatorJob/groups.ts"
import { rows } from "../../support/catalogReads.ts"

const registered = findDataset("node_p_blocks")!

/** node_p_blocks as a build that cannot map the blocks at `unknown` heights builds it. */
const build = (unknown: ReadonlySet<string>): AnyDataset => ({
  ...registered,
  toRow: (raw, slice) => {
    const height = (raw as { readonly height: string }).height
    if (unknown.has(height)) throw new RecordError(`block at height ${height}: a block type this build does not decode`)
    return registered.toRow(raw, slice)
  }
})

let runs = 0

/** One run of `dataset` on `out` (a backfill when `backfill` is given): plan, crawl each slice, rebuild the catalog. */
const runOnce = (emu: RunningEmulator, out: string, job: Job, dataset: AnyDataset, calls: Calls, backfill?: Backfill) =>
  Effect.runPromise(
    overRpc(calls)(
      Effect.gen(function* () {
        const asOf = emu.clock.now()
        const runId = `run-${++runs}`
        const [planned] = yield* planRun([dataset], job, asOf, backfill)
        const slices = yield* Effect.forEach(planned!.slices, (s) => crawlSlice(dataset, s, { runId, asOf, ingestedAt: new Date(asOf * 1000), partRows: 1_000 }))
        yield* buildCatalog(out, catalogEntries())
        const options = { out, job, datasets: [dataset.name], partRows: 1_000, sliceConcurrency: 1, ...(backfill === undefined ? {} : { backfill }) }
        return { ...startReport(options, runId, new Date(asOf * 1000), [dataset], asOf, slices.length), slices }
      })
    ).pipe(Effect.provide(spineLayers(out, emu)))
  )

/** What `--dry-run` would say, and what `status` shows of the listing. */
const lookAt = (emu: RunningEmulator, out: string, job: Job, dataset: AnyDataset, backfill?: Backfill) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const asOf = emu.clock.now()
      const dry = yield* plan(yield* planRun([dataset], job, asOf, backfill), asOf)
      const heights = yield* scannedHeights(dataset.name, registered.heights!)
      return { dry, heights }
    }).pipe(Effect.provide(spineLayers(out, emu)))
  )

const heightsIn = async (out: string) =>
  (await rows(out, "SELECT height::VARCHAR AS h FROM node_p_blocks", (r) => String(r["h"]).padStart(20, "0"))).map((r) => String(r["h"]))

/** The heights whose block the walk asked for, whatever encoding (and however many calls) a build makes per block. */
const blockCalls = (calls: Calls) => [...new Set(calls.log.filter((c) => c.method === "platform.getBlockByHeight").map((c) => String(c.params["height"])))]

// the worker's shared emulator: these tests only read from it, each into an output of its own
describe("node_p_blocks: a rejected height is a hole that the next run fills", () => {
  it("given a backfill of heights 1 to 8 by a build that rejects heights 1 and 3, when the fixed build backfills the same range, then only 1 and 3 are asked again and every height is written once", async ({ emulator: emu, out }) => {
    const job = nodeJob(emu)
    const range: Backfill = { unit: "height", from: "1", to: "8", window: "4" }
    const old = build(new Set(["1", "3"]))
    const first = await runOnce(emu, out, job, old, newCalls(), range)
    // cells [1,4) and [4,8): both done, the first with two holes
    expect(first.slices.map((s) => [s.params["from"], s.params["to"], s.status, s.rows, s.rejects, s.holes])).toEqual([
      ["1", "4", "done", 1, 2, 2],
      ["4", "8", "done", 4, 0, 0]
    ])
    expect(rejectedIn(first)).toEqual([{ dataset: "node_p_blocks", rejects: 2, holes: 2, keys: ["1", "3"] }])
    expect(await heightsIn(out)).toEqual(["2", "4", "5", "6", "7"])

    // the same range again, same build: never "complete", the holed cell is a retry
    const looked = await lookAt(emu, out, job, old, range)
    expect(looked.dry.slices.map((s) => [s.params["from"], s.state, s.holes, s.holeKeys])).toEqual([["1", "retry", 2, ["1", "3"]]])
    expect(looked.dry.datasets[0]).toMatchObject({ slices: 1, crawl: 1, final: 0, holes: 2 })
    // status: scanned through 7, nothing complete from the lowest height asked for (1 is a hole)
    expect(looked.heights).toEqual([{ listing: { network: "mainnet" }, height: "7", completeThrough: null, holes: 2, holeKeys: ["1", "3"] }])

    // the same build again: asks for 1 and 3 only, rejects them again, the holes stay
    const again = newCalls()
    const second = await runOnce(emu, out, job, old, again, range)
    expect(blockCalls(again).sort()).toEqual(["1", "3"])
    expect(second.slices.map((s) => [s.status, s.rows, s.rejects, s.holes])).toEqual([["done", 0, 2, 2]])

    // the fixed build on the same output
    const fixed = newCalls()
    const third = await runOnce(emu, out, job, build(new Set()), fixed, range)
    expect(blockCalls(fixed).sort()).toEqual(["1", "3"])
    expect(third.slices.map((s) => [s.params["from"], s.status, s.rows, s.rejects, s.holes])).toEqual([["1", "done", 2, 0, 0]])
    expect(rejectedIn(third)).toEqual([])
    expect(await heightsIn(out)).toEqual(["1", "2", "3", "4", "5", "6", "7"])
    // the rejects stay, the record of what failed: two per run of the old build
    expect(await rows(out, "SELECT count(*)::INTEGER AS n FROM _rejects WHERE dataset = 'node_p_blocks'", () => "")).toEqual([{ n: 4 }])
    // complete now: nothing planned, and status says complete through 7
    const after = await lookAt(emu, out, job, build(new Set()), range)
    expect(after.dry.slices).toEqual([])
    expect(after.heights).toEqual([{ listing: { network: "mainnet" }, height: "7", completeThrough: "7", holes: 0, holeKeys: [] }])
  })

  it("given the nightly walk by a build that rejects a height in its range, when the fixed build runs the next night, then the hole is filled and status is complete through the tip of the range", async ({ emulator: emu, out }) => {
    const job = nodeJob(emu)
    const nightly: Job = { ...job, nodePHeights: { from: "10", to: "20" } }
    const first = await runOnce(emu, out, nightly, build(new Set(["15"])), newCalls())
    expect(first.slices.map((s) => [s.status, s.rows, s.rejects, s.holes, s.holeKeys])).toEqual([["done", 9, 1, 1, ["15"]]])
    const looked = await lookAt(emu, out, nightly, build(new Set(["15"])))
    expect(looked.heights).toEqual([{ listing: { network: "mainnet" }, height: "19", completeThrough: "14", holes: 1, holeKeys: ["15"] }])
    const fixed = newCalls()
    await runOnce(emu, out, nightly, build(new Set()), fixed)
    expect(blockCalls(fixed)).toEqual(["15"])
    expect(await heightsIn(out)).toEqual(Array.from({ length: 10 }, (_, i) => String(10 + i)))
    expect((await lookAt(emu, out, nightly, build(new Set()))).heights).toEqual([{ listing: { network: "mainnet" }, height: "19", completeThrough: "19", holes: 0, holeKeys: [] }])
  })

  it("given holes left by an earlier chainetl, whose checkpoints did not count them, when the fixed build backfills, then the cell is not complete, is walked again and every height is written once", async ({ emulator: emu, out }) => {
    const job = nodeJob(emu)
    const range: Backfill = { unit: "height", from: "40", to: "44", window: "4" }
    await runOnce(emu, out, job, build(new Set(["41", "43"])), newCalls(), range)
    // the checkpoint as a chainetl before holes were counted wrote it: done, rejects committed, nothing more
    const dir = path.join(out, "_state", "checkpoints", "node_p_blocks")
    for (const f of await fs.readdir(dir)) {
      const { holes: _h, holeKeys: _k, passHoles: _p, ...older } = JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as Record<string, unknown>
      expect(older).toMatchObject({ status: "done", rejectsCommitted: 2 })
      await fs.writeFile(path.join(dir, f), JSON.stringify(older))
    }
    const looked = await lookAt(emu, out, job, build(new Set()), range)
    expect(looked.dry.slices.map((s) => [s.state, s.holes])).toEqual([["retry", null]])
    expect(looked.heights).toEqual([{ listing: { network: "mainnet" }, height: "42", completeThrough: null, holes: null, holeKeys: [] }])
    const calls = newCalls()
    const fixed = await runOnce(emu, out, job, build(new Set()), calls, range)
    expect(blockCalls(calls).sort()).toEqual(["41", "43"])
    expect(fixed.slices.map((s) => [s.status, s.rows, s.holes])).toEqual([["done", 2, 0]])
    expect(await heightsIn(out)).toEqual(["40", "41", "42", "43"])
  })

  it("given a backfill cell's hole that the nightly walk has since written, when status looks, then it is no hole, and the next backfill completes the cell without asking for it", async ({ emulator: emu, out }) => {
    const job = nodeJob(emu)
    const range: Backfill = { unit: "height", from: "30", to: "34", window: "4" }
    await runOnce(emu, out, job, build(new Set(["31"])), newCalls(), range)
    // the nightly walk over [30, 40) with the fixed build fetches 31 (not committed) under its own slice
    await runOnce(emu, out, { ...job, nodePHeights: { from: "30", to: "40" } }, build(new Set()), newCalls())
    const looked = await lookAt(emu, out, job, build(new Set()), range)
    expect(looked.heights).toEqual([{ listing: { network: "mainnet" }, height: "39", completeThrough: "39", holes: 0, holeKeys: [] }])
    // the cell itself still remembers its hole until its own next walk, which finds nothing missing
    expect(looked.dry.slices.map((s) => s.state)).toEqual(["retry"])
    const calls = newCalls()
    const backfill = await runOnce(emu, out, job, build(new Set()), calls, range)
    expect(blockCalls(calls)).toEqual([])
    expect(backfill.slices.map((s) => [s.status, s.rows, s.holes])).toEqual([["done", 0, 0]])
    expect((await lookAt(emu, out, job, build(new Set()), range)).dry.slices).toEqual([])
  })
})
