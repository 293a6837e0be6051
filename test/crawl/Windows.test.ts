import { describe, expect, it } from "vitest"
import { type CheckpointState, initialState } from "../../src/crawl/Checkpoint.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { cut, gaps, mergeIntervals, planWindows, windowOf } from "../../src/crawl/Windows.ts"

const DAY = 86_400
const HOUR = 3_600
const at = (iso: string) => Date.parse(iso) / 1000
const base = { network: "mainnet", blockchain: "p-chain" }
const settings = { window: DAY, lookback: HOUR, since: at("2025-01-01T00:00:00Z") }

/** A checkpoint of a window of `base`, as the crawler would have left it. */
const window = (from: string, to: string, status: CheckpointState["status"], completedAsOf: number | null): CheckpointState => {
  const slice = makeSlice("primary_blocks", { ...base, from, to })
  return { ...initialState(slice, "r0"), status, completedAsOf }
}

const bounds = (slices: ReadonlyArray<{ params: Readonly<Record<string, string>> }>) => slices.map((s) => [s.params["from"], s.params["to"]])

describe("interval arithmetic", () => {
  it("given overlapping and touching intervals, when merged, then they become one", () => {
    expect(mergeIntervals([{ from: 5, to: 7 }, { from: 0, to: 2 }, { from: 2, to: 4 }, { from: 6, to: 9 }])).toEqual([
      { from: 0, to: 4 },
      { from: 5, to: 9 }
    ])
  })

  it("given claimed intervals inside a range, when the gaps are asked, then only the unclaimed parts come back", () => {
    expect(gaps({ from: 0, to: 10 }, [{ from: 2, to: 4 }, { from: 3, to: 5 }, { from: 8, to: 12 }])).toEqual([
      { from: 0, to: 2 },
      { from: 5, to: 8 }
    ])
  })

  it("given a gap that does not start on the grid, when it is cut, then cells follow the grid and the last is clipped unless extended", () => {
    expect(cut({ from: 5, to: 25 }, 10, false)).toEqual([{ from: 5, to: 10 }, { from: 10, to: 20 }, { from: 20, to: 25 }])
    expect(cut({ from: 5, to: 25 }, 10, true)).toEqual([{ from: 5, to: 10 }, { from: 10, to: 20 }, { from: 20, to: 30 }])
  })
})

