/**
 * A slice whose checkpoint was found broken and then deleted (the fix its error names) is fetched
 * again from scratch. Its old parts must go first: a slice without a checkpoint is taken to have
 * no parts (see Crawler.ts), so they would stay beside the new ones and double their rows. The
 * checkpoint store leaves `<slice>.refetch` beside a broken checkpoint (Checkpoint.ts); before a
 * run plans a dataset, every such marker whose checkpoint is gone has the slice's parts removed
 * (the dataset's, its children's and its rejects), then the marker itself. A marker whose
 * checkpoint is readable again (restored by hand) is simply dropped.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import { REFETCH_SUFFIX, checkpointProblem, checkpointsRoot } from "./Checkpoint.ts"
import type { AnyDataset } from "./Dataset.ts"

const io = (where: string) => (e: unknown) =>
  e instanceof SinkError ? e : new SinkError({ reason: "Io", path: where, detail: e instanceof Error ? e.message : String(e) })

/** Removes the parts of the dataset's deleted broken checkpoints; returns the slices cleared. */
export const refetchDeleted = (outDir: string, dataset: Pick<AnyDataset, "name" | "children">): Effect.Effect<ReadonlyArray<string>, SinkError, ParquetSink> =>
  Effect.gen(function* () {
    const dir = path.join(checkpointsRoot(outDir), dataset.name)
    const markers = (yield* Effect.tryPromise({ try: () => fs.readdir(dir).catch(() => [] as string[]), catch: io(dir) })).filter((f) => f.endsWith(REFETCH_SUFFIX))
    if (markers.length === 0) return []
    const sink = yield* ParquetSink
    const tables = [dataset.name, ...(dataset.children ?? []).map((c) => c.name), rejectsDataset.name]
    const cleared: string[] = []
    for (const marker of markers) {
      const slice = marker.slice(0, -REFETCH_SUFFIX.length)
      const file = path.join(dir, `${slice}.json`)
      const text = yield* Effect.tryPromise({ try: () => fs.readFile(file, "utf8").catch(() => undefined), catch: io(file) })
      if (text !== undefined) {
        let readable = false
        try {
          readable = checkpointProblem(JSON.parse(text), dataset.name, slice) === undefined
        } catch {
          readable = false
        }
        // still broken: the slice keeps failing until the checkpoint is deleted (or mended)
        if (readable) yield* Effect.tryPromise({ try: () => fs.rm(path.join(dir, marker), { force: true }), catch: io(dir) })
        continue
      }
      for (const table of tables) yield* sink.removePartsAfter(table, slice, -1)
      yield* Effect.tryPromise({ try: () => fs.rm(path.join(dir, marker), { force: true }), catch: io(dir) })
      yield* Effect.logInfo(`${dataset.name} ${slice}: its broken checkpoint was deleted; its parts are removed and the slice is fetched again`)
      cleared.push(slice)
    }
    return cleared
  })
