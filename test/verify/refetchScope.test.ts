/**
 * What a `backfill --refetch` of a time range takes whole (src/verify/RefetchScope.ts): the windows
 * it meets, and every window of every compacted file holding one of them, until nothing more.
 */
import { describe, expect, it } from "vitest"
import { commonSize, type HeldTogether, heightScope, refetchScope, type WindowOfSlice } from "../../src/verify/RefetchScope.ts"

const DAY = 86_400
const t0 = Date.UTC(2024, 11, 28) / 1000
/** Day windows of one listing from 2024-12-28, and one of a second listing over the same days. */
const day = (i: number, listing = "p"): WindowOfSlice => ({ slice: `${listing}-${i}`, from: t0 + i * DAY, to: t0 + (i + 1) * DAY })
const windows = [0, 1, 2, 3, 4, 5].map((i) => day(i))
const file = (table: string, name: string, slices: ReadonlyArray<string>): HeldTogether => ({ table, file: name, slices: new Set(slices) })

describe("refetchScope", () => {
  it("given day windows and no compacted file, when the range is one window, then it stays that window alone", () => {
    const scope = refetchScope({ from: t0 + 2 * DAY, to: t0 + 3 * DAY }, windows, [])
    expect(scope).toEqual({ from: t0 + 2 * DAY, to: t0 + 3 * DAY, windows: [day(2)], files: [] })
  })

  it("given a range cutting a window, when scoped, then it grows to the window's bounds", () => {
    const scope = refetchScope({ from: t0 + 2 * DAY + 3600, to: t0 + 3 * DAY }, windows, [])
    expect([scope.from, scope.to, scope.windows.map((w) => w.slice)]).toEqual([t0 + 2 * DAY, t0 + 3 * DAY, ["p-2"]])
  })

  it("given a compacted file holding windows 1–3 and another holding 3 and 4 (a child table's), when window 2 is refetched, then the range takes windows 1 to 4 and both files", () => {
    const a = file("primary_blocks", "month=2024-12/compact-a.parquet", ["p-1", "p-2", "p-3"])
    const b = file("evm_logs", "month=2024-12/compact-b.parquet", ["p-3", "p-4"])
    const untouched = file("primary_blocks", "month=2025-01/compact-c.parquet", ["p-5"])
    const scope = refetchScope({ from: t0 + 2 * DAY, to: t0 + 3 * DAY }, windows, [a, b, untouched])
    expect([scope.from, scope.to]).toEqual([t0 + DAY, t0 + 5 * DAY])
    expect(scope.windows.map((w) => w.slice)).toEqual(["p-1", "p-2", "p-3", "p-4"])
    expect(scope.files).toEqual([a, b])
  })

  it("given a second listing's window over the same day, when that day is refetched, then both listings' windows are in the scope", () => {
    const scope = refetchScope({ from: t0 + DAY, to: t0 + 2 * DAY }, [...windows, day(1, "x")], [])
    expect(scope.windows.map((w) => w.slice)).toEqual(["p-1", "x-1"])
  })

  it("given windows of one size, then that is their common size; of two sizes, none", () => {
    expect(commonSize([day(0), day(1)])).toBe(DAY)
    expect(commonSize([day(0), { slice: "h", from: t0, to: t0 + 3600 }])).toBeUndefined()
    expect(commonSize([])).toBeUndefined()
  })
})

describe("heightScope", () => {
  // files of heights 0–9, 10–19, a compacted 20–49, 50–59
  const spans: ReadonlyArray<readonly [bigint, bigint]> = [[0n, 9n], [10n, 19n], [20n, 49n], [50n, 59n]]

  it("given a range of whole files, when scoped, then it stays as it is", () => {
    expect(heightScope({ from: 10n, to: 20n }, spans)).toEqual({ from: 10n, to: 20n })
  })

  it("given a range cutting two files, when scoped, then it grows to both files' ends and no further", () => {
    expect(heightScope({ from: 15n, to: 25n }, spans)).toEqual({ from: 10n, to: 50n })
  })

  it("given a range past every file, when scoped, then it stays as it is", () => {
    expect(heightScope({ from: 60n, to: 70n }, spans)).toEqual({ from: 60n, to: 70n })
  })
})
