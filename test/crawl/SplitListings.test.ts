/**
 * The pure half of cutting a backfill's long listings (src/crawl/SplitListings.ts): which window
 * is probed first, when cutting may pay, and a plan cut with the pieces' guesses.
 */
import { describe, expect, it } from "vitest"
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../../src/crawl/Slice.ts"
import { capOf, cutPlan, newestWindows, worthCutting } from "../../src/crawl/SplitListings.ts"

const DAY = 86_400
const iso = (t: number) => new Date(t * 1000).toISOString().replace(".000Z", "Z")
const DEC_1 = Date.parse("2024-12-01T00:00:00Z") / 1000

const window = (blockchain: string, day: number, days = 1): Slice => ({
  ...makeSlice("primary_blocks", { network: "mainnet", blockchain, from: iso(DEC_1 + day * DAY), to: iso(DEC_1 + (day + days) * DAY) }, DEC_1 + (day + days + 2) * DAY),
  fetchFrom: DEC_1 + day * DAY
})

const dataset = { name: "primary_blocks" } as AnyDataset

describe("newestWindows", () => {
  it("given two listings' windows, some named by checkpoints, when the newest new ones are asked, then each listing's latest new window", () => {
    const p = [window("p-chain", 0), window("p-chain", 1), window("p-chain", 2), window("c-chain", 0), window("c-chain", 1)]
    const fresh = new Set([p[0]!.id, p[1]!.id, p[3]!.id, p[4]!.id])
    expect(newestWindows(p, fresh)).toEqual(new Set([p[1]!.id, p[4]!.id]))
  })

  it("given 14-day windows and a range whose last window is a day long, when the newest is asked, then the newest 14-day one, not the day", () => {
    const c = [window("c-chain", 0, 14), window("c-chain", 14, 14), window("c-chain", 28, 1)]
    expect(newestWindows(c, new Set(c.map((s) => s.id)))).toEqual(new Set([c[1]!.id]))
  })
})

describe("worthCutting", () => {
  it("given a newest window of 250 likely pages and a 300 ms round trip, when judged against 60 s, then it may pay (75 s); 150 pages (45 s) may not", () => {
    expect(worthCutting([{ low: 2, high: 250, likely: 250 }], 300, 60)).toBe(true)
    expect(worthCutting([{ low: 2, high: 150, likely: 150 }], 300, 60)).toBe(false)
  })

  it("given no round trip measured, when judged, then nothing is cut", () => {
    expect(worthCutting([{ low: 2, high: 1_000, likely: 1_000 }], null, 0)).toBe(false)
  })
})

describe("cutPlan", () => {
  it("given a new window of 40 pages, a known one of 40 and a short one, when cut at a cap of 10, then only the new long one becomes 4 pieces of 10 likely pages", () => {
    const longNew = window("c-chain", 0, 14)
    const longKnown = window("c-chain", 14, 14)
    const short = window("c-chain", 28)
    const guesses = new Map([
      [longNew.id, { low: 2, high: 40, likely: 40 }],
      [longKnown.id, { low: 2, high: 40, likely: 40 }],
      [short.id, { low: 1, high: 1, likely: 1 }]
    ])
    const c = cutPlan([{ dataset, slices: [longNew, longKnown, short] }], guesses, () => new Set([longNew.id, short.id]), 10)
    expect(c.cut).toBe(1)
    expect(c.into).toBe(4)
    const slices = c.plan[0]!.slices
    expect(slices.length).toBe(6)
    expect(slices.slice(4)).toEqual([longKnown, short])
    expect(slices.slice(0, 4).map((s) => c.guesses.get(s.id)!.likely)).toEqual([10, 10, 10, 10])
    expect(c.guesses.has(longNew.id)).toBe(false)
  })

  it("given guesses of 81 likely requests at 20/s over a 300 ms round trip, when capped with no minimum, then a listing may take 13 pages", () => {
    const guesses = new Map([
      ["a", { low: 2, high: 60, likely: 60 }],
      ["b", { low: 1, high: 21, likely: 21 }]
    ])
    expect(capOf(guesses, 20, 300, 0)).toBe(13)
  })
})
