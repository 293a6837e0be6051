import { describe, expect, it } from "vitest"
import { judge } from "../../src/pace/Judge.ts"

const base = { requests: 219, rate: 20, roundTripMs: 300, longestListing: 22, cpuMs: 2000, cores: 2 }

describe("what held a crawl back", () => {
  it("given 219 requests at 20/s crawled in 12 s, when judged, then the rate held it and 91 % of the allowance was used", () => {
    const j = judge({ ...base, crawlMs: 12000 })
    expect(j.heldBy).toBe("rate")
    expect(j.share).toBeCloseTo(219 / 240, 6)
    expect(j.rateMs).toBeCloseTo(10950, 6)
  })

  it("given a 22-page listing at 1 s and a crawl of 24 s at 50/s, when judged, then the long listing held it", () => {
    const j = judge({ ...base, rate: 50, roundTripMs: 1000, crawlMs: 24000 })
    expect(j.heldBy).toBe("a long sequential listing")
    expect(j.listingMs).toBe(22000)
  })

  it("given a crawl of 20 s during which the process used 18 CPU-s, when judged, then the CPU held it", () => {
    expect(judge({ ...base, rate: 50, roundTripMs: 100, crawlMs: 20000, cpuMs: 18000 }).heldBy).toBe("CPU")
  })

  it("given a crawl of 20 s neither the rate, the listing nor the CPU explains, when judged, then the round trip held it", () => {
    expect(judge({ ...base, rate: 50, roundTripMs: 100, crawlMs: 20000, cpuMs: 3000 }).heldBy).toBe("round trip")
  })

  it("given no rate limit and no answer, when judged, then the share is 0 and the listing explains nothing", () => {
    const j = judge({ ...base, rate: Number.POSITIVE_INFINITY, roundTripMs: null, crawlMs: 1000, cpuMs: 0 })
    expect([j.share, j.listingMs, j.heldBy]).toEqual([0, 0, "round trip"])
  })
})
