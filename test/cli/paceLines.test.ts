/**
 * The dry run's pace lines (src/cli/dryRunPace.ts): a backfill that cuts its long listings says how
 * many windows it cuts, and one that cuts nothing says nothing of it.
 */
import { describe, expect, it } from "vitest"
import { paceLines } from "../../src/cli/dryRunPace.ts"
import { estimate } from "../../src/pace/Estimate.ts"

// the pieces of two 40-page windows cut in 4, beside a one-page window
const pieces = Array.from({ length: 8 }, () => ({ low: 1, high: 10, likely: 10 }))
const e = estimate([{ dataset: "primary_blocks", listings: [...pieces, { low: 1, high: 1, likely: 1 }], stage: 0 }], 20, 3_000)

describe("paceLines", () => {
  it("given a plan whose two long windows were cut into 8, when printed, then its last line says so and the figures are the pieces'", () => {
    const lines = paceLines({ estimate: e, probes: [3_000, 3_100], failures: [], offline: false, cut: { windows: 2, into: 8 } })
    expect(lines.at(-1)).toBe("2 window(s) whose listing alone would set the wall time are cut into 8 smaller ones before the crawl (the figures above are of those)")
    expect(lines[0]).toBe("requests: at least 9, likely 81, at most 81 (2 window(s) asked for their first page, the others interpolated between them)")
    expect(lines).toContain("a listing is sequential (each page's token comes from the page before): its longest, likely 10 page(s), takes at least that many round trips however many requests are in flight")
  })

  it("given a plan that cuts nothing, when printed, then no line speaks of a cut", () => {
    const lines = paceLines({ estimate: e, probes: [3_000], failures: [], offline: false, cut: { windows: 0, into: 0 } })
    expect(lines.some((l) => l.includes("cut into"))).toBe(false)
    expect(lines).toHaveLength(5)
  })
})
