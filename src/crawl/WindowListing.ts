/**
 * A REST listing over one time window (Windows.ts). The route's startTimestamp / endTimestamp are
 * documented only as "items after" / "items before", so the request asks one second wider on
 * each side and the records are cut to the window here: a record belongs to exactly one window
 * whichever way the service reads its bounds.
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

export const windowListing = (spec: WindowListingSpec): Listing<RestClient> => {
  const base = restListing({
    ...spec,
    query: (slice) => {
      const b = bounds(slice)
      return { ...spec.query?.(slice), startTimestamp: Math.max(0, b.from - 1), endTimestamp: b.to }
    }
  })
  return {
    ...base,
    fetch: (slice, cursor) =>
      Effect.map(base.fetch(slice, cursor), (page) => {
        const b = bounds(slice)
        const inWindow = (r: unknown): boolean => {
          const t = typeof r === "object" && r !== null ? (r as Record<string, unknown>)[spec.timeField] : undefined
          // a record without a readable time is toRow's to reject, with the reason
          return typeof t !== "number" || (t >= b.from && t < b.to)
        }
        return { ...page, records: page.records.filter(inWindow) }
      })
  }
}
