/**
 * One limiter per host, shared by every caller of every client: requests in flight (slots that
 * follow the host's round trip and rate, HostPace.ts, up to the concurrency cap) and a token
 * bucket whose rate adapts — halved on a 429, raised back by a fixed step after a run of
 * successes (AIMD), never above the configured rate. A 429 also empties the bucket until its
 * Retry-After has passed, so the other callers of that host stop too instead of each collecting
 * its own 429. Slot and token go together to the waiting request of the listing furthest along
 * (PriorityGate.ts, ListingPage.ts), so the longest listing does not queue behind shorter ones.
 */
import { Clock, Context, Effect, FiberRef, Layer } from "effect"
import { SourceConfig } from "../Config.ts"
import { SourceStats } from "./SourceStats.ts"
import { type HostPace, type HostPaceReport, makeHostPace, paceReport } from "./HostPace.ts"
import { listingPage } from "./ListingPage.ts"

export interface LimiterOptions {
  /** Requests per second per host: the ceiling the rate climbs back to. */
  readonly rate: number
  /** Tokens the bucket may save up. */
  readonly burst: number
  /** Requests in flight per host, at most (the round trip and the rate decide below it). */
  readonly concurrency: number
  /** Successes in a row before the rate is raised one step. */
  readonly successesPerIncrease?: number
}

// Concurrent 429s from one burst are one signal, not several: halve at most once per window.
const decreaseCooldownMs = 1_000

interface Bucket {
  rate: number
  tokens: number
  /** The instant `tokens` was measured at; during a 429's pause it lies in the future (nothing accrues before it). */
  at: number
  successes: number
  lastDecreaseAt: number
}

// A token short of whole by float rounding alone is whole: its wait would be a timer of 0 ms.
const EPSILON = 1e-9

export interface RateLimiterService {
  /**
   * Runs `effect` holding a slot and a token of `host`, the request of the listing furthest along
   * first (ListingPage.ts); the wait is added to SourceStats.
   */
  readonly withPermit: (host: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** A request got through: counts towards raising the rate again. */
  readonly onSuccess: (host: string) => Effect.Effect<void>
  /** A 429: halves the rate and holds every caller of `host` back for `pauseMs`. */
  readonly onRateLimited: (host: string, pauseMs: number) => Effect.Effect<void>
  /** The rate currently allowed for `host`, requests per second. */
  readonly currentRate: (host: string) => Effect.Effect<number>
  /** An answer of `host` came after `ms`: its requests in flight follow (HostPace.ts). */
  readonly onRoundTrip: (host: string, ms: number) => Effect.Effect<void>
  /** Per host seen: the round trip measured and the requests in flight allowed (none before its first answer). */
  readonly pace: Effect.Effect<ReadonlyArray<HostPaceReport>>
}

export const makeRateLimiter = (options: LimiterOptions): Effect.Effect<RateLimiterService, never, SourceStats> =>
  Effect.gen(function* () {
    const stats = yield* SourceStats
    const ceiling = options.rate
    const floor = Math.min(1, ceiling)
    const step = Math.max(1, ceiling / 20)
    const successesPerIncrease = options.successesPerIncrease ?? 10
    const hosts = new Map<string, { readonly bucket: Bucket; readonly pace: HostPace }>()

    const refill = (b: Bucket, now: number): void => {
      if (now <= b.at) return
      b.tokens = Math.min(options.burst, b.tokens + ((now - b.at) * b.rate) / 1000)
      b.at = now
    }

    /** The bucket as the gate sees it: a token is handed out only once it is there, never on credit. */
    const tokensOf = (b: Bucket) => ({
      waitMs: (now: number) => {
        refill(b, now)
        if (b.tokens >= 1 - EPSILON && now >= b.at) return 0
        return Math.max(0, b.at + (Math.max(0, 1 - b.tokens) * 1000) / b.rate - now)
      },
      take: (now: number) => {
        refill(b, now)
        b.tokens -= 1
      }
    })

    // Plain mutation is safe: JS runs one fiber step at a time and these functions do not yield.
    const hostOf = (host: string, now: number) => {
      let h = hosts.get(host)
      if (h === undefined) {
        const bucket: Bucket = { rate: ceiling, tokens: options.burst, at: now, successes: 0, lastDecreaseAt: -Infinity }
        h = { bucket, pace: makeHostPace(options.concurrency, tokensOf(bucket)) }
        hosts.set(host, h)
      }
      return h
    }
    const bucketOf = (host: string, now: number): Bucket => hostOf(host, now).bucket

    const withPermit =
      (host: string) =>
      <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function* () {
          const start = yield* Clock.currentTimeMillis
          const page = yield* FiberRef.get(listingPage)
          return yield* hostOf(host, start).pace.gate.withPermit(page)(
            Effect.gen(function* () {
              const waited = (yield* Clock.currentTimeMillis) - start
              if (waited > 0) yield* stats.add(host, { limiterWaitMs: waited })
              return yield* effect
            })
          )
        })

    const onSuccess = (host: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const b = bucketOf(host, now)
        b.successes += 1
        if (b.successes >= successesPerIncrease && b.rate < ceiling) {
          refill(b, now)
          b.rate = Math.min(ceiling, b.rate + step)
          b.successes = 0
        }
      })

    const onRateLimited = (host: string, pauseMs: number) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const b = bucketOf(host, now)
        refill(b, now)
        if (now - b.lastDecreaseAt >= decreaseCooldownMs) {
          b.rate = Math.max(floor, b.rate / 2)
          b.lastDecreaseAt = now
        }
        b.successes = 0
        b.tokens = Math.min(b.tokens, 0)
        // Nothing accrues during the pause, so it does not end in a burst; the gate hands out no token before it.
        b.at = Math.max(b.at, now + pauseMs)
      })

    const currentRate = (host: string) => Effect.map(Clock.currentTimeMillis, (now) => bucketOf(host, now).rate)

    const onRoundTrip = (host: string, ms: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const h = hostOf(host, now)
        return h.pace.observe(ms, h.bucket.rate)
      })

    const pace = Effect.sync(() =>
      paceReport(
        [...hosts.entries()].map(([host, h]) => [host, h.pace] as const),
        (host) => hosts.get(host)!.bucket.rate
      )
    )

    return { withPermit, onSuccess, onRateLimited, currentRate, onRoundTrip, pace }
  })

export class RateLimiter extends Context.Tag("chainetl/RateLimiter")<RateLimiter, RateLimiterService>() {
  /** Rate, burst and concurrency from SourceConfig. */
  static readonly layer: Layer.Layer<RateLimiter, never, SourceConfig | SourceStats> = Layer.effect(
    RateLimiter,
    Effect.flatMap(SourceConfig, (s) =>
      makeRateLimiter({ rate: s.rateLimit, burst: s.rateBurst, concurrency: s.concurrency })
    )
  )
  static readonly layerWith = (options: LimiterOptions): Layer.Layer<RateLimiter, never, SourceStats> =>
    Layer.effect(RateLimiter, makeRateLimiter(options))
}
