/**
 * A writer's right to write a slice's files, which can lapse while the writer runs: a distributed
 * worker holds it through the slice's PostgreSQL lock (src/distributed/SliceFence.ts). A local run
 * has no fence: its output lock is held for the whole run.
 *
 * Files carry no fencing token a reader could check, so the right is a lease in time: `deadline`
 * answers with a moment (this process's `performance.now()`) before which a write may land, and the
 * writer's successor waits out the lease of its predecessor's last confirmation before it reads or
 * writes anything (a lock delay). The sink checks the deadline before each rename, bounds each
 * upload by it, and once the right is lost touches nothing more: not even its own take-back, since
 * a file of the same name may already be the successor's.
 */
import { Effect } from "effect"
import { SinkError } from "../Errors.ts"

export interface PartFence {
  /**
   * A moment (performance.now() ms) at least `needMs` away before which writes may land,
   * confirming the right again when the last confirmation is too old. Rejects with a SinkError
   * "Locked" (`isFenceLost`) once the right may be someone else's.
   */
  readonly deadline: (needMs: number) => Promise<number>
}

/** `fence.deadline(needMs)` as an Effect, failing with its SinkError once the right is lost. */
export const deadlineOf = (fence: PartFence, needMs: number): Effect.Effect<number, SinkError> =>
  Effect.tryPromise({ try: () => fence.deadline(needMs), catch: (e) => e as SinkError })

/**
 * Runs `work` (interruptible: uploads abort on interruption) while the fence holds. A long upload
 * is not cut short by a fence that goes on holding: the right is confirmed again every third of
 * what is left of it, and `work` is interrupted, failing as lost, only when a confirmation fails
 * or the latest deadline passes first.
 */
export const underFence = <A>(work: Effect.Effect<A, SinkError>, fence: PartFence, where: string): Effect.Effect<A, SinkError> =>
  Effect.gen(function* () {
    let end = yield* deadlineOf(fence, QUICK_WRITE_MS)
    const overrun = Effect.suspend(() => Effect.sleep(Math.max(0, end - performance.now()))).pipe(
      Effect.repeat({ until: () => performance.now() >= end }),
      Effect.zipRight(Effect.fail(fenceLost(where, "its uploads outlasted the lock's last confirmation")))
    )
    const renew = Effect.suspend(() => Effect.sleep(Math.max(20, (end - performance.now()) / 3))).pipe(
      // Infinity: always a fresh confirmation, whatever is left of the last one
      Effect.zipRight(Effect.flatMap(deadlineOf(fence, Infinity), (next) => Effect.sync(() => void (end = Math.max(end, next))))),
      Effect.forever
    )
    return yield* work.pipe(Effect.raceFirst(overrun), Effect.raceFirst(renew))
  })

/** How long a rename, an fsync or a delete may take once started: a confirmation older than this is renewed first. */
export const QUICK_WRITE_MS = 1_000

const LOST = "this worker lost the slice's lock"

export const fenceLost = (where: string, why: string): SinkError =>
  new SinkError({ reason: "Locked", path: where, detail: `${LOST} (${why}); it writes nothing more of the slice, whose next holder resumes it from its checkpoint` })

export const isFenceLost = (e: unknown): boolean => e instanceof SinkError && e.reason === "Locked" && e.detail.startsWith(LOST)
