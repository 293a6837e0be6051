import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer, Ref, type Scope } from "effect"
import { makeSliceGate } from "../../src/SliceGate.ts"
import { makeRateLimiter, RateLimiter } from "../../src/source/RateLimiter.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"

/** Starts `n` slices through the gate, each held until `release`; returns how many ran at once at most. */
const peakOf = (n: number, cap: number) =>
  Effect.gen(function* () {
    const gate = yield* makeSliceGate(cap)
    const running = yield* Ref.make(0)
    const release = yield* Deferred.make<void>()
    const slice = Effect.gen(function* () {
      yield* Ref.update(running, (r) => r + 1)
      yield* Deferred.await(release)
    })
    const all = yield* Effect.fork(Effect.forEach(Array.from({ length: n }), () => gate.run(slice), { concurrency: "unbounded", discard: true }))
    yield* Effect.yieldNow()
    yield* Effect.sleep("1 millis").pipe(Effect.repeatN(20))
    const atOnce = yield* Ref.get(running)
    yield* Deferred.succeed(release, undefined)
    yield* all.await
    return { atOnce, peak: gate.peak() }
  })

describe("slices at once", () => {
  it.live("given a host answering in 300 ms at 20 requests/s, when 30 slices are started, then 9 in flight + 2 = 11 run at once", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 20, burst: 4, concurrency: 64 })
      yield* limiter.onRoundTrip("h", 300)
      const { atOnce, peak } = yield* peakOf(30, 64).pipe(Effect.provide(Layer.succeed(RateLimiter, limiter)), Effect.scoped)
      expect([atOnce, peak]).toEqual([11, 11])
    }).pipe(Effect.provide(SourceStats.layer))
  )

  it.live("given no answer yet, when 30 slices are started, then 4 run at once; with --concurrency 3, 3", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 20, burst: 4, concurrency: 64 })
      const provide = <A, E>(e: Effect.Effect<A, E, RateLimiter | Scope.Scope>) => e.pipe(Effect.provide(Layer.succeed(RateLimiter, limiter)), Effect.scoped)
      expect((yield* provide(peakOf(30, 64))).atOnce).toBe(4)
      expect((yield* provide(peakOf(30, 3))).atOnce).toBe(3)
    }).pipe(Effect.provide(SourceStats.layer))
  )
})

describe("a host's requests in flight", () => {
  it.effect("given a cap of 64, when the host answers in 300 ms at 20/s, then its in flight is 9; before any answer none is reported", () =>
    Effect.gen(function* () {
      const limiter = yield* makeRateLimiter({ rate: 20, burst: 4, concurrency: 64 })
      yield* limiter.withPermit("h")(Effect.void)
      expect(yield* limiter.pace).toEqual([])
      yield* limiter.onRoundTrip("h", 300)
      const [h] = yield* limiter.pace
      expect([h!.host, h!.inFlight, h!.rate, h!.roundTrip.meanMs]).toEqual(["h", 9, 20, 300])
    }).pipe(Effect.provide(SourceStats.layer))
  )
})
