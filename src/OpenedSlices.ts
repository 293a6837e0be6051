/**
 * A local crawl's new slices opened in groups: before a slice that has no checkpoint yet starts,
 * the store is given it and the next new slices in the order they will start (up to
 * OPEN_AHEAD), and it settles after the last slice is over, so that a file store journals their
 * running states in one write a group instead of one a slice (crawl/OpeningJournal.ts).
 *
 * - **Rules.** Only a dataset planned from its checkpoints (windows, heights) knows which of its
 *   slices are new; the others' slices save their running state as they start. A group is
 *   durable before any of its slices starts.
 * - **Memory.** The run's start order and a flag a slice.
 * - **Failure modes.** A group that cannot be written fails the slice that asked for it before
 *   it starts (Runner.ts), which the next run crawls as new; the next slice asks again. A kill
 *   leaves the groups written so far: a later run walks the folders for the parts of each of
 *   their slices that has no checkpoint of its own, so the groups stay small (a kill early in a
 *   backfill of thousands of windows would otherwise cost a walk for each of them).
 */
import { Effect } from "effect"
import { CheckpointStore, initialState } from "./crawl/Checkpoint.ts"
import type { AnyDataset } from "./crawl/Dataset.ts"
import type { CheckpointError } from "./Errors.ts"
import type { Slice } from "./crawl/Slice.ts"
import { runOrder } from "./pace/Order.ts"
import type { PlannedDataset } from "./SliceExecution.ts"

/** How many new slices a journal write opens at most. */
export const OPEN_AHEAD = 64

export interface OpenedSlices {
  /**
   * `crawl` of `slice`, once its running state is durable (with those of the next new slices,
   * unless it is already); else what `failed` makes of the reason.
   */
  readonly start: <A, R>(dataset: AnyDataset, slice: Slice, crawl: Effect.Effect<A, never, R>, failed: (error: string) => A) => Effect.Effect<A, never, R>
  /** After every slice is over: the store drops what checkpoints of their own now say. */
  readonly settle: Effect.Effect<void>
}

export const openedSlices = (plan: ReadonlyArray<PlannedDataset>, runId: string) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    // per dataset, its new slices in the order they start, and which are opened
    const order = new Map<string, Slice[]>()
    for (const [d, i] of runOrder(plan)) {
      const { dataset, slices, checkpointed } = plan[d]!
      const slice = slices[i]!
      if (checkpointed === undefined || checkpointed.has(slice.id)) continue
      const list = order.get(dataset.name) ?? []
      list.push(slice)
      order.set(dataset.name, list)
    }
    const fresh = new Set([...order.values()].flat())
    const next = new Map<string, number>()
    const opened = new Set<Slice>()
    const lock = yield* Effect.makeSemaphore(1)
    const before = (dataset: AnyDataset, slice: Slice): Effect.Effect<void, CheckpointError> =>
      Effect.suspend(() => {
        if (!fresh.has(slice) || opened.has(slice)) return Effect.void
        return lock.withPermits(1)(
          Effect.suspend(() => {
            if (opened.has(slice)) return Effect.void
            const list = order.get(dataset.name)!
            // the asking slice and the next not opened (it may start a little out of turn)
            const group: Slice[] = [slice]
            for (let k = next.get(dataset.name) ?? 0; k < list.length && group.length < OPEN_AHEAD; k++) {
              if (!opened.has(list[k]!) && list[k] !== slice) group.push(list[k]!)
            }
            return Effect.tap(store.open(dataset.name, group.map((s) => initialState(s, runId))), () => {
              for (const s of group) opened.add(s)
              let k = next.get(dataset.name) ?? 0
              while (k < list.length && opened.has(list[k]!)) k++
              next.set(dataset.name, k)
            })
          })
        )
      })
    // a journal left unsettled costs the next run only a walk of the folders for its began slices
    const settle = store.settle.pipe(Effect.catchAll((e) => Effect.logWarning(`new slices' journal not settled: ${e.message}`)))
    const start: OpenedSlices["start"] = (dataset, slice, crawl, failed) =>
      Effect.matchEffect(before(dataset, slice), { onFailure: (e) => Effect.succeed(failed(e.message)), onSuccess: () => crawl })
    return { start, settle } satisfies OpenedSlices
  })
