/**
 * A run stops starting slices once one of them stops it: a service refused our credentials
 * (SliceResult `stopsRun`), so every later request would be refused too.
 *
 * - **Rules.** A slice starts only while no finished slice has stopped the run; the first result
 *   that stops it is the one the run reports. Slices already under way when it stops finish (a
 *   paged listing's request in flight reaches the service once more, as the docs' guarantees
 *   say). The stop is one `Ref` the run's concurrent slices share, changed atomically, not a
 *   variable each slice's closure writes.
 * - **Memory.** One result.
 * - **Failure modes.** None of its own: a slice's failure is in its result, and a defect or an
 *   interruption passes through untouched.
 */
import { Effect, Option, Ref } from "effect"
import type { SliceResult } from "./SliceResult.ts"

export interface RunStop {
  /** `crawl`'s result, or undefined without running it when the run has stopped. */
  readonly unlessStopped: <E, R>(crawl: Effect.Effect<SliceResult, E, R>) => Effect.Effect<SliceResult | undefined, E, R>
  /** The result that stopped the run, if one did. */
  readonly stoppedBy: Effect.Effect<SliceResult | undefined>
}

export const makeRunStop: Effect.Effect<RunStop> = Effect.map(Ref.make<Option.Option<SliceResult>>(Option.none()), (stop) => ({
  unlessStopped: <E, R>(crawl: Effect.Effect<SliceResult, E, R>) =>
    Effect.flatMap(Ref.get(stop), (stopped) =>
      Option.isSome(stopped)
        ? Effect.succeed(undefined)
        : Effect.tap(crawl, (result) => (result.stopsRun === true ? Ref.update(stop, (first) => Option.orElse(first, () => Option.some(result))) : Effect.void))
    ),
  stoppedBy: Effect.map(Ref.get(stop), Option.getOrUndefined)
}))