describe("planWindows", () => {
  it("given no checkpoints, when night 1 plans from since to the as-of, then it cuts UTC days and the head day runs to midnight", () => {
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing: [], range: { from: settings.since, to: at("2025-01-03T02:00:00Z") }, extendEnd: true })
    expect(bounds(slices)).toEqual([
      ["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"],
      ["2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z"],
      ["2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z"]
    ])
    expect(slices.map((s) => s.fetchFrom)).toEqual([at("2025-01-01T00:00:00Z"), at("2025-01-02T00:00:00Z"), at("2025-01-03T00:00:00Z")])
    expect(slices[2]?.finalAfter).toBe(at("2025-01-04T01:00:00Z"))
  })

  it("given night 1's windows on disk, when night 2 plans, then final days are left out and the head day is topped up from night 1 minus the lookback", () => {
    const night1 = at("2025-01-03T02:00:00Z")
    const existing = [
      window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "done", night1),
      window("2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z", "done", night1),
      window("2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z", "done", night1)
    ]
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing, range: { from: settings.since, to: at("2025-01-04T02:00:00Z") }, extendEnd: true })
    expect(bounds(slices)).toEqual([
      ["2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z"],
      ["2025-01-04T00:00:00Z", "2025-01-05T00:00:00Z"]
    ])
    expect(slices[0]?.id).toBe(makeSlice("primary_blocks", { ...base, from: "2025-01-03T00:00:00Z", to: "2025-01-04T00:00:00Z" }).id)
    expect(slices[0]?.fetchFrom).toBe(night1 - HOUR)
  })

  it("given a window completed less than the lookback after its end, when planned again, then it is not final yet", () => {
    const existing = [window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "done", at("2025-01-02T00:30:00Z"))]
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing, range: { from: settings.since, to: at("2025-01-02T03:00:00Z") }, extendEnd: true })
    expect(bounds(slices)[0]).toEqual(["2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"])
  })

  it("given a backfill range around days the nightly run holds, when planned with 6h windows, then only the unclaimed hours are cut, clipped to the range", () => {
    const existing = [window("2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z", "done", at("2025-01-05T00:00:00Z"))]
    const slices = planWindows({
      dataset: "primary_blocks",
      bases: [base],
      settings: { ...settings, window: 6 * HOUR },
      existing,
      range: { from: at("2025-01-01T12:00:00Z"), to: at("2025-01-03T03:00:00Z") },
      extendEnd: false
    })
    expect(bounds(slices)).toEqual([
      ["2025-01-01T12:00:00Z", "2025-01-01T18:00:00Z"],
      ["2025-01-01T18:00:00Z", "2025-01-02T00:00:00Z"],
      ["2025-01-03T00:00:00Z", "2025-01-03T03:00:00Z"]
    ])
  })

  it("given a backfill whose windows partly failed, when it is planned again, then the failed window comes back with its id and the done ones do not", () => {
    const done = at("2025-03-01T00:00:00Z")
    const existing = [
      window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "done", done),
      window("2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z", "failed", null),
      window("2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z", "done", done)
    ]
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing, range: { from: at("2025-01-01T00:00:00Z"), to: at("2025-01-04T00:00:00Z") }, extendEnd: false })
    expect(slices.map((s) => s.id)).toEqual([existing[1]?.slice])
    expect(slices[0]?.fetchFrom).toBe(at("2025-01-02T00:00:00Z"))
  })

  it("given settled days, one of them done with a rejected record, when a backfill of them is planned again, then that day comes back listed whole and the others stay final", () => {
    const done = at("2025-03-01T00:00:00Z")
    const holed = { ...window("2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z", "done", done), rejectsCommitted: 1, holes: 1 }
    const existing = [window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "done", done), holed, window("2025-01-03T00:00:00Z", "2025-01-04T00:00:00Z", "done", done)]
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing, range: { from: at("2025-01-01T00:00:00Z"), to: at("2025-01-04T00:00:00Z") }, extendEnd: false })
    expect(slices.map((s) => s.id)).toEqual([holed.slice])
    // from its start, not from its last completion: the rejected record may be anywhere in it
    expect(slices[0]?.fetchFrom).toBe(at("2025-01-02T00:00:00Z"))
    // once a pass maps it, the day is final again
    const mapped = { ...holed, holes: 0 }
    expect(planWindows({ dataset: "primary_blocks", bases: [base], settings, existing: [existing[0]!, mapped, existing[2]!], range: { from: at("2025-01-01T00:00:00Z"), to: at("2025-01-04T00:00:00Z") }, extendEnd: false })).toEqual([])
  })

  it("given a window completed long after its end whose checkpoint then failed, when planned, then it is asked again from its end, never from past it", () => {
    const existing = [window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "failed", at("2025-03-01T00:00:00Z"))]
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing, range: { from: settings.since, to: at("2025-03-01T00:00:00Z") }, extendEnd: false })
    expect(slices[0]?.fetchFrom).toBe(at("2025-01-02T00:00:00Z"))
  })

  it("given windows of another base, when a base is planned, then they neither claim its range nor get planned", () => {
    const other = { ...window("2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "running", null), params: { network: "fuji", blockchain: "p-chain", from: "2025-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z" } }
    const slices = planWindows({ dataset: "primary_blocks", bases: [base], settings, existing: [other], range: { from: at("2025-01-01T00:00:00Z"), to: at("2025-01-02T00:00:00Z") }, extendEnd: false })
    expect(slices.map((s) => s.params["network"])).toEqual(["mainnet"])
    expect(windowOf(slices[0]!.params)).toEqual({ from: at("2025-01-01T00:00:00Z"), to: at("2025-01-02T00:00:00Z") })
  })
})
