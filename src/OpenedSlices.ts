/**
 * A local crawl's new slices opened together: the store is given every planned slice that has
 * no checkpoint yet before the first starts, and settles after the last is over, so that a file
 * store journals their running states in one write a dataset instead of one each
 * (crawl/OpeningJournal.ts). Only a dataset planned from its checkpoints (windows, heights) knows
 * which of its slices are new; the others' slices save their running state as they start.
 */
import { Effect } from "effect"
import { CheckpointStore, initialState } from "./crawl/Checkpoint.ts"
import type { PlannedDataset } from "./SliceExecution.ts"

export const withOpenedSlices = <A, E, R>(plan: ReadonlyArray<PlannedDataset>, runId: string, crawl: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    for (const { dataset, slices, checkpointed } of plan) {
      if (checkpointed === undefined) continue
      yield* store.open(dataset.name, slices.filter((s) => !checkpointed.has(s.id)).map((s) => initialState(s, runId)))
    }
    // a journal left unsettled costs the next run only a walk of the folders for its began slices
    const settle = store.settle.pipe(Effect.catchAll((e) => Effect.logWarning(`new slices' journal not settled: ${e.message}`)))
    return yield* Effect.ensuring(crawl, settle)
  })
