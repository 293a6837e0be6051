/**
 * Where the API keys' token buckets live: in this process (the default), or in PostgreSQL so
 * that every process using a key shares its one budget (state/PgKeyBuckets.ts, chosen when
 * CHAINETL_STATE_URL is set). KeyLimiter decides which key a request uses and when it may go;
 * this store only keeps the buckets and answers atomically, so swapping it is a layer swap.
 *
 * A bucket is the per-host limiter's (RateLimiter.ts) for one key: `burst` tokens, refilled at
 * the key's current rate, which halves on a 429 (at most once a second: one burst of 429s is one
 * signal) and climbs back by a twentieth of the ceiling after a run of successes; a 429 also
 * empties the bucket until its Retry-After has passed, and nothing accrues during that pause.
 *
 * Reservations are on credit: `reserve` takes the tokens at once (the count may go negative) and
 * says how long each caller must wait for its own. So the instants at which tokens are handed
 * out conform to the bucket whoever asks, and a caller that sends when its wait is over stays
 * within the key's budget.
 */
import { Clock, Context, Data, Effect, Layer } from "effect"
import type { ApiKey } from "../ApiKeys.ts"

/** Tokens of one key, each with the wait before its request may be sent. */
export interface Reservation {
  readonly key: ApiKey
  /** One per token reserved, in ms from when the answer was computed. */
  readonly waitsMs: ReadonlyArray<number>
  /** The key's rate as the store has it now (below the budget after 429s). */
  readonly rate: number
}

/** The shared store could not be asked (PostgreSQL unreachable): the request cannot know its budget. */
export class KeyStoreError extends Data.TaggedError("KeyStoreError")<{
  readonly reason: "Unavailable"
  readonly detail: string
}> {
  override get message(): string {
    return `the API keys' shared budget could not be read: ${this.detail}`
  }
}

export interface KeyBucketsService {
  /** `n` tokens on whichever of `candidates` can give the last of them soonest. */
  readonly reserve: (candidates: ReadonlyArray<ApiKey>, n: number) => Effect.Effect<Reservation, KeyStoreError>
  /** A 429 on `key`: halve its rate, pause it for `pauseMs`. */
  readonly rateLimited: (key: ApiKey, pauseMs: number) => Effect.Effect<void, KeyStoreError>
  /** A run of successes on `key`: raise its rate one step towards its budget. */
  readonly raise: (key: ApiKey) => Effect.Effect<void, KeyStoreError>
  /**
   * Budgets that win over the ones this process started with (a distributed job's, written by
   * its worker before it crawls the job's slice): from then on the keys they name keep them.
   */
  readonly apply: (budgets: ReadonlyArray<KeyBudgetOf>) => Effect.Effect<void, KeyStoreError>
}

/** A key's budget as it may travel (a job's payload, a database row): by the key's digest, never its secret. */
export interface KeyBudgetOf {
  /** ApiKeys.ts `keyId`: a digest of the secret. */
  readonly id: string
  readonly name: string
  readonly rate: number
  readonly burst: number
}

/** Concurrent 429s from one burst are one signal: halve at most once per this many ms. */
export const DECREASE_COOLDOWN_MS = 1_000
/** The rate never falls below this (or the budget, if lower). */
export const rateFloor = (budget: number): number => Math.min(1, budget)
/** How much a run of successes raises the rate. */
export const rateStep = (budget: number): number => Math.max(1, budget / 20)

interface Bucket {
  rate: number
  tokens: number
  /** When `tokens` was measured; during a pause it lies in the future. */
  at: number
  lastDecreaseAt: number
}

/** The buckets in this process: exact, no round-trip; what a single process needs. */
export const makeLocalKeyBuckets: Effect.Effect<KeyBucketsService> = Effect.sync(() => {
  const buckets = new Map<string, Bucket>()
  // budgets applied since the start win over the keys' own (a worker's job budgets)
  const applied = new Map<string, KeyBudgetOf>()
  const budgetOf = (key: ApiKey): ApiKey => {
    const a = applied.get(key.id)
    return a === undefined ? key : { ...key, rate: a.rate, burst: a.burst }
  }
  const bucketOf = (key: ApiKey, now: number): Bucket => {
    let b = buckets.get(key.id)
    if (b === undefined) {
      b = { rate: key.rate, tokens: key.burst, at: now, lastDecreaseAt: -Infinity }
      buckets.set(key.id, b)
    }
    return b
  }
  const refill = (key: ApiKey, b: Bucket, now: number): void => {
    if (now <= b.at) return
    b.tokens = Math.min(key.burst, b.tokens + ((now - b.at) * b.rate) / 1000)
    b.at = now
  }
  /** When the n-th token from now is there. */
  const readyAt = (b: Bucket, n: number): number => b.at + (Math.max(0, n - b.tokens) * 1000) / b.rate

  // Plain mutation is safe: JS runs one fiber step at a time and none of these yields inside.
  return {
    reserve: (candidates, n) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        let best: { key: ApiKey; b: Bucket; ready: number } | undefined
        for (const given of candidates) {
          const key = budgetOf(given)
          const b = bucketOf(key, now)
          refill(key, b, now)
          const ready = readyAt(b, n)
          if (best === undefined || ready < best.ready || (ready === best.ready && b.tokens > best.b.tokens)) best = { key, b, ready }
        }
        const { key, b } = best!
        const waitsMs = Array.from({ length: n }, (_, i) => Math.max(0, readyAt(b, i + 1) - now))
        b.tokens -= n
        return { key: candidates.find((k) => k.id === key.id)!, waitsMs, rate: b.rate }
      }),
    rateLimited: (given, pauseMs) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const key = budgetOf(given)
        const b = bucketOf(key, now)
        refill(key, b, now)
        if (now - b.lastDecreaseAt >= DECREASE_COOLDOWN_MS) {
          b.rate = Math.max(rateFloor(key.rate), b.rate / 2)
          b.lastDecreaseAt = now
        }
        b.tokens = Math.min(b.tokens, 0)
        // nothing accrues during the pause, so it does not end in a burst
        b.at = Math.max(b.at, now + pauseMs)
      }),
    raise: (given) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const key = budgetOf(given)
        const b = bucketOf(key, now)
        if (b.rate >= key.rate) return
        refill(key, b, now)
        b.rate = Math.min(key.rate, b.rate + rateStep(key.rate))
      }),
    apply: (budgets) =>
      Effect.sync(() => {
        for (const a of budgets) {
          applied.set(a.id, a)
          const b = buckets.get(a.id)
          if (b === undefined) continue
          // a lower budget applies at once (a higher one is climbed to by `raise`); tokens never above the new burst
          b.rate = Math.min(b.rate, a.rate)
          b.tokens = Math.min(b.tokens, a.burst)
        }
      })
  }
})

export class KeyBuckets extends Context.Tag("chainetl/KeyBuckets")<KeyBuckets, KeyBucketsService>() {
  /** In this process. */
  static readonly local: Layer.Layer<KeyBuckets> = Layer.effect(KeyBuckets, makeLocalKeyBuckets)
}
