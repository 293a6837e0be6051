/**
 * One host's requests in flight, following its round trip and its rate (src/pace/InFlight.ts):
 * the slots of a limiter's gate (PriorityGate.ts), resized after every answer. Before the first
 * answer it holds the cap (CHAINETL_CONCURRENCY): the token bucket paces the first requests anyway.
 */
import { Effect } from "effect"
import { inFlightTarget, nextRoundTrip, type RoundTrip } from "../pace/InFlight.ts"
import { makePriorityGate, type PriorityGate, type Tokens } from "./PriorityGate.ts"

export interface HostPace {
  /** Slots (and, for the per-host limiter, tokens), the listing furthest along first. */
  readonly gate: PriorityGate
  /** The round trip measured so far; undefined before the first answer. */
  readonly roundTrip: () => RoundTrip | undefined
  /** Requests in flight now allowed; undefined before the first answer. */
  readonly target: () => number | undefined
  /** An answer came after `ms`, while `rate` requests a second were allowed. */
  readonly observe: (ms: number, rate: number) => Effect.Effect<void>
}

/** What a limiter reports of one host it has seen answer. */
export interface HostPaceReport {
  readonly host: string
  readonly roundTrip: RoundTrip
  readonly inFlight: number
  readonly rate: number
}

/** `tokens`: the host's token bucket, granted with the slot; none when the tokens come from elsewhere (API keys). */
export const makeHostPace = (cap: number, tokens?: Tokens): HostPace => {
  const gate = makePriorityGate(cap, tokens)
  let rt: RoundTrip | undefined
  let permits = cap
  return {
    gate,
    roundTrip: () => rt,
    target: () => (rt === undefined ? undefined : permits),
    observe: (ms, rate) =>
      Effect.suspend(() => {
        rt = nextRoundTrip(rt, ms)
        const next = inFlightTarget(rate, rt, cap)
        if (next === permits) return Effect.void
        permits = next
        return gate.resize(next)
      })
  }
}

/** The hosts that answered: their round trip, requests in flight and the rate `rateOf` says they were allowed. */
export const paceReport = (paces: Iterable<readonly [string, HostPace]>, rateOf: (host: string) => number): Array<HostPaceReport> =>
  [...paces].flatMap(([host, p]) => {
    const roundTrip = p.roundTrip()
    const inFlight = p.target()
    return roundTrip === undefined || inFlight === undefined ? [] : [{ host, roundTrip, inFlight, rate: rateOf(host) }]
  })
