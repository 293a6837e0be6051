/**
 * Compaction of an output folder, for `chainetl compact` and the nightly run: the recovery of a
 * killed compaction, the tables compacted on one DuckDB connection, and the order that keeps
 * every reader's view exact (Compactor.ts has the recipe of one table). Which tables, and which of
 * their parts may be merged, is the caller's (src/CompactionPolicy.ts). The caller holds the
 * writer lock.
 */
import { DuckDBInstance, quotedString } from "@duckdb/node-api"
import { Effect, Runtime } from "effect"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"
import { type CompactSettings, type CompactTable, type CompactionEvent, type MayMerge, type TableResult, compactTable, deleteFiles, garbageOf } from "./Compactor.ts"

/**
 * One thread; each merge sets its own memory limit (MergeMemory.ts). Freed memory stays with
 * DuckDB's allocator (its default threshold, 512 MiB, is never reached): each flush also calls
 * glibc's malloc_trim on the whole process (src/sink/SinkMemory.ts). Giving back small releases
 * made compacting the 1M `primary_blocks` folder fault the same memory in again and again, at a
 * large share of its CPU, for a peak RSS little lower (measured:
 * docs/performance.md#compaction-memory; docs/compaction.md).
 */
const COMPACTION_SETTINGS = ["SET threads = 1"]

const sinkError = (where: string) => (e: unknown) =>
  e instanceof SinkError ? e : new SinkError({ reason: "Io", path: where, detail: `compaction: ${e instanceof Error ? e.message : String(e)}` })

/**
 * Finishes what a killed compaction left: when some table holds replaced parts or unlisted
 * compacted files, the catalog is rebuilt first (the one on disk may still read them), then they
 * are deleted. Returns how many files were deleted.
 */
export const recoverCompaction = <E, R>(outDir: string, tables: ReadonlyArray<string>, rebuildCatalog: Effect.Effect<unknown, E, R>) =>
  Effect.gen(function* () {
    const dead = yield* Effect.tryPromise({
      try: async () => (await Promise.all(tables.map((t) => garbageOf(outDir, t)))).flat(),
      catch: sinkError(outDir)
    })
    if (dead.length === 0) return 0
    yield* rebuildCatalog
    yield* Effect.logDebug(`compaction: deleting ${dead.length} dead files`)
    yield* Effect.tryPromise({ try: () => deleteFiles(dead), catch: sinkError(outDir) })
    return dead.length
  })

export interface CompactionReport {
  readonly tables: ReadonlyArray<Omit<TableResult, "garbage">>
  /** Files made dead by the committed manifests: delete them with `finishCompaction` once the catalog is rebuilt. */
  readonly garbage: ReadonlyArray<string>
}

/**
 * Steps 1–3 of the recipe for every table, merging only what `mayMerge` allows; the caller
 * rebuilds the catalog, then calls `finishCompaction`.
 */
export const compactTables = (outDir: string, tables: ReadonlyArray<CompactTable>, settings: CompactSettings, mayMerge: MayMerge) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const onEvent = (e: CompactionEvent) =>
      Runtime.runPromise(runtime)(
        Effect.logDebug(e.type === "merged" ? `compaction: ${e.table} merged ${e.inputs} files into ${e.file} (${e.way})` : `compaction: ${e.table} manifest committed (${e.files} files)`)
      )
    // DuckDB is opened at the first merge: a run whose folders hold too few files merges nothing,
    // and an instance costs CPU to open and close (docs/performance.md#compaction-memory)
    const open = async () => {
      const db = await DuckDBInstance.create(":memory:")
      const conn = await db.connect()
      // a sort bigger than memory spills inside the output's staging folder, cleared by every run
      await conn.run(`SET temp_directory = ${quotedString(path.join(outDir, STAGING_DIR, "duckdb-tmp"))}`)
      for (const setting of COMPACTION_SETTINGS) await conn.run(setting)
      return { db, conn }
    }
    return yield* Effect.acquireUseRelease(
      Effect.sync(() => ({ opened: undefined as ReturnType<typeof open> | undefined })),
      (lazy) =>
        Effect.tryPromise({
          try: async () => {
            const conn = async () => (await (lazy.opened ??= open())).conn
            const results: TableResult[] = []
            for (const table of tables) results.push(await compactTable(outDir, table, settings, { conn, mayMerge, onEvent }))
            return results
          },
          catch: sinkError(outDir)
        }),
      (lazy) =>
        Effect.promise(async () => {
          const opened = await lazy.opened?.catch(() => undefined)
          opened?.conn.closeSync()
          opened?.db.closeSync()
        })
    ).pipe(
      Effect.map((results): CompactionReport => ({
        tables: results.filter((r) => r.filesOut > 0).map(({ garbage: _, ...r }) => r),
        garbage: results.flatMap((r) => r.garbage)
      }))
    )
  })

/** Step 4: deletes what the committed manifests replaced; only after a catalog without it was built. */
export const finishCompaction = (report: CompactionReport) =>
  report.garbage.length === 0
    ? Effect.void
    : Effect.logDebug(`compaction: deleting ${report.garbage.length} dead files`).pipe(
        Effect.zipRight(Effect.tryPromise({ try: () => deleteFiles(report.garbage), catch: sinkError(path.dirname(report.garbage[0]!)) }))
      )
