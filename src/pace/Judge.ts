/**
 * What held a finished crawl back, from what it measured: the rate when its requests filled the
 * allowance, a long sequential listing when that listing's pages at the round trip took as long
 * as the crawl, the CPU when the process was busy all along, else the round trip (too few
 * requests in flight for the rate: a cap, or listings too few and too short). Pure.
 */
import { allowanceShare, boundOf } from "./Bound.ts"

export type HeldBy = "rate" | "a long sequential listing" | "CPU" | "round trip"

export interface CrawlMeasure {
  readonly crawlMs: number
  readonly requests: number
  /** Requests per second allowed (Infinity: none). */
  readonly rate: number
  /** Measured round trip, ms; null when no request was answered. */
  readonly roundTripMs: number | null
  /** Pages of the longest listing (a slice's requests). */
  readonly longestListing: number
  /** CPU the process used while crawling, ms (all threads). */
  readonly cpuMs: number
  /** Cores the process could use. */
  readonly cores: number
}

export interface Judgement {
  readonly share: number
  readonly heldBy: HeldBy
  /** requests / rate, ms. */
  readonly rateMs: number
  /** longest listing × round trip, ms. */
  readonly listingMs: number
}

/** A bound explains the crawl when it is at least this share of its wall time. */
export const EXPLAINS = 0.8

export const judge = (m: CrawlMeasure): Judgement => {
  const { rateMs, listingMs } = boundOf({ requests: m.requests, longestListing: m.longestListing }, { rate: m.rate, roundTripMs: m.roundTripMs ?? 0 })
  const share = allowanceShare(m.requests, m.crawlMs, m.rate)
  const heldBy: HeldBy =
    rateMs >= EXPLAINS * m.crawlMs
      ? "rate"
      : listingMs >= EXPLAINS * m.crawlMs
        ? "a long sequential listing"
        : m.cpuMs >= EXPLAINS * m.crawlMs * Math.min(1, m.cores)
          ? "CPU"
          : "round trip"
  return { share, heldBy, rateMs, listingMs }
}
