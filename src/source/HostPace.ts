/**
 * One host's requests in flight, following its round trip and its rate (src/pace/InFlight.ts):
 * the in-flight semaphore of a limiter, resized after every answer. Before the first answer it
 * holds the cap (CHAINETL_CONCURRENCY): the token bucket paces the first requests anyway.
 */
import { Effect } from "effect"
import { inFlightTarget, nextRoundTrip, type RoundTrip } from "../pace/InFlight.ts"

export interface HostPace {
  readonly semaphore: Effect.Semaphore
  /** The round trip measured so far; undefined before the first answer. */
  readonly roundTrip: () => RoundTrip | undefined
  /** Requests in flight now allowed; undefined before the first answer. */
  readonly target: () => number | undefined
  /** An answer came after `ms`, while `rate` requests a second were allowed. */
  readonly observe: (ms: number, rate: number) => Effect.Effect<void>
}

export const makeHostPace = (cap: number): HostPace => {
  const semaphore = Effect.unsafeMakeSemaphore(cap)
  let rt: RoundTrip | undefined
  let permits = cap
  return {
    semaphore,
    roundTrip: () => rt,
    target: () => (rt === undefined ? undefined : permits),
    observe: (ms, rate) =>
      Effect.suspend(() => {
        rt = nextRoundTrip(rt, ms)
        const next = inFlightTarget(rate, rt, cap)
        if (next === permits) return Effect.void
        permits = next
        return semaphore.resize(next)
      })
  }
}
