/**
 * What a crawl's wall time cannot go below, from the outside: the service grants `rate` requests
 * a second and answers each after `roundTripMs`, and a listing is sequential (each page's token
 * comes from the page before), so its pages take one round trip each however many requests are
 * in flight elsewhere. The wall is bound by the larger of the two; whichever it is names what the
 * run waited on. Pure arithmetic: the dry run's estimate, the run's summary and the pace bench
 * all read it.
 */

export interface Load {
  /** Requests the crawl makes. */
  readonly requests: number
  /** Pages of the longest single listing: the chain no concurrency shortens. */
  readonly longestListing: number
}

export interface Service {
  /** Requests per second allowed; Infinity when nothing limits them. */
  readonly rate: number
  /** One request's round trip, milliseconds. */
  readonly roundTripMs: number
}

export type BoundBy = "rate" | "round trip"

export interface Bound {
  /** The least wall time, milliseconds. */
  readonly ms: number
  readonly by: BoundBy
  /** requests / rate. */
  readonly rateMs: number
  /** longest listing × round trip. */
  readonly listingMs: number
}

export const boundOf = (load: Load, service: Service): Bound => {
  const rateMs = Number.isFinite(service.rate) && service.rate > 0 ? (load.requests / service.rate) * 1000 : 0
  const listingMs = load.longestListing * service.roundTripMs
  return rateMs >= listingMs ? { ms: rateMs, by: "rate", rateMs, listingMs } : { ms: listingMs, by: "round trip", rateMs, listingMs }
}

/** Bounds one after the other: their times add, and the one that holds most of the time names what bound them. */
const added = (parts: ReadonlyArray<Bound>): Bound => {
  const ms = parts.reduce((n, b) => n + b.ms, 0)
  const rateMs = parts.reduce((n, b) => n + b.rateMs, 0)
  const listingMs = parts.reduce((n, b) => n + b.listingMs, 0)
  const byRate = parts.filter((b) => b.by === "rate").reduce((n, b) => n + b.ms, 0)
  return { ms, by: byRate * 2 >= ms ? "rate" : "round trip", rateMs, listingMs }
}

const together = (loads: ReadonlyArray<Load>): Load => ({
  requests: loads.reduce((n, l) => n + l.requests, 0),
  longestListing: loads.reduce((n, l) => Math.max(n, l.longestListing), 0)
})

/**
 * The bound of a run, its datasets' loads given by stage (src/pace/Order.ts stagesOf): the
 * datasets of a stage share one pool of slices (src/CrawlPlan.ts), so a stage is bound by its
 * requests together and its one longest listing; a stage's datasets read what an earlier one's
 * wrote, so they wait for it, and stages add (a reader waits for the datasets it reads only, so
 * this is the upper end). One stage, the usual run: boundOf the whole run.
 */
export const stagedBound = (stages: ReadonlyArray<ReadonlyArray<Load>>, service: Service): Bound =>
  added(stages.filter((s) => s.length > 0).map((s) => boundOf(together(s), service)))

/**
 * The bound of datasets crawled one after the other, as runs crawled them before their slices
 * shared one pool: each one's own bound, summed. The pace bench reports it beside the run's bound,
 * for what crawling them side by side gained.
 */
export const sequentialBound = (loads: ReadonlyArray<Load>, service: Service): Bound => added(loads.map((l) => boundOf(l, service)))

/** Share of the allowance a run used: its requests over what the rate allowed in its wall time (0..1; 0 without a rate). */
export const allowanceShare = (requests: number, wallMs: number, rate: number): number =>
  !Number.isFinite(rate) || rate <= 0 || wallMs <= 0 ? 0 : Math.min(1, requests / ((wallMs / 1000) * rate))
