import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, TestClock } from "effect"
import { SourceConfig } from "../../src/Config.ts"
import { KeyBuckets, makeLocalKeyBuckets } from "../../src/source/KeyBuckets.ts"
import { KeyLimiter } from "../../src/source/KeyLimiter.ts"
import { asListingPage } from "../../src/source/ListingPage.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"

/** The buckets in this process behind a store that takes `tripMs` to answer (PostgreSQL's, say). */
const slowBuckets = (tripMs: number) =>
  Layer.effect(
    KeyBuckets,
    Effect.map(makeLocalKeyBuckets, (local) => ({ ...local, reserve: (keys, n) => Effect.zipRight(Effect.sleep(tripMs), local.reserve(keys, n)) }))
  )

const keyed = (tripMs: number) =>
  KeyLimiter.layer.pipe(
    Layer.provideMerge(slowBuckets(tripMs)),
    Layer.provideMerge(SourceStats.layer),
    Layer.provideMerge(
      SourceConfig.layerWith({ baseUrl: "http://h", metricsUrl: "http://h", nodeUrl: "http://h", apiKeys: "alpha=a1pha-s3cret", keyBudgets: { alpha: { rate: 10, burst: 1 } }, concurrency: 64, rateLimit: 1_000 }).pipe(Layer.orDie)
    )
  )

describe("KeyLimiter: the listing furthest along first", () => {
  it.scoped("given requests of listings at page 1 (first) and page 15 waiting while the store answers another, when the next batch is reserved, then the page-15 one has the earlier token", () =>
    Effect.gen(function* () {
      const limiter = yield* KeyLimiter
      const send = (page: number) => Effect.fork(asListingPage(page)(limiter.withKey("h", `page ${page}`)(() => Clock.currentTimeMillis)))
      const first = yield* send(0) // its batch is at the store from 0 to 10
      yield* Effect.yieldNow()
      const page1 = yield* send(1)
      yield* Effect.yieldNow()
      const page15 = yield* send(15)
      yield* Effect.yieldNow()
      yield* TestClock.adjust(1_000)
      // the burst's one token at 10, when the store answered; the next batch (asked at 10, answered
      // at 20) has the tokens due 100 and 200 ms after that one: the first of them for page 15
      expect([yield* Fiber.join(first), yield* Fiber.join(page15), yield* Fiber.join(page1)]).toEqual([10, 110, 210])
    }).pipe(Effect.provide(keyed(10)))
  )
})
