import { describe, expect, it } from "vitest"
import { allowanceShare, boundOf, sequentialBound, stagedBound } from "../../src/pace/Bound.ts"
import { CPU_PER_REQUEST_MS, CPU_PER_SLICE_MS, CPU_START_MS, crawlCpuMs } from "../../src/pace/CpuCost.ts"
import { estimate, interpolate, likelyPages, pagesFromFirstPage, spread } from "../../src/pace/Estimate.ts"

describe("the bound of a crawl", () => {
  it("given 255 requests at 20/s and a longest listing of 10 pages at 300 ms, when bound, then the rate binds: 12.75 s", () => {
    expect(boundOf({ requests: 255, longestListing: 10 }, { rate: 20, roundTripMs: 300 })).toEqual({ ms: 12750, by: "rate", rateMs: 12750, listingMs: 3000 })
  })

  it("given a listing of 22 pages at 1 s and 219 requests at 50/s, when bound, then the round trip binds: 22 s", () => {
    expect(boundOf({ requests: 219, longestListing: 22 }, { rate: 50, roundTripMs: 1000 })).toMatchObject({ ms: 22000, by: "round trip" })
  })

  it("given two datasets crawled side by side in one stage, when bound, then their requests add up and the longer listing holds: the rate's 10.95 s", () => {
    const b = stagedBound([[{ requests: 189, longestListing: 22 }, { requests: 30, longestListing: 1 }]], { rate: 20, roundTripMs: 300 })
    expect(b).toEqual({ ms: 10950, by: "rate", rateMs: 10950, listingMs: 6600 })
    // at 1 s round trips the 22-page listing holds: 22 s, where one dataset after the other took 23
    expect(stagedBound([[{ requests: 189, longestListing: 22 }, { requests: 30, longestListing: 1 }]], { rate: 50, roundTripMs: 1000 })).toMatchObject({ ms: 22000, by: "round trip" })
    expect(sequentialBound([{ requests: 189, longestListing: 22 }, { requests: 30, longestListing: 1 }], { rate: 50, roundTripMs: 1000 }).ms).toBe(23000)
  })

  it("given two datasets crawled one after the other, when bound, then their bounds add up", () => {
    const b = sequentialBound([{ requests: 189, longestListing: 22 }, { requests: 30, longestListing: 1 }], { rate: 20, roundTripMs: 300 })
    expect(b.ms).toBeCloseTo(9450 + 1500, 6)
    expect(b.by).toBe("rate")
  })

  it("given 219 requests in 15 s at 20/s, when the share is taken, then it is 73 %; without a rate it is 0", () => {
    expect(allowanceShare(219, 15000, 20)).toBeCloseTo(0.73, 6)
    expect(allowanceShare(219, 15000, Number.POSITIVE_INFINITY)).toBe(0)
  })
})

describe("the dry run's estimate", () => {
  it("given a first page with no next page, when guessed, then the listing is one page", () => {
    expect(pagesFromFirstPage(false, 14 * 86400, 3600)).toEqual({ low: 1, high: 1, likely: 1 })
  })

  it("given a 14-day window whose first page covers 16 hours, when guessed, then 21 pages are likely", () => {
    expect(pagesFromFirstPage(true, 14 * 86400, 16 * 3600)).toEqual({ low: 2, high: 21, likely: 21 })
  })

  it("given a 365-day window whose first page covers 5 days at its newest end and whose oldest 5 days hold a fifth as many records, when guessed, then the window holds the two ends' mean: 44 pages likely, 73 at most", () => {
    expect(pagesFromFirstPage(true, 365 * 86400, 5 * 86400, 0.2)).toEqual({ low: 2, high: 73, likely: 44 })
  })

  it("given a window whose far end is twice as dense as its first page's, when guessed, then 32 likely and the most is the denser end's all through", () => {
    expect(pagesFromFirstPage(true, 14 * 86400, 16 * 3600, 2)).toEqual({ low: 2, high: 42, likely: 32 })
  })

  it("given a window whose far stretch holds no record, when guessed, then half the first page's count, never less", () => {
    expect(pagesFromFirstPage(true, 14 * 86400, 16 * 3600, 0)).toEqual({ low: 2, high: 21, likely: 11 })
  })

  it("given a next page but no times to read, when guessed, then two pages at least and nothing more known", () => {
    expect(pagesFromFirstPage(true, 14 * 86400, undefined)).toEqual({ low: 2, high: 2 })
  })

  it("given an unprobed listing between 1 and 16 pages, when its likely pages are taken, then they are the geometric mean 4", () => {
    expect(likelyPages({ low: 1, high: 16 })).toBe(4)
  })

  it("given two datasets at 20/s and 300 ms, when estimated, then requests, longest listing and wall follow the bounds", () => {
    const e = estimate(
      [
        { dataset: "a", listings: [{ low: 2, high: 21, likely: 21 }, { low: 1, high: 16 }, { low: 1, high: 1, likely: 1 }] },
        { dataset: "b", listings: [{ low: 1, high: 1, likely: 1 }, { low: 1, high: 1, likely: 1 }] }
      ],
      20,
      300
    )
    expect(e.requests).toEqual({ low: 6, likely: 28, high: 40 })
    expect(e.longestListing).toEqual({ low: 2, likely: 21, high: 21 })
    // side by side: max(28 / 20 s, 21 × 0.3 s) = 6.3 s (one after the other, b's 0.3 s would add); and the CPU's fixed part
    expect(e.wallMs.likely).toBeCloseTo(6300 + CPU_START_MS, 6)
    expect(e.by).toBe("round trip")
    expect(e.share).toBeCloseTo(28 / (((6300 + CPU_START_MS) / 1000) * 20), 6)
  })

  it("given a dataset that reads another's output (a later stage), when estimated, then its bound adds to the first stage's", () => {
    const pages = (n: number, k: number) => Array.from({ length: k }, () => ({ low: n, high: n, likely: n }))
    const first = [{ dataset: "a", listings: pages(10, 4) }, { dataset: "b", listings: pages(5, 2) }]
    const side = estimate(first, 20, 300)
    const staged = estimate([...first, { dataset: "r", listings: pages(1, 40), stage: 1 }], 20, 300)
    // stage 0: max(50 / 20 s, 10 × 0.3 s) = 3 s; stage 1: max(40 / 20 s, 0.3 s) = 2 s
    expect(side.wallMs.likely).toBeCloseTo(3000 + CPU_START_MS, 6)
    expect(staged.wallMs.likely).toBeCloseTo(3000 + 2000 + CPU_START_MS, 6)
    expect(staged.requests.likely).toBe(90)
  })

  it("given no round trip measured, when estimated, then the wall is the rate's part alone (and the CPU's fixed part)", () => {
    const e = estimate([{ dataset: "a", listings: [{ low: 50, high: 50, likely: 50 }, { low: 50, high: 50, likely: 50 }] }], 1, null)
    const wall = 100_000 + CPU_START_MS
    expect(e.wallMs).toEqual({ low: wall, likely: wall, high: wall })
    expect(e.roundTripMs).toBeNull()
  })
})

