/**
 * The bench's minimum over the listings chainetl crawled (bench/e2e/listings.ts): per slice
 * max(1, ⌈records / page size⌉), requests counted without retries, and what goes beyond.
 */
import { describe, expect, it } from "vitest"
import { listingRequests } from "../../bench/e2e/listings.ts"

const slice = (id: string, rows: number, requests: number, extra: Partial<{ rejects: number; duplicates: number; retries: number; status: string }> = {}) => ({
  slice: id,
  status: extra.status ?? "done",
  pages: requests,
  rows,
  rejects: extra.rejects ?? 0,
  duplicates: extra.duplicates ?? 0,
  restarts: 0,
  requests: requests + (extra.retries ?? 0),
  retries: extra.retries ?? 0
})

describe("listingRequests", () => {
  it("given three day windows of 250, 0 and 100 rows in pages of 100 taking 3, 1 and 1 requests, when measured, then their minimum is 5 and nothing goes beyond it", () => {
    const r = listingRequests([slice("d1", 250, 3), slice("d2", 0, 1), slice("d3", 100, 1)], 100, 5)
    expect(r).toEqual({ listings: 3, minRequests: 5, requests: 5, retries: 0, beyondMin: 0, overMinimum: [], outsideListings: 0 })
  })

  it("given a window of 200 rows that took 3 requests and 2 retries, and one of 98 rows, 1 reject and 1 duplicate, when measured, then 1 request is beyond the minimum (retries excluded) and that window is named", () => {
    const r = listingRequests([slice("w1", 200, 3, { retries: 2 }), slice("w2", 98, 1, { rejects: 1, duplicates: 1 })], 100, 7)
    expect(r).toEqual({
      listings: 2,
      minRequests: 3,
      requests: 4,
      retries: 2,
      beyondMin: 1,
      overMinimum: [{ slice: "w1", records: 200, minRequests: 2, requests: 3 }],
      outsideListings: 1
    })
  })

  it("given a slice skipped as final, when measured, then it is not a listing crawled", () => {
    const r = listingRequests([slice("old", 0, 0, { status: "skipped" }), slice("new", 40, 1)], 100, 1)
    expect([r.listings, r.minRequests, r.beyondMin]).toEqual([1, 1, 0])
  })
})
