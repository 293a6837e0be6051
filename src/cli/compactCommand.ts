/**
 * `chainetl compact [dataset…]`: merges each partition's small files toward a target size
 * (README "Compaction"). Holds the writer lock like a run, finishes what a killed compaction
 * left, compacts, rebuilds the catalog, and only then deletes the files the merged ones replace.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { datasets as registry } from "../../pipelines/index.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { allTables, compactTables, compactionTables, finishCompaction, recoverCompaction } from "../compact/Compaction.ts"
import { type CompactSettings, DEFAULT_SETTINGS } from "../compact/Compactor.ts"
import { SinkError } from "../Errors.ts"
import { newRunId } from "../Runner.ts"
import { buildCatalog } from "../sink/Catalog.ts"
import { clearDeadTemps } from "../sink/Leftovers.ts"
import { refuseLinks } from "../sink/NoLinks.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { STAGING_DIR } from "../sink/ParquetSink.ts"
import { resolveOut } from "./output.ts"

export interface CompactArgs {
  readonly datasets: ReadonlyArray<string>
  readonly out: string | undefined
  readonly targetRows: number
  readonly targetMb: number
  readonly quiet: boolean
}

export const compactSettings = (a: Pick<CompactArgs, "targetRows" | "targetMb">): CompactSettings => ({
  ...DEFAULT_SETTINGS,
  targetRows: a.targetRows,
  targetBytes: Math.round(a.targetMb * 1024 * 1024)
})

export const compactCommand = (args: CompactArgs) => {
  const out = path.resolve(resolveOut(args.out))
  return Effect.scoped(
    Effect.gen(function* () {
      const chosen = args.datasets.length === 0 ? registry : registry.filter((d) => args.datasets.includes(d.name))
      yield* refuseLinks(out, allTables().map((t) => t.name), compactionTables(chosen).map((t) => t.name))
      yield* (yield* WriterLock).acquire(out, newRunId(new Date()))
      yield* Effect.tryPromise({
        try: () => fs.rm(path.join(out, STAGING_DIR), { recursive: true, force: true }),
        catch: (e) => new SinkError({ reason: "Io", path: path.join(out, STAGING_DIR), detail: String(e) })
      })
      yield* clearDeadTemps(out)
      const catalog = buildCatalog(out, catalogEntries())
      yield* recoverCompaction(out, allTables().map((t) => t.name), catalog)
      const report = yield* compactTables(out, compactionTables(chosen), compactSettings(args))
      yield* catalog
      yield* finishCompaction(report)
      if (args.quiet) return
      if (report.tables.length === 0) {
        console.log("nothing to compact")
        return
      }
      for (const t of report.tables) console.log(`${t.table}: ${t.filesIn} files merged into ${t.filesOut} in ${t.folders} partitions`)
    })
  ).pipe(Effect.provide(stateLayer(out)))
}
