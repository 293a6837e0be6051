/**
 * Holes (src/crawl/Holes.ts): a rejected record leaves its slice incomplete until a later pass
 * writes it. Pure transitions: where a pass starts, what a commit adds, when the count is known,
 * and the one rule every planner reads (`isFinal`).
 */
import { describe, expect, it } from "vitest"
import { type CheckpointState, initialState, isFinal } from "../../src/crawl/Checkpoint.ts"
import { advance } from "../../src/crawl/CommitPart.ts"
import { addHoles, HOLE_KEYS_KEPT, isComplete, openHoles, startPass } from "../../src/crawl/Holes.ts"
import type { BufferedPage } from "../../src/crawl/SliceCrawl.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"

const cell = makeSlice("node_p_blocks", { network: "mainnet", window: "4", from: "0", to: "4" }, 0)
const page = (next: string | undefined, holeKeys: ReadonlyArray<string>): BufferedPage => ({
  staged: [4 - holeKeys.length],
  partBytes: 0,
  rejects: [],
  holes: holeKeys.length,
  holeKeys,
  unknownFields: new Map(),
  next,
  receivedAt: 1
})
/** One whole pass of a revisiting listing: started from the first page, its pages committed as one part. */
const pass = (before: CheckpointState, ...pages: ReadonlyArray<BufferedPage>): CheckpointState => {
  const started = startPass({ ...before, cursor: null, status: "running" }, true)
  const rows = pages.reduce((n, p) => n + p.staged[0]!, 0)
  return advance(started, pages, rows, pages.reduce((n, p) => n + p.holes, 0), "continue", "always", 1_700_000_000)
}

describe("holes of a slice", () => {
  it("given a height cell whose blocks at 1 and 3 were rejected, when its pass completes, then it is done but not complete, and not final", () => {
    const done = pass(initialState(cell, "r1"), page(undefined, ["1", "3"]))
    expect(done).toMatchObject({ status: "done", holes: 2, holeKeys: ["1", "3"], passHoles: null, rejectsCommitted: 2 })
    expect(isComplete(done)).toBe(false)
    expect(isFinal(done, cell, "always")).toBe(false)
  })

  it("given that cell, when a later pass maps height 1 but not 3, then one hole is left; when a pass maps 3 too, then the cell is final", () => {
    const first = pass(initialState(cell, "r1"), page(undefined, ["1", "3"]))
    // the walk asks only for the heights not committed: 1 and 3
    const second = pass(first, page(undefined, ["3"]))
    expect(second).toMatchObject({ holes: 1, holeKeys: ["3"] })
    const third = pass(second, page(undefined, []))
    expect(third).toMatchObject({ status: "done", holes: 0, holeKeys: [] })
    // the rejects stay counted as written: they are the record of what failed
    expect(third.rejectsCommitted).toBe(3)
    expect(isFinal(third, cell, "always")).toBe(true)
  })

  it("given a pass with holes cut short by a failure, when it is resumed, then its holes so far are kept and replace the old ones only at its end", () => {
    const before = pass(initialState(cell, "r1"), page(undefined, ["1", "3"]))
    // a new pass commits its first part (height 1 rejected again), then the process dies
    const started = startPass({ ...before, cursor: null, status: "running" }, true)
    const half = advance(started, [page("p2", ["1"])], 1, 1, "continue", "always", 1_700_000_100)
    // the holes planners read are still the last completed pass's: its query stays the same
    expect(half).toMatchObject({ status: "running", holes: 2, holeKeys: ["1", "3"], passHoles: { count: 1, keys: ["1"], replaces: true } })
    // resumed from its cursor, the pass goes on counting
    const resumed = startPass(half, true)
    expect(resumed.passHoles).toEqual(half.passHoles)
    const end = advance(resumed, [page(undefined, [])], 2, 0, "continue", "always", 1_700_000_200)
    expect(end).toMatchObject({ status: "done", holes: 1, holeKeys: ["1"], passHoles: null })
  })

  it("given a listing that never asks again (a walk on from its highest block), when two passes reject records, then their holes add up", () => {
    const s = makeSlice("evm_blocks", { chain_id: "43114" })
    const one = advance(startPass(initialState(s, "r1"), false), [page(undefined, ["7"])], 3, 1, "continue", "always", 1)
    const two = advance(startPass({ ...one, status: "running" }, false), [page(undefined, ["12"])], 3, 1, "continue", "always", 2)
    expect(two).toMatchObject({ holes: 2, holeKeys: ["7", "12"] })
  })

  it("given a checkpoint from before holes were counted, when it committed rejects, then its holes are unknown and it is not final until a pass from the first page counts them", () => {
    const { holes: _h, holeKeys: _k, passHoles: _p, ...older } = { ...initialState(cell, "r0"), status: "done" as const, completedAsOf: 1, rejectsCommitted: 2, rowsCommitted: 2 }
    expect(openHoles(older)).toBeUndefined()
    expect(isFinal(older, cell, "always")).toBe(false)
    // one without rejects is complete as it was
    expect(isFinal({ ...older, rejectsCommitted: 0 }, cell, "always")).toBe(true)
    // a revisiting pass resumed mid-way cannot tell: still unknown at its end
    const midway = advance(startPass({ ...older, cursor: "c", status: "running" }, true), [page(undefined, [])], 2, 0, "continue", "always", 2)
    expect(openHoles(midway)).toBeUndefined()
    // from the first page it can
    expect(pass(older, page(undefined, [])).holes).toBe(0)
    // a listing that never asks again keeps every committed reject as a hole
    expect(startPass(older, false).holes).toBe(2)
  })

  it("given a pipeline that rejects every block, when many holes are met, then all are counted and only the first keys are kept", () => {
    const keys = Array.from({ length: HOLE_KEYS_KEPT + 5 }, (_, i) => String(i))
    const met = addHoles(startPass(initialState(cell, "r1"), true), keys.length, keys, true)
    expect(met.holes).toBe(HOLE_KEYS_KEPT + 5)
    expect(met.holeKeys).toEqual(keys.slice(0, HOLE_KEYS_KEPT))
  })
})
