/**
 * `chainetl compact [dataset…]`: merges each partition's small files toward a target size
 * (docs/compaction.md). Holds the writer lock like a run, finishes what a killed compaction
 * left, compacts, rebuilds the catalog, and only then deletes the files the merged ones replace.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { datasets as registry } from "../../pipelines/index.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { finishCompaction, recoverCompaction } from "../compact/Compaction.ts"
import { allTables, compactDatasets, compactionTables } from "../CompactionPolicy.ts"
import { type CompactSettings, DEFAULT_SETTINGS } from "../compact/Compactor.ts"
import { SinkError } from "../Errors.ts"
import { newRunId } from "../Runner.ts"
import { buildCatalog } from "../sink/Catalog.ts"
import { clearDeadTemps } from "../sink/Leftovers.ts"
import { refuseLinks } from "../sink/NoLinks.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"
import { OutputStore, type OutputStoreService } from "../store/OutputStore.ts"
import { bucketOut, openBucket } from "./bucketOutput.ts"
import { resolveOut } from "./output.ts"

export interface CompactArgs {
  readonly datasets: ReadonlyArray<string>
  readonly out: string | undefined
  readonly targetRows: number
  readonly targetMb: number
  readonly quiet: boolean
  /** An s3:// output's store (`out` is then its working copy). */
  readonly store?: OutputStoreService
}

export const compactSettings = (a: Pick<CompactArgs, "targetRows" | "targetMb">): CompactSettings => ({
  ...DEFAULT_SETTINGS,
  targetRows: a.targetRows,
  targetBytes: Math.round(a.targetMb * 1024 * 1024)
})

/** `--out s3://…`: compaction works on the bucket's working copy and pushes the result. */
export const compactCommand = (args: CompactArgs) => {
  const bucket = bucketOut(args.out)
  if (bucket === undefined || args.store !== undefined) return compactFolder(args)
  return Effect.scoped(
    Effect.gen(function* () {
      const opened = yield* openBucket(bucket, { needsState: true })
      yield* opened.ensureId
      const store = yield* Effect.provide(OutputStore, opened.store)
      return yield* compactFolder({ ...args, out: opened.dir, store })
    })
  )
}

const compactFolder = (args: CompactArgs) => {
  const out = path.resolve(resolveOut(args.out))
  return Effect.scoped(
    Effect.gen(function* () {
      const chosen = args.datasets.length === 0 ? registry : registry.filter((d) => args.datasets.includes(d.name))
      yield* refuseLinks(out, allTables().map((t) => t.name), compactionTables(chosen).map((t) => t.name))
      yield* (yield* WriterLock).acquire(out, newRunId(new Date()))
      // a bucket's working copy is made equal to the bucket under the lock (see Runner)
      if (args.store !== undefined) yield* args.store.pull
      yield* Effect.tryPromise({
        try: () => fs.rm(path.join(out, STAGING_DIR), { recursive: true, force: true }),
        catch: (e) => new SinkError({ reason: "Io", path: path.join(out, STAGING_DIR), detail: String(e) })
      })
      yield* clearDeadTemps(out)
      const catalog = buildCatalog(out, catalogEntries())
      yield* recoverCompaction(out, allTables().map((t) => t.name), catalog)
      const report = yield* compactDatasets(out, chosen, compactSettings(args))
      yield* catalog
      yield* finishCompaction(report)
      // merged files, then manifests, then the catalog, then deletes (store/Sync.ts)
      if (args.store !== undefined) yield* args.store.push
      if (args.quiet) return
      if (report.tables.length === 0) {
        console.log("nothing to compact")
        return
      }
      for (const t of report.tables) console.log(`${t.table}: ${t.filesIn} files merged into ${t.filesOut} in ${t.folders} partitions`)
    })
  ).pipe(Effect.provide(stateLayer(out)))
}
