/**
 * A slice whose checkpoint was found broken and then deleted (the fix its error names) is fetched
 * again from scratch. Its old parts must go first: a slice without a checkpoint is taken to have
 * no parts (see Crawler.ts), so they would stay beside the new ones and double their rows. The
 * checkpoint store leaves a refetch marker for a broken checkpoint (`<slice>.refetch` beside the
 * file, a row of `chainetl_refetch` in PostgreSQL); before a run plans a dataset, every marked
 * slice whose checkpoint is gone has its parts removed (the dataset's, its children's and its
 * rejects), then the marker. A marker whose checkpoint is readable again (restored by hand) is
 * simply dropped; readable means what the crawler reads: a cursor its listing can decode too
 * (Cursor.ts), so a marker left for a cursor alone stays until the checkpoint is deleted.
 */
import { Effect } from "effect"
import { SinkError } from "../Errors.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import { CheckpointStore } from "./Checkpoint.ts"
import { cursorCodecOf, cursorProblem } from "./Cursor.ts"
import type { AnyDataset } from "./Dataset.ts"

/** Removes the parts of the dataset's deleted broken checkpoints; returns the slices cleared. */
export const refetchDeleted = (
  outDir: string,
  dataset: Pick<AnyDataset, "name" | "children"> & { readonly listing?: AnyDataset["listing"] }
): Effect.Effect<ReadonlyArray<string>, SinkError, ParquetSink | CheckpointStore> =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    const codec = dataset.listing === undefined ? undefined : cursorCodecOf(dataset.listing)
    const marked = yield* store.marked(dataset.name, codec === undefined ? undefined : cursorProblem(codec))
    if (marked.length === 0) return []
    const sink = yield* ParquetSink
    const tables = [dataset.name, ...(dataset.children ?? []).map((c) => c.name), rejectsDataset.name]
    const cleared: string[] = []
    for (const { slice, checkpoint } of marked) {
      // still broken: the slice keeps failing until the checkpoint is deleted (or mended)
      if (checkpoint === "broken") continue
      if (checkpoint === "readable") {
        yield* store.unmark(dataset.name, slice)
        continue
      }
      for (const table of tables) yield* sink.removePartsAfter(table, slice, -1)
      yield* store.unmark(dataset.name, slice)
      yield* Effect.logInfo(`${dataset.name} ${slice}: its broken checkpoint was deleted; its parts are removed and the slice is fetched again`)
      cleared.push(slice)
    }
    return cleared
  }).pipe(
    Effect.catchTag("CheckpointError", (e) =>
      Effect.fail(new SinkError({ reason: "Io", path: `${outDir} (refetch markers of ${dataset.name})`, detail: e.message }))
    )
  )
