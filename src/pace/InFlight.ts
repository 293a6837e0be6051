/**
 * How many requests to keep in flight to one host, and how many slices to crawl at once, from the
 * measured round trip and the allowed rate. Little's law: a host answering after `rtt` and
 * allowing `rate` requests a second is kept busy by rate × rtt requests in flight; a margin covers
 * the spread of round trips and the time between a page's answer and the next page's request. The
 * configured concurrency stays a cap. Pure decisions; src/source/HostPace.ts applies them.
 *
 * Rising latency is backed off from: the round trip used is at most LATENCY_TOLERANCE times its
 * long-run average, so a service that suddenly slows down gets fewer requests in flight (and so
 * fewer a second), not more; one that became slower for good is followed as the long run catches
 * up. (Not the least round trip: one host serves routes of very different cost, and a few cheap
 * pages would then hold every other route's requests back.)
 */

/** In flight beyond rate × round trip, as a factor. */
export const MARGIN = 1.25
/** And as requests: a page's answer is handled before the listing asks for the next one. */
export const EXTRA = 1
/** The round trip may grow to this many times its long-run average before in flight stops following it. */
export const LATENCY_TOLERANCE = 2
/** Weight of a new sample in the running round trip. */
const ALPHA = 0.2
/** And in the long-run one: about the last hundred answers. */
const LONG_ALPHA = 0.02
/** Slices before any round trip is measured: the first answers come within one round trip. */
export const INITIAL_SLICES = 4
/** `--concurrency`'s default: slices at once at most (a cap: sliceTarget follows the hosts below it); `verify --repair` crawls with it too. */
export const SLICE_CAP = 64
/** Slices beyond the requests in flight: a slice also plans, decodes and commits between requests. */
export const SLICE_EXTRA = 2

export interface RoundTrip {
  /** Running average, ms. */
  readonly meanMs: number
  /** Long-run average, ms. */
  readonly longMs: number
  readonly samples: number
}

export const firstRoundTrip = (sampleMs: number): RoundTrip => ({ meanMs: sampleMs, longMs: sampleMs, samples: 1 })

export const nextRoundTrip = (rt: RoundTrip | undefined, sampleMs: number): RoundTrip =>
  rt === undefined
    ? firstRoundTrip(sampleMs)
    : { meanMs: rt.meanMs + ALPHA * (sampleMs - rt.meanMs), longMs: rt.longMs + LONG_ALPHA * (sampleMs - rt.longMs), samples: rt.samples + 1 }

/** The round trip Little's law is applied to: the running one, up to LATENCY_TOLERANCE × the long-run one. */
export const effectiveRoundTripMs = (rt: RoundTrip): number => Math.min(rt.meanMs, LATENCY_TOLERANCE * rt.longMs)

/**
 * Requests in flight to a host: ⌈rate × round trip × MARGIN⌉ + EXTRA, at least 1 and at most
 * `cap`; the cap itself while no rate limits (rate Infinity) or nothing was measured yet.
 */
export const inFlightTarget = (rate: number, rt: RoundTrip | undefined, cap: number): number => {
  if (rt === undefined || !Number.isFinite(rate)) return cap
  const wanted = Math.ceil((rate * effectiveRoundTripMs(rt) * MARGIN) / 1000) + EXTRA
  return Math.max(1, Math.min(cap, wanted))
}

/**
 * Slices to crawl at once: the most requests in flight any host takes (undefined: none measured
 * yet) plus SLICE_EXTRA, at most `cap` (--concurrency). A listing has one request in flight at a
 * time, so each slice keeps about one.
 */
export const sliceTarget = (hostInFlight: number | undefined, cap: number): number =>
  Math.max(1, Math.min(cap, hostInFlight === undefined ? INITIAL_SLICES : hostInFlight + SLICE_EXTRA))
