/**
 * `chainetl run <dataset> --refetch-slice <slice>`: the slice is crawled again whole by the run
 * that follows. What `verify` asks for when a slice of a dataset that takes no range (a snapshot,
 * a fan-out, a metrics listing) lost rows its checkpoint committed: no range names it, only its id.
 *
 * The slice's checkpoint is set back to the one a slice has before its first part (running,
 * nothing committed, lastSeq -1), in whichever store holds the checkpoints (the folder or
 * PostgreSQL). The run then treats it as it treats any slice a crash left running: its recovery
 * removes every part past the checkpoint (all of them, in the dataset's tables, its child tables
 * and its rejects) and the listing starts from its first page. So the crawler's own recovery
 * removes the files, and a kill at any point leaves a state the next run mends the same way.
 *
 * Refused before anything changes: a slice this run does not plan (a snapshot of another day: the
 * service answers with today's, so that day cannot be fetched as it was), a windowed or height
 * dataset's slice (their backfill --refetch names the range), and a slice some compacted file
 * holds rows of (merged with other slices' rows, which recovery cannot take apart).
 */
import { Effect } from "effect"
import { CheckpointStore, initialState } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import type { Slice } from "../crawl/Slice.ts"
import { holdsPartOf, readManifest } from "../compact/Manifest.ts"
import { ConfigError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import { newRunId } from "../Runner.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { rejectsDataset } from "../transform/Rejects.ts"

const invalid = (detail: string, fix: string) => new ConfigError({ reason: "Invalid", field: "--refetch-slice", detail, fix })

/** The slices among `datasets`' that a run at `asOf` plans, by id; refuses an id none plans. */
export const plannedSlices = (datasets: ReadonlyArray<AnyDataset>, job: Job, asOf: number, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const runDate = new Date(asOf * 1000).toISOString().slice(0, 10)
    const found: Array<{ readonly dataset: AnyDataset; readonly slice: Slice }> = []
    for (const id of ids) {
      const owner = datasets.find((d) => d.windows === undefined && d.backfill !== "height" && d.slices(job, { asOf, runDate }).some((s) => s.id === id))
      if (owner === undefined) {
        const ranged = datasets.filter((d) => d.windows !== undefined || d.backfill === "height").map((d) => d.name)
        return yield* Effect.fail(
          invalid(
            `no slice ${id} is planned by this run of ${datasets.map((d) => d.name).join(", ")} (run date ${runDate})`,
            ranged.length > 0
              ? `re-crawl ${ranged.join(", ")} with backfill --refetch over the range chainetl verify names`
              : "name the dataset the slice belongs to; a snapshot of an earlier day cannot be fetched as it was (the service answers with today's)"
          )
        )
      }
      found.push({ dataset: owner, slice: owner.slices(job, { asOf, runDate }).find((s) => s.id === id)! })
    }
    return found
  })

/** Sets each slice's checkpoint back to nothing committed, under the writer lock; returns their ids. */
export const refetchSlices = (out: string, job: Job, datasets: ReadonlyArray<AnyDataset>, ids: ReadonlyArray<string>, asOf: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const chosen = yield* plannedSlices(datasets, job, asOf, ids)
      const runId = newRunId(new Date())
      yield* (yield* WriterLock).acquire(out, runId)
      for (const { dataset, slice } of chosen) {
        for (const table of [dataset.name, ...(dataset.children ?? []).map((c) => c.name), rejectsDataset.name]) {
          const holder = holdsPartOf(yield* Effect.promise(() => readManifest(out, table)), slice.id, () => true)
          if (holder !== undefined) {
            return yield* Effect.fail(
              invalid(`a part of ${dataset.name} slice ${slice.id} is merged into ${table}/${holder} with other parts' rows`, "re-crawl this dataset into a fresh --out, or restore the output from a backup")
            )
          }
        }
      }
      const store = yield* CheckpointStore
      for (const { slice } of chosen) yield* store.save(initialState(slice, runId))
      return chosen.map((c) => c.slice.id)
    })
  )
