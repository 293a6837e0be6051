/**
 * A host's requests in flight and, for the per-host limiter, its tokens, handed out by priority:
 * the waiting request of the listing furthest along first (ListingPage.ts), and among equals the
 * one that came first. Served in order of arrival, each page of the longest listing would queue
 * for a slot and a token behind the other slices' requests, so that listing, which sets the wall
 * time, would advance at a round trip plus the queue a page instead of a round trip.
 *
 * A waiter is granted a slot and a token together, and only when both are there: no token is
 * reserved on credit ahead of its instant, so whoever is at the head of the line when a token
 * comes takes it. Grants happen when a waiter arrives, when a slot frees or the slots grow, and
 * on a timer armed for the instant the next token is due (the only fiber of its own: it ends
 * when it has fired).
 */
import { Clock, Deferred, Effect, Exit } from "effect"

/** A token bucket seen from the gate. */
export interface Tokens {
  /** How long until a token is there, ms (0: now). */
  readonly waitMs: (now: number) => number
  /** Takes one; only called when `waitMs(now)` is 0. */
  readonly take: (now: number) => void
}

export interface PriorityGate {
  /** Runs `effect` holding a slot (and a token, when the gate has tokens); higher `priority` goes first. */
  readonly withPermit: (priority: number) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Slots from now on; a smaller number takes effect as requests end. */
  readonly resize: (permits: number) => Effect.Effect<void>
  /** Requests waiting now. */
  readonly waiting: () => number
}

interface Waiter {
  readonly priority: number
  readonly done: Deferred.Deferred<void>
  granted: boolean
}

const always: Tokens = { waitMs: () => 0, take: () => {} }

export const makePriorityGate = (initialPermits: number, tokens: Tokens = always): PriorityGate => {
  let permits = initialPermits
  let inUse = 0
  /** Highest priority first, then by arrival. */
  const line: Array<Waiter> = []
  /** When the armed timer fires, if one is. */
  let timerAt: number | undefined

  const insert = (w: Waiter): void => {
    // after every waiter of the same or a higher priority (they came first)
    let lo = 0
    let hi = line.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (line[mid]!.priority >= w.priority) lo = mid + 1
      else hi = mid
    }
    line.splice(lo, 0, w)
  }

  // Plain mutation is safe: JS runs one fiber step at a time and `grant` does not yield.
  /** Grants what can be granted now; the ms until the next token if waiters remain for want of one. */
  const grant = (now: number): number | undefined => {
    while (line.length > 0 && inUse < permits) {
      const wait = tokens.waitMs(now)
      if (wait > 0) return wait
      tokens.take(now)
      inUse += 1
      const w = line.shift()!
      w.granted = true
      Deferred.unsafeDone(w.done, Exit.void)
    }
    return undefined
  }

  const pump: Effect.Effect<void> = Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const wait = grant(now)
    if (wait === undefined) return Effect.void
    const at = now + wait
    if (timerAt !== undefined && timerAt <= at) return Effect.void
    timerAt = at
    const fire = Effect.zipRight(
      Effect.sleep(wait),
      Effect.suspend(() => {
        if (timerAt === at) timerAt = undefined
        return pump
      })
    )
    // a daemon: the waiter that armed it may be interrupted while others still wait
    return Effect.asVoid(Effect.forkDaemon(fire))
  })

  const release: Effect.Effect<void> = Effect.suspend(() => {
    inUse -= 1
    return pump
  })

  /** A slot (and a token) at once if no one waits before us, else a place in the line. */
  const acquire = (priority: number, restore: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (line.length === 0 && inUse < permits && tokens.waitMs(now) === 0) {
        tokens.take(now)
        inUse += 1
        return Effect.void
      }
      return Effect.flatMap(Deferred.make<void>(), (done) => {
        const w: Waiter = { priority, done, granted: false }
        insert(w)
        return Effect.zipRight(
          pump,
          restore(Deferred.await(done)).pipe(
            Effect.onInterrupt(() =>
              Effect.suspend(() => {
                if (w.granted) return release
                const i = line.indexOf(w)
                if (i >= 0) line.splice(i, 1)
                return Effect.void
              })
            )
          )
        )
      })
    })

  return {
    withPermit: (priority) => (effect) =>
      Effect.uninterruptibleMask((restore) => Effect.zipRight(acquire(priority, restore), Effect.ensuring(restore(effect), release))),
    resize: (next) =>
      Effect.suspend(() => {
        permits = next
        return pump
      }),
    waiting: () => line.length
  }
}
