/**
 * How many slices a local run crawls at once: as many as keep the hosts' requests in flight busy
 * (src/pace/InFlight.ts sliceTarget: each listing has one request in flight at a time), up to
 * --concurrency. The hosts' targets follow their round trips, so the gate is looked at again
 * every ADJUST_MS and whenever a slice starts or ends.
 */
import { Effect, Option, Schedule, type Scope } from "effect"
import { sliceTarget } from "./pace/InFlight.ts"
import { KeyLimiter } from "./source/KeyLimiter.ts"
import { RateLimiter } from "./source/RateLimiter.ts"

const ADJUST_MS = 100

export interface SliceGate {
  readonly run: <A, E, R>(slice: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The most slices the gate let run at once. */
  readonly peak: () => number
}

export const makeSliceGate = (cap: number): Effect.Effect<SliceGate, never, Scope.Scope> =>
  Effect.gen(function* () {
    const limiters = [
      Option.map(yield* Effect.serviceOption(RateLimiter), (l) => l.pace),
      Option.map(yield* Effect.serviceOption(KeyLimiter), (l) => l.pace)
    ].flatMap((o) => (Option.isSome(o) ? [o.value] : []))
    let permits = sliceTarget(undefined, cap)
    const semaphore = yield* Effect.makeSemaphore(permits)
    let running = 0
    let peak = 0
    const adjust = Effect.gen(function* () {
      const hosts = (yield* Effect.all(limiters)).flat()
      const next = sliceTarget(hosts.length === 0 ? undefined : Math.max(...hosts.map((h) => h.inFlight)), cap)
      if (next !== permits) {
        permits = next
        yield* semaphore.resize(next)
      }
    })
    yield* Effect.forkScoped(Effect.repeat(adjust, Schedule.spaced(`${ADJUST_MS} millis`)))
    const run = <A, E, R>(slice: Effect.Effect<A, E, R>) =>
      Effect.zipRight(
        adjust,
        semaphore.withPermits(1)(
          Effect.suspend(() => {
            running += 1
            peak = Math.max(peak, running)
            return slice
          }).pipe(Effect.ensuring(Effect.zipRight(Effect.sync(() => (running -= 1)), adjust)))
        )
      )
    return { run, peak: () => peak }
  })
