import { describe, expect, it } from "vitest"
import { byCoverage, dayNumber, isoDay, missingDays, missingHeights } from "../../src/report/gaps.ts"

const at = (iso: string) => Date.parse(iso) / 1000

describe("missingDays", () => {
  it("given days with rows in any order and repeated, when gaps are found, then each run of days between them without rows is one range, oldest first", () => {
    expect(missingDays(["2025-01-09", "2025-01-01", "2025-01-02", "2025-01-05", "2025-01-02"])).toEqual([
      { from: "2025-01-03", to: "2025-01-04", days: 2 },
      { from: "2025-01-06", to: "2025-01-08", days: 3 }
    ])
  })

  it("given consecutive days, one day or none, when gaps are found, then there are none", () => {
    expect(missingDays(["2025-01-01", "2025-01-02", "2025-01-03"])).toEqual([])
    expect(missingDays(["2025-01-01"])).toEqual([])
    expect(missingDays([])).toEqual([])
  })

  it("given days across a month end, a leap day and a year end, when gaps are found, then calendar days are counted, not day numbers", () => {
    expect(missingDays(["2024-02-27", "2024-03-01"])).toEqual([{ from: "2024-02-28", to: "2024-02-29", days: 2 }])
    expect(missingDays(["2024-12-30", "2025-01-02"])).toEqual([{ from: "2024-12-31", to: "2025-01-01", days: 2 }])
  })

  it("given something that is not a YYYY-MM-DD day, when its number is asked, then it throws naming it", () => {
    expect(() => dayNumber("2025-1-2")).toThrow('not a YYYY-MM-DD day: "2025-1-2"')
    expect(isoDay(dayNumber("2025-03-04"))).toBe("2025-03-04")
  })
})

describe("missingHeights", () => {
  it("given runs of present heights, when gaps are found, then the heights between runs come with their exact count", () => {
    expect(
      missingHeights([
        { from: 80n, to: 119n },
        { from: 1n, to: 39n },
        { from: 121n, to: 121n }
      ])
    ).toEqual([
      { from: 40n, to: 79n, count: 40n },
      { from: 120n, to: 120n, count: 1n }
    ])
  })

  it("given heights beyond 2^53, when gaps are found, then every digit is kept", () => {
    const big = 2n ** 64n
    expect(missingHeights([{ from: big, to: big + 5n }, { from: big + 9n, to: big + 9n }])).toEqual([{ from: big + 6n, to: big + 8n, count: 3n }])
  })

  it("given touching, overlapping or a single run, when gaps are found, then there are none", () => {
    expect(missingHeights([{ from: 0n, to: 10n }, { from: 11n, to: 20n }, { from: 5n, to: 15n }])).toEqual([])
    expect(missingHeights([{ from: 0n, to: 10n }])).toEqual([])
    expect(missingHeights([])).toEqual([])
  })
})

describe("byCoverage", () => {
  const gaps = [{ from: "2025-01-02", to: "2025-01-06", days: 5 }]

  it("given done windows covering some missing days whole, when coverage is marked, then the range splits where coverage changes", () => {
    const windows = [
      { from: at("2025-01-01T00:00:00Z"), to: at("2025-01-03T00:00:00Z") },
      { from: at("2025-01-03T00:00:00Z"), to: at("2025-01-04T00:00:00Z") },
      { from: at("2025-01-06T00:00:00Z"), to: at("2025-01-08T00:00:00Z") }
    ]
    expect(byCoverage(gaps, windows)).toEqual([
      { from: "2025-01-02", to: "2025-01-03", days: 2, crawled: true },
      { from: "2025-01-04", to: "2025-01-05", days: 2, crawled: false },
      { from: "2025-01-06", to: "2025-01-06", days: 1, crawled: true }
    ])
  })

  it("given a window that ends (or was completed) mid-day, when coverage is marked, then that day is not crawled: only a whole day is", () => {
    const windows = [{ from: at("2025-01-01T00:00:00Z"), to: at("2025-01-04T06:00:00Z") }]
    expect(byCoverage(gaps, windows)).toEqual([
      { from: "2025-01-02", to: "2025-01-03", days: 2, crawled: true },
      { from: "2025-01-04", to: "2025-01-06", days: 3, crawled: false }
    ])
  })

  it("given no done window, when coverage is marked, then every missing day is not crawled", () => {
    expect(byCoverage(gaps, [])).toEqual([{ ...gaps[0], crawled: false }])
  })
})
