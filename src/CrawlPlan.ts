/**
 * Step 4 of a local run: every selected dataset's slices crawled from one pool, side by side. A
 * listing is sequential, so a run of several datasets crawled one after the other waited for each
 * dataset's longest listing in turn; from one pool, one dataset's long listing overlaps the
 * others' slices, and the run is bound by max(requests / rate, its longest listing × round trip)
 * rather than by the sum of each dataset's (src/pace/Bound.ts).
 *
 * - **Rules.** Slices start in runOrder (src/pace/Order.ts): by stage, newest windows first. At
 *   most `concurrency` are under way; the gate (SliceGate.ts) lets as many crawl as keep the hosts
 *   busy. A dataset that reads another's output waits, before it takes a place at the gate, until
 *   every slice of that one is over, whatever their outcome (as when datasets ran in turn): what
 *   they committed this run is then on disk for its listing to read. Its slices start after all
 *   of the earlier stages' have, so its waiting never holds a place those need.
 * - **Memory.** One result a slice, and a counter and a latch a dataset.
 * - **Failure modes.** A slice's failure is its result and touches no other dataset's work (each
 *   slice commits its own parts and checkpoint); a defect or an interruption passes through and
 *   ends the crawl as before.
 */
import { Deferred, Effect } from "effect"
import { prerequisites, type Reader, runOrder } from "./pace/Order.ts"
import type { SliceGate } from "./SliceGate.ts"

export interface Planned<D extends Reader, S> {
  readonly dataset: D
  readonly slices: ReadonlyArray<S>
}

/** Each dataset's slices' outcomes, in plan order, crawled through `gate` by `crawl`. */
export const crawlPlan = <D extends Reader, S extends { readonly params: Readonly<Record<string, string>> }, A, E, R>(
  plan: ReadonlyArray<Planned<D, S>>,
  crawl: (dataset: D, slice: S) => Effect.Effect<A, E, R>,
  gate: Pick<SliceGate, "run">,
  concurrency: number
): Effect.Effect<ReadonlyArray<ReadonlyArray<A>>, E, R> =>
  Effect.gen(function* () {
    const before = prerequisites(plan.map((p) => p.dataset))
    const over = yield* Effect.forEach(plan, () => Deferred.make<void>())
    const left = plan.map((p) => p.slices.length)
    for (const [d, n] of left.entries()) if (n === 0) yield* Deferred.succeed(over[d]!, undefined)
    const results: Array<Array<A>> = plan.map((p) => new Array<A>(p.slices.length))
    const one = ([d, i]: readonly [number, number]) =>
      Effect.forEach(before[d]!, (k) => Deferred.await(over[k]!), { discard: true }).pipe(
        Effect.zipRight(gate.run(crawl(plan[d]!.dataset, plan[d]!.slices[i]!))),
        Effect.tap((a) => Effect.sync(() => (results[d]![i] = a))),
        Effect.ensuring(Effect.suspend(() => (--left[d]! === 0 ? Deferred.succeed(over[d]!, undefined) : Effect.void)))
      )
    yield* Effect.forEach(runOrder(plan), one, { concurrency, discard: true })
    return results
  })
