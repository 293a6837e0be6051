/**
 * Chooses the API key of each chain-data request and when it may go: the key whose bucket can
 * give a token soonest (KeyBuckets.ts), so requests spread over the keys in proportion to their
 * budgets and a paused key (a 429) is passed over while others have tokens.
 *
 * How keys and hosts interact: with keys, the chain-data host's requests are paced by the keys'
 * budgets alone (the service budgets keys, not hosts); the host keeps its requests in flight,
 * which follow its round trip and the keys' rates together, up to the cap (CHAINETL_CONCURRENCY,
 * per process; HostPace.ts). The metrics service and the node take no key and keep the
 * per-host limiter (RateLimiter.ts), as do chain-data requests when no key is set.
 *
 * Waiting callers are served in batches: one `reserve` of up to MAX_BATCH tokens for everyone
 * waiting, one round-trip to the store for them all (PostgreSQL), the listing furthest along
 * first (ListingPage.ts: a batch is the waiting requests of the most pages read, and the earliest
 * of its tokens go to the furthest; so do the host's slots, PriorityGate.ts). Tokens are reserved only for
 * requests that are waiting, never ahead: a token held for later would be sent later than the
 * store counted it, and several of those could exceed the budget over a window.
 *
 * A key the service refuses (401/403) is dropped for the rest of the run and its request goes
 * again on another key; only when every key is refused does the run stop (AuthStop.ts).
 */
import { Clock, Context, Deferred, Effect, FiberRef, Layer, Queue } from "effect"
import { SourceConfig } from "../Config.ts"
import { SourceError } from "../Errors.ts"
import type { ApiKey } from "../ApiKeys.ts"
import { KeyBuckets, type KeyStoreError } from "./KeyBuckets.ts"
import { SourceStats } from "./SourceStats.ts"
import { type HostPace, type HostPaceReport, makeHostPace, paceReport } from "./HostPace.ts"
import { listingPage } from "./ListingPage.ts"

/** Tokens reserved in one round-trip at most: waiting callers beyond it go in the next. */
export const MAX_BATCH = 8
/**
 * A token whose request could not leave within this long of its instant (the event loop was
 * busy, the machine loaded) goes back and the request asks again: sent later, it would land
 * among tokens handed out after it and could exceed the budget over a window by more than this.
 * The instant is counted from when the reservation was asked for, plus twice the usual
 * round-trip to the store (a running average): a reservation whose answer was held up (a stall)
 * counts as late too, since the store's instant was then further back than the answer suggests,
 * while a store that is slow all the time (a distant database) only widens the margin.
 */
export const LATE_MS = 50
/** Successes in a row on a key before its rate is raised one step. */
const SUCCESSES_PER_INCREASE = 10

/** What the run report says of each key: by name, never the secret. */
export interface KeyReport {
  readonly name: string
  /** Requests per second the key was given (its budget). */
  readonly rate: number
  readonly burst: number
  /** HTTP attempts sent with the key, retries included. */
  readonly requests: number
  readonly rateLimited: number
  /** Time requests waited for this key's tokens. */
  readonly limiterWaitMs: number
  /** Round-trips to the buckets' store that reserved this key's tokens (one per batch of waiting requests). */
  readonly reservations: number
  /**
   * Tokens dropped unused: their request could not leave on time, or the key was paused or
   * refused meanwhile. Dropped, not given back: later requests were already handed the tokens
   * after it, so one given back would be sent twice over (a key's budget exceeded, seen under load).
   */
  readonly tokensDropped: number
  /** Why the service refused the key (it was not used again this run); null when it was not. */
  readonly refused: string | null
}

export interface KeyLimiterService {
  /** The keys configured; none means chain-data requests go without a key. */
  readonly keys: ReadonlyArray<ApiKey>
  /**
   * Runs `use` with a key holding one of its tokens and an in-flight slot of `host`. Fails with
   * SourceError "Auth" (naming `request`) when every key has been refused.
   */
  readonly withKey: (
    host: string,
    request: string
  ) => <A, E, R>(use: (key: ApiKey) => Effect.Effect<A, E, R>) => Effect.Effect<A, E | SourceError | KeyStoreError, R>
  readonly onSuccess: (key: ApiKey) => Effect.Effect<void>
  /** A 429 with this key: it alone is paused and slowed, the other keys go on. */
  readonly onRateLimited: (key: ApiKey, pauseMs: number) => Effect.Effect<void>
  /** A 401/403 with this key: it is dropped for the run. True when other keys remain. */
  readonly refuse: (key: ApiKey, error: SourceError) => Effect.Effect<boolean>
  readonly report: Effect.Effect<ReadonlyArray<KeyReport>>
  /** An answer of `host` came after `ms`: its requests in flight follow the keys' rates together (HostPace.ts). */
  readonly onRoundTrip: (host: string, ms: number) => Effect.Effect<void>
  /** Per host seen: the round trip measured, the requests in flight allowed and the keys' rates together. */
  readonly pace: Effect.Effect<ReadonlyArray<HostPaceReport>>
}

