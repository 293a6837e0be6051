/**
 * A REST listing over one time window (Windows.ts). The route's startTimestamp / endTimestamp are
 * documented only as "items after" / "items before", so the request asks one second wider on
 * each side and the records are cut to the window here (keepWithin): a record belongs to exactly
 * one window whichever way the service reads its bounds.
 */
import { Effect } from "effect"
import type { Listing } from "./Dataset.ts"
import { restListing, type RestListingSpec } from "./RestListing.ts"
import type { RestClient } from "../source/RestClient.ts"
import { windowOf } from "./Windows.ts"
import type { Slice } from "./Slice.ts"

export interface WindowListingSpec extends RestListingSpec {
  /** The record field holding its Unix-seconds time, e.g. "blockTimestamp". */
  readonly timeField: string
}

const bounds = (slice: Slice) => {
  const w = windowOf(slice.params)
  if (w === undefined) throw new Error(`slice ${slice.id} of ${slice.dataset} has no window`)
  return { from: slice.fetchFrom ?? w.from, to: w.to }
}

/**
 * `listing` with each page's records cut to the slice's [from, to) on a Unix-seconds field. A
 * record without a readable time is kept: toRow rejects it, with the reason.
 */
export const keepWithin = <R>(listing: Listing<R>, timeField: string, range: (slice: Slice) => { readonly from: number; readonly to: number }): Listing<R> => ({
  ...listing,
  fetch: (slice, cursor) =>
    Effect.map(listing.fetch(slice, cursor), (page) => {
      const b = range(slice)
      const inRange = (r: unknown): boolean => {
        const t = typeof r === "object" && r !== null ? (r as Record<string, unknown>)[timeField] : undefined
        return typeof t !== "number" || (t >= b.from && t < b.to)
      }
      const keys = page.keys
      // a keyed page keeps each record's key beside it
      return keys === undefined ? { ...page, records: page.records.filter(inRange) } : { ...page, records: page.records.filter(inRange), keys: keys.filter((_, i) => inRange(page.records[i])) }
    })
})

export const windowListing = (spec: WindowListingSpec): Listing<RestClient> => ({
  ...keepWithin(
    restListing({
      ...spec,
      query: (slice) => {
        const b = bounds(slice)
        return { ...spec.query?.(slice), startTimestamp: Math.max(0, b.from - 1), endTimestamp: b.to }
      }
    }),
    spec.timeField,
    bounds
  ),
  // a window topped up from its last completion lists only its end again; one with holes is
  // planned from its start (Windows.ts), and only such a pass meets every rejected record again
  revisits: (slice) => bounds(slice).from === windowOf(slice.params)?.from
})
