/**
 * One limiter per host, shared by every caller of every client: requests in flight (a semaphore
 * that follows the host's round trip and rate, HostPace.ts, up to the concurrency cap) and a
 * token bucket whose rate adapts — halved on a 429, raised back by a fixed step after a
 * run of successes (AIMD), never above the configured rate. A 429 also empties the bucket until
 * its Retry-After has passed, so the other callers of that host stop too instead of each
 * collecting its own 429.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SourceConfig } from "../Config.ts"
import { SourceStats } from "./SourceStats.ts"
import { type HostPace, makeHostPace } from "./HostPace.ts"
import type { RoundTrip } from "../pace/InFlight.ts"

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
  /** The instant `tokens` was measured at; during a pause it lies in the future. */
  at: number
  /** Until when a 429 holds every caller of the host back. */
  pausedUntil: number
  successes: number
  lastDecreaseAt: number
  readonly pace: HostPace
}

export interface RateLimiterService {
  /** Runs `effect` holding a slot and a token of `host`; the wait is added to SourceStats. */
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
  readonly pace: Effect.Effect<ReadonlyArray<{ readonly host: string; readonly roundTrip: RoundTrip; readonly inFlight: number; readonly rate: number }>>
}

export const makeRateLimiter = (options: LimiterOptions): Effect.Effect<RateLimiterService, never, SourceStats> =>
  Effect.gen(function* () {
    const stats = yield* SourceStats
    const ceiling = options.rate
    const floor = Math.min(1, ceiling)
    const step = Math.max(1, ceiling / 20)
    const successesPerIncrease = options.successesPerIncrease ?? 10
    const buckets = new Map<string, Bucket>()

    // Plain mutation is safe: JS runs one fiber step at a time and these functions do not yield.
    const bucketOf = (host: string, now: number): Bucket => {
      let b = buckets.get(host)
      if (b === undefined) {
        b = {
          rate: ceiling,
          tokens: options.burst,
          at: now,
          pausedUntil: -Infinity,
          successes: 0,
          lastDecreaseAt: -Infinity,
          pace: makeHostPace(options.concurrency)
        }
        buckets.set(host, b)
      }
      return b
    }

    const refill = (b: Bucket, now: number): void => {
      if (now <= b.at) return
      b.tokens = Math.min(options.burst, b.tokens + ((now - b.at) * b.rate) / 1000)
      b.at = now
    }

    /** Takes a token, possibly on credit; returns how long to wait until it is really there. */
    const reserve = (b: Bucket, now: number): number => {
      refill(b, now)
      b.tokens -= 1
      const readyAt = b.at + (Math.max(0, -b.tokens) * 1000) / b.rate
      return Math.max(0, readyAt - now)
    }

    /** Waits for a token; one reserved before another caller's 429 is taken again after the pause. */
    const takeToken = (b: Bucket): Effect.Effect<void> =>
      Effect.gen(function* () {
        const wait = reserve(b, yield* Clock.currentTimeMillis)
        if (wait > 0) yield* Effect.sleep(wait)
        const paused = b.pausedUntil - (yield* Clock.currentTimeMillis)
        if (paused > 0) {
          b.tokens += 1 // unused: give it back before queueing again behind the pause
          yield* Effect.sleep(paused)
          yield* takeToken(b)
        }
      })

    const withPermit =
      (host: string) =>
      <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.gen(function* () {
          const start = yield* Clock.currentTimeMillis
          const b = bucketOf(host, start)
          return yield* b.pace.semaphore.withPermits(1)(
            Effect.gen(function* () {
              yield* takeToken(b)
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
        b.pausedUntil = Math.max(b.pausedUntil, now + pauseMs)
        // Nothing accrues during the pause, so it does not end in a burst.
        b.at = Math.max(b.at, b.pausedUntil)
      })

    const currentRate = (host: string) => Effect.map(Clock.currentTimeMillis, (now) => bucketOf(host, now).rate)

    const onRoundTrip = (host: string, ms: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const b = bucketOf(host, now)
        return b.pace.observe(ms, b.rate)
      })

    const pace = Effect.sync(() =>
      [...buckets.entries()].flatMap(([host, b]) => {
        const roundTrip = b.pace.roundTrip()
        const inFlight = b.pace.target()
        return roundTrip === undefined || inFlight === undefined ? [] : [{ host, roundTrip, inFlight, rate: b.rate }]
      })
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
