/**
 * The pace of a run's crawl (step 4), for its report and summary: how long it took, the requests
 * it made against what the rate allowed in that time, the round trip and requests in flight the
 * limiters settled on, the longest listing, and what held it back (src/pace/Judge.ts).
 */
import { Effect, Option } from "effect"
import * as os from "node:os"
import { allowedRate, SourceConfig } from "./Config.ts"
import type { SliceResult } from "./crawl/SliceResult.ts"
import { type HeldBy, judge } from "./pace/Judge.ts"
import { KeyLimiter } from "./source/KeyLimiter.ts"
import { RateLimiter } from "./source/RateLimiter.ts"

export interface RunPace {
  readonly crawlMs: number
  readonly requests: number
  /** Requests per second allowed (CHAINETL_RATE_LIMIT per host, or the API keys' budgets together); null: not known here. */
  readonly rate: number | null
  /** Share of the allowance used over the crawl (0..1). */
  readonly share: number
  readonly heldBy: HeldBy
  /** The round trip of the busiest host, ms (its running average); null when none was answered. */
  readonly roundTripMs: number | null
  /** Requests in flight the limiter settled on for that host. */
  readonly inFlight: number | null
  readonly longestListing: number
  /** CPU of the process while crawling, ms. */
  readonly cpuMs: number
  /** The most slices crawled at once. */
  readonly slicesAtOnce: number
}

/** Wraps step 4: its wall time and CPU, then the pace. */
export const withCrawlPace = <A extends { readonly results: ReadonlyArray<ReadonlyArray<SliceResult>> }, E, R>(
  crawl: Effect.Effect<A, E, R>,
  slicesAtOnce: () => number
): Effect.Effect<A & { readonly pace: RunPace }, E, R> =>
  Effect.gen(function* () {
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const crawled = yield* crawl
    const crawlMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const cpuMs = (cpu.user + cpu.system) / 1000
    const slices = crawled.results.flat()
    const requests = slices.reduce((n, s) => n + s.requests, 0)
    const longestListing = slices.reduce((n, s) => Math.max(n, s.requests), 0)
    const rateLimiter = yield* Effect.serviceOption(RateLimiter)
    const keyLimiter = yield* Effect.serviceOption(KeyLimiter)
    const hosts = [
      ...(Option.isSome(rateLimiter) ? yield* rateLimiter.value.pace : []),
      ...(Option.isSome(keyLimiter) ? yield* keyLimiter.value.pace : [])
    ]
    const busiest = hosts.reduce<(typeof hosts)[number] | undefined>((b, h) => (b === undefined || h.roundTrip.samples > b.roundTrip.samples ? h : b), undefined)
    // the allowance is what was configured, not the rate a 429 lowered it to
    const config = yield* Effect.serviceOption(SourceConfig)
    const rate = Option.isNone(config) ? null : allowedRate(config.value)
    const roundTripMs = busiest?.roundTrip.meanMs ?? null
    const j = judge({ crawlMs, requests, rate: rate ?? Number.POSITIVE_INFINITY, roundTripMs, longestListing, cpuMs, cores: os.availableParallelism() })
    const pace: RunPace = { crawlMs, requests, rate, share: j.share, heldBy: j.heldBy, roundTripMs, inFlight: busiest?.inFlight ?? null, longestListing, cpuMs, slicesAtOnce: slicesAtOnce() }
    return { ...crawled, pace }
  })