describe("the CPU in the dry run's estimate", () => {
  const oneEach = (n: number) => [{ dataset: "a", listings: Array.from({ length: n }, () => ({ low: 1, high: 1, likely: 1 })) }]

  it("given 200 one-page slices, when their CPU is taken, then it is the fixed part, 200 requests' and 200 slices'", () => {
    expect(crawlCpuMs(200, 200)).toBeCloseTo(CPU_START_MS + 200 * CPU_PER_REQUEST_MS + 200 * CPU_PER_SLICE_MS, 6)
    expect(crawlCpuMs(0, 0)).toBe(0)
  })

  it("given 200 one-page slices at 100/s and 100 ms with a third of a core, when estimated, then the CPU binds: its CPU, fixed part included, three times over", () => {
    const e = estimate(oneEach(200), 100, 100, 1 / 3)
    expect(e.by).toBe("CPU")
    expect(e.cpuMs).toBeCloseTo(crawlCpuMs(200, 200), 6)
    expect(e.wallMs.likely).toBeCloseTo(3 * crawlCpuMs(200, 200), 6)
    expect(e.wallMs.likely).toBeGreaterThan(2_000) // the rate's bound, which no longer holds
    expect(e.share).toBeCloseTo(200 / ((e.wallMs.likely / 1000) * 100), 6)
  })

  it("given the same slices at 2/s with a whole core, when estimated, then the rate's 100 s binds after the CPU's fixed part, and the CPU is told beside it", () => {
    const e = estimate(oneEach(200), 2, 100)
    expect([e.by, e.wallMs.likely, e.coreShare, e.slices]).toEqual(["rate", 100_000 + CPU_START_MS, 1, 200])
    expect(e.cpuMs).toBeCloseTo(crawlCpuMs(200, 200), 6)
  })

  it("given a range of requests, when estimated with CPU binding, then each end's wall is its own requests' CPU", () => {
    // 2 and 10 requests at 1,000/s: the rate's part is at most 10 ms
    const e = estimate([{ dataset: "a", listings: [{ low: 1, high: 9 }, { low: 1, high: 1, likely: 1 }] }], 1_000, 1, 0.1)
    expect(e.wallMs.low).toBeCloseTo(crawlCpuMs(2, 2) / 0.1, 6)
    expect(e.wallMs.high).toBeCloseTo(crawlCpuMs(10, 2) / 0.1, 6)
  })
})

describe("which windows a dry run asks, and the others", () => {
  it("given 14 windows and 5 probes, when spread, then the oldest, the newest and three between are asked", () => {
    expect(spread(14, 5)).toEqual([0, 3, 7, 10, 13])
  })

  it("given 3 windows and 5 probes, or 14 windows and 1 probe, when spread, then every window, or the newest alone, is asked", () => {
    expect(spread(3, 5)).toEqual([0, 1, 2])
    expect(spread(14, 1)).toEqual([13])
  })

  it("given probes of 1 page at window 3 and 22 pages at window 13, when the others are interpolated, then window 8 is likely 12 and windows 0–2 like window 3", () => {
    const likely = interpolate(14, new Map([[3, 1], [13, 22]]))
    expect(likely[8]).toBe(Math.round(1 + (21 * 5) / 10))
    expect(likely.slice(0, 4)).toEqual([1, 1, 1, 1])
    expect(likely[13]).toBe(22)
  })

  it("given no probe, when interpolated, then nothing is known of any window", () => {
    expect(interpolate(2, new Map())).toEqual([undefined, undefined])
  })
})
