import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, TestClock } from "effect"
import { asListingPage } from "../../src/source/ListingPage.ts"
import { makeRateLimiter } from "../../src/source/RateLimiter.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"

const ROUND_TRIP_MS = 1_000

/**
 * A crawl in miniature on the TestClock: one listing of `longPages` pages and `short` one-page
 * listings, all started at 0, sharing a host at `rate` requests a second whose answers take a
 * second. `told`: whether each request says which page of its listing it is. How long after the
 * start the long listing's last answer came, ms.
 */
const longListingEnds = (told: boolean, longPages: number, short: number, rate: number) =>
  Effect.gen(function* () {
    const limiter = yield* makeRateLimiter({ rate, burst: 1, concurrency: 64 })
    const start = yield* Clock.currentTimeMillis
    const request = (page: number) => {
      const r = limiter.withPermit("h")(Effect.sleep(ROUND_TRIP_MS))
      return told ? asListingPage(page)(r) : r
    }
    const others = yield* Effect.fork(Effect.forEach(Array.from({ length: short }), () => request(0), { concurrency: "unbounded", discard: true }))
    const long = yield* Effect.fork(
      Effect.zipRight(Effect.forEach(Array.from({ length: longPages }, (_, p) => p), request, { discard: true }), Clock.currentTimeMillis)
    )
    yield* TestClock.adjust(10 * 60_000)
    yield* Fiber.join(others)
    return (yield* Fiber.join(long)) - start
  }).pipe(Effect.provide(SourceStats.layer))

describe("the longest listing at the token bucket", () => {
  it.effect("given a 22-page listing among 150 one-page ones at 10/s and a 1 s round trip, when its pages say how far along it is, then it ends within a token's wait a page of its 22 round trips; in order of arrival, after the others' queue", () =>
    Effect.gen(function* () {
      const first = yield* longListingEnds(true, 22, 150, 10)
      const inArrival = yield* longListingEnds(false, 22, 150, 10)
      // each page waits at most one token (100 ms) for its turn
      expect(first).toBeGreaterThanOrEqual(22 * ROUND_TRIP_MS)
      expect(first).toBeLessThanOrEqual(22 * (ROUND_TRIP_MS + 100))
      // each of its pages queues behind the one-page listings still waiting: ~13 s more in all
      expect(inArrival).toBeGreaterThan(first + 10_000)
    })
  )
})
