import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, TestClock } from "effect"
import { asListingPage } from "../../src/source/ListingPage.ts"
import { makeRateLimiter } from "../../src/source/RateLimiter.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"

/** Starts `n` callers at once through the limiter; returns when each got through (TestClock ms). */
const startTimes = (limiter: Effect.Effect.Success<ReturnType<typeof makeRateLimiter>>, n: number, host = "h") =>
  Effect.forEach(
    Array.from({ length: n }, () => limiter.withPermit(host)(Clock.currentTimeMillis)),
    (e) => e,
    { concurrency: "unbounded" }
  )

describe("RateLimiter bucket (TestClock)", () => {
  it.effect("given rate 5/s and burst 2, when 6 callers arrive at once, then two go at once and the rest 200 ms apart", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 5, burst: 2, concurrency: 10 })
      const fiber = yield* Effect.fork(startTimes(limiter, 6))
      yield* TestClock.adjust(2_000)
      const times = yield* Fiber.join(fiber)
      expect([...times].sort((a, b) => a - b)).toEqual([0, 0, 200, 400, 600, 800])
      const stats = yield* (yield* SourceStats).snapshot
      expect(stats["h"]!.limiterWaitMs).toBe(200 + 400 + 600 + 800)
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given the burst spent and requests of listings at page 1 (first) and page 15 waiting, when a token frees, then the page-15 one goes", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 10, burst: 1, concurrency: 10 })
      yield* limiter.withPermit("h")(Effect.void) // the burst's one token, at 0
      const page = (n: number) => Effect.fork(asListingPage(n)(limiter.withPermit("h")(Clock.currentTimeMillis)))
      const first = yield* page(1)
      yield* Effect.yieldNow()
      const furthest = yield* page(15)
      yield* TestClock.adjust(1_000)
      expect([yield* Fiber.join(furthest), yield* Fiber.join(first)]).toEqual([100, 200])
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given a concurrency cap of 2, when 4 slow callers arrive, then the last two wait for slots", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 1_000, burst: 10, concurrency: 2 })
      const fiber = yield* Effect.fork(
        Effect.forEach(
          [1, 2, 3, 4],
          () => limiter.withPermit("h")(Effect.zipLeft(Clock.currentTimeMillis, Effect.sleep(100))),
          { concurrency: "unbounded" }
        )
      )
      yield* TestClock.adjust(1_000)
      expect([...(yield* Fiber.join(fiber))].sort((a, b) => a - b)).toEqual([0, 0, 100, 100])
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given a 429 with a 1 s pause, when callers were already queued, then none gets through before the pause ends", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 10, burst: 1, concurrency: 10 })
      const fiber = yield* Effect.fork(startTimes(limiter, 4))
      yield* TestClock.adjust(50) // first went at 0; the others wait for 100, 200, 300
      yield* limiter.onRateLimited("h", 1_000)
      yield* TestClock.adjust(5_000)
      const times = [...(yield* Fiber.join(fiber))].sort((a, b) => a - b)
      expect(times[0]).toBe(0)
      // The 429 empties the bucket (the half token accrued in the 50 ms before it too) and nothing
      // accrues until the pause ends at 1050; then one token each 200 ms (the halved rate).
      expect(times.slice(1)).toEqual([1_250, 1_450, 1_650])
      expect(yield* limiter.currentRate("h")).toBe(5)
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given repeated 429s, when the rate falls, then it stops at 1 request/s and one burst halves once", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 8, burst: 1, concurrency: 1 })
      yield* limiter.onRateLimited("h", 0)
      yield* limiter.onRateLimited("h", 0) // same burst: within the cooldown
      expect(yield* limiter.currentRate("h")).toBe(4)
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust(1_000)
        yield* limiter.onRateLimited("h", 0)
      }
      expect(yield* limiter.currentRate("h")).toBe(1)
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given a lowered rate, when successes run on, then it climbs one step per 10 and stops at the ceiling", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 4, burst: 1, concurrency: 1 })
      yield* limiter.onRateLimited("h", 0)
      expect(yield* limiter.currentRate("h")).toBe(2)
      yield* Effect.repeatN(limiter.onSuccess("h"), 9)
      expect(yield* limiter.currentRate("h")).toBe(3)
      yield* Effect.repeatN(limiter.onSuccess("h"), 49)
      expect(yield* limiter.currentRate("h")).toBe(4)
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.effect("given two hosts, when one is throttled, then the other keeps its rate", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 10, burst: 1, concurrency: 1 })
      yield* limiter.onRateLimited("a", 0)
      expect([yield* limiter.currentRate("a"), yield* limiter.currentRate("b")]).toEqual([5, 10])
    }).pipe(Effect.provide(SourceStats.layer))
  )
})