interface Grant {
  readonly key: ApiKey
  readonly waitMs: number
  /** When the reservation was asked for: the store computed the wait at or after this. */
  readonly askedAt: number
}

interface Counters {
  requests: number
  reservations: number
  tokensDropped: number
  rateLimited: number
  limiterWaitMs: number
  successes: number
  /** The rate the store last reported: a raise is asked for only while below the budget. */
  rate: number
  pausedUntil: number
  refused: string | null
}

export const makeKeyLimiter = Effect.gen(function* () {
  const settings = yield* SourceConfig
  const buckets = yield* KeyBuckets
  const stats = yield* SourceStats
  const keys = settings.apiKeys
  const counters = new Map<string, Counters>(
    keys.map((k) => [k.id, { requests: 0, reservations: 0, tokensDropped: 0, rateLimited: 0, limiterWaitMs: 0, successes: 0, rate: k.rate, pausedUntil: -Infinity, refused: null }])
  )
  const of = (key: ApiKey) => counters.get(key.id)!
  const live = () => keys.filter((k) => of(k).refused === null)

  const noKeyLeft = (request: string) =>
    new SourceError({
      reason: "Auth",
      request,
      detail: `not sent: the chain-data service refused every API key (${keys.map((k) => `${k.name}: ${of(k).refused ?? "?"}`).join("; ")})`
    })

  /** The usual round-trip to the store (ms, a running average): how far apart asking and answering normally are. */
  let usualTrip: number | undefined
  type Waiter = {
    readonly request: string
    /** Pages already read in the request's listing (ListingPage.ts); then by arrival. */
    readonly priority: number
    readonly seq: number
    readonly done: Deferred.Deferred<Grant, SourceError | KeyStoreError>
  }
  const waiting = yield* Queue.unbounded<Waiter>()
  let arrivals = 0
  const before = (a: Waiter, b: Waiter) => b.priority - a.priority || a.seq - b.seq

  // One batch at a time: callers that arrive during a round-trip go in the next one. The batch is
  // the MAX_BATCH of highest priority among all waiting; the others go back to wait for the next.
  const serveBatch = Effect.gen(function* () {
    const first = yield* Queue.take(waiting)
    const all = [first, ...(yield* Queue.takeAll(waiting))].sort(before)
    const batch = all.slice(0, MAX_BATCH)
    if (all.length > MAX_BATCH) yield* Queue.offerAll(waiting, all.slice(MAX_BATCH))
    const candidates = live()
    const askedAt = yield* Clock.currentTimeMillis
    if (candidates.length === 0) {
      for (const w of batch) yield* Deferred.fail(w.done, noKeyLeft(w.request))
      return
    }
    const reserved = yield* Effect.either(buckets.reserve(candidates, batch.length))
    if (reserved._tag === "Left") {
      for (const w of batch) yield* Deferred.fail(w.done, reserved.left)
      return
    }
    const r = reserved.right
    const trip = (yield* Clock.currentTimeMillis) - askedAt
    usualTrip = usualTrip === undefined ? trip : 0.9 * usualTrip + 0.1 * trip
    of(r.key).rate = r.rate
    of(r.key).reservations += 1
    for (const [i, w] of batch.entries()) yield* Deferred.succeed(w.done, { key: r.key, waitMs: r.waitsMs[i] ?? 0, askedAt })
  })
  if (keys.length > 0) yield* Effect.forkScoped(Effect.forever(serveBatch))

  const grant = (request: string, priority: number) =>
    Effect.flatMap(Deferred.make<Grant, SourceError | KeyStoreError>(), (done) =>
      Effect.zipRight(Queue.offer(waiting, { request, priority, seq: arrivals++, done }), Deferred.await(done))
    )

  /** A key and its token, ready to send; a token that cannot be used at its instant is dropped and another asked for. */
  const takeToken = (request: string, priority: number): Effect.Effect<ApiKey, SourceError | KeyStoreError> =>
    Effect.gen(function* () {
      const { key, waitMs, askedAt } = yield* grant(request, priority)
      // the store's instant lies between asking and answering: the wait runs from the answer
      // (never early) and lateness from the asking (never lenient)
      if (waitMs > 0) yield* Effect.sleep(waitMs)
      const now = yield* Clock.currentTimeMillis
      const c = of(key)
      if (c.pausedUntil > now || c.refused !== null || now - (askedAt + waitMs) > LATE_MS + 2 * (usualTrip ?? 0)) {
        c.tokensDropped += 1
        return yield* takeToken(request, priority)
      }
      return key
    })

  const paces = new Map<string, HostPace>()
  const paceOf = (host: string) => {
    let p = paces.get(host)
    if (p === undefined) {
      p = makeHostPace(settings.concurrency)
      paces.set(host, p)
    }
    return p
  }
  /** What the keys still in use allow together, requests per second. */
  const keysRate = () => live().reduce((n, k) => n + of(k).rate, 0)
  const onRoundTrip = (host: string, ms: number) => Effect.suspend(() => paceOf(host).observe(ms, keysRate()))
  const pace = Effect.sync(() => paceReport(paces.entries(), keysRate))

  const withKey: KeyLimiterService["withKey"] = (host, request) => (use) =>
    Effect.gen(function* () {
      const start = yield* Clock.currentTimeMillis
      const page = yield* FiberRef.get(listingPage)
      return yield* paceOf(host).gate.withPermit(page)(
        Effect.gen(function* () {
          const key = yield* takeToken(request, page)
          const waited = (yield* Clock.currentTimeMillis) - start
          const c = of(key)
          c.requests += 1
          if (waited > 0) {
            c.limiterWaitMs += waited
            yield* stats.add(host, { limiterWaitMs: waited })
          }
          return yield* use(key)
        })
      )
    })

  const onSuccess = (key: ApiKey) =>
    Effect.suspend(() => {
      const c = of(key)
      c.successes += 1
      if (c.successes < SUCCESSES_PER_INCREASE || c.rate >= key.rate) return Effect.void
      c.successes = 0
      return buckets.raise(key).pipe(
        Effect.catchAll((e) => Effect.logDebug(`API key '${key.name}': rate not raised: ${e.message}`))
      )
    })

  const onRateLimited = (key: ApiKey, pauseMs: number) =>
    Effect.gen(function* () {
      const c = of(key)
      const now = yield* Clock.currentTimeMillis
      c.rateLimited += 1
      c.successes = 0
      c.pausedUntil = Math.max(c.pausedUntil, now + pauseMs)
      c.rate = Math.max(1, c.rate / 2)
      yield* buckets.rateLimited(key, pauseMs).pipe(
        Effect.catchAll((e) => Effect.logWarning(`API key '${key.name}': its 429 could not be shared with other processes: ${e.message}`))
      )
    })

  const refuse = (key: ApiKey, error: SourceError) =>
    Effect.gen(function* () {
      const c = of(key)
      if (c.refused !== null) return live().length > 0
      c.refused = `HTTP ${error.status ?? "?"}: ${error.detail}`.slice(0, 300)
      const rest = live()
      yield* Effect.logWarning(
        rest.length === 0
          ? `API key '${key.name}' was refused by the chain-data service (${c.refused}); no key is left`
          : `API key '${key.name}' was refused by the chain-data service (${c.refused}): not used again this run; going on with ${rest.map((k) => `'${k.name}'`).join(", ")}`
      )
      return rest.length > 0
    })

  const report = Effect.sync(() =>
    keys.map((k): KeyReport => {
      const c = of(k)
      return {
        name: k.name,
        rate: k.rate,
        burst: k.burst,
        requests: c.requests,
        rateLimited: c.rateLimited,
        limiterWaitMs: c.limiterWaitMs,
        reservations: c.reservations,
        tokensDropped: c.tokensDropped,
        refused: c.refused
      }
    })
  )

  return { keys, withKey, onSuccess, onRateLimited, refuse, report, onRoundTrip, pace } satisfies KeyLimiterService
})

export class KeyLimiter extends Context.Tag("chainetl/KeyLimiter")<KeyLimiter, KeyLimiterService>() {
  /** Over the buckets the layer below provides (KeyBuckets.local, or PostgreSQL's). */
  static readonly layer: Layer.Layer<KeyLimiter, never, SourceConfig | KeyBuckets | SourceStats> = Layer.scoped(KeyLimiter, makeKeyLimiter)
}
