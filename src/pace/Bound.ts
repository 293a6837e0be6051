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

/**
 * The bound of datasets crawled one after the other (Runner.ts crawls them in registry order):
 * each one's own bound, summed. A dataset's slices overlap, datasets do not.
 */
export const sequentialBound = (loads: ReadonlyArray<Load>, service: Service): Bound => {
  const parts = loads.map((l) => boundOf(l, service))
  const ms = parts.reduce((n, b) => n + b.ms, 0)
  const rateMs = parts.reduce((n, b) => n + b.rateMs, 0)
  const listingMs = parts.reduce((n, b) => n + b.listingMs, 0)
  const byRate = parts.filter((b) => b.by === "rate").reduce((n, b) => n + b.ms, 0)
  return { ms, by: byRate * 2 >= ms ? "rate" : "round trip", rateMs, listingMs }
}

/** Share of the allowance a run used: its requests over what the rate allowed in its wall time (0..1; 0 without a rate). */
export const allowanceShare = (requests: number, wallMs: number, rate: number): number =>
  !Number.isFinite(rate) || rate <= 0 || wallMs <= 0 ? 0 : Math.min(1, requests / ((wallMs / 1000) * rate))
