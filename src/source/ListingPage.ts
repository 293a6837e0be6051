/**
 * Which page of its listing a request asks for: the pages already read in that listing (0 for a
 * request outside any listing). The crawl sets it around a page's fetch (crawl/FetchPage.ts); a
 * host's limiter reads it to serve the waiting request of the listing furthest along first
 * (PriorityGate.ts). A listing is sequential, so the longest one sets the crawl's wall time: it
 * should not also queue for tokens behind listings that will end long before it.
 */
import { Effect, FiberRef } from "effect"

export const listingPage: FiberRef.FiberRef<number> = FiberRef.unsafeMake(0)

/** Runs `effect` (a page's fetch) as page `pagesRead` of its listing. */
export const asListingPage =
  (pagesRead: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.locally(effect, listingPage, pagesRead)
