/**
 * Every figure of the report, read from the output folder without writing to it: per dataset its
 * rows, days, gaps and files (datasetFigures.ts, through the catalog); freshness as `chainetl
 * status` computes it (its model over the checkpoints and run reports, and each height-ordered
 * dataset's own query of the height scanned through); the last runs with their failed slices;
 * and the example analyses' answers.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import { catalogEntries } from "../catalogEntries.ts"
import { ReportError } from "../Errors.ts"
import { statusOf } from "../status/model.ts"
import { committedHeights, readRuns } from "../status/read.ts"
import { datasetMeta } from "../status/registry.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import type { RunReport } from "../Runner.ts"
import { layoutOnDisk } from "../sink/Catalog.ts"
import { CatalogReader } from "./CatalogReader.ts"
import { datasetFigures, liveFileSet } from "./datasetFigures.ts"
import type { DatasetFigures, ExampleResult, Report, RunFigures } from "./model.ts"

/** Runs the page lists, newest first. */
export const LAST_RUNS = 10

/** An example analysis to run: its file name without `.sql` and its text. */
export interface ExampleFile {
  readonly name: string
  readonly sql: string
}

/** The first comment line of an analysis: what it answers ("AVAX staked per day."). */
const titleOf = (sql: string, name: string): string =>
  sql
    .split("\n")
    .find((l) => l.startsWith("--"))
    ?.replace(/^--\s*/, "")
    .replace(/\.\s*$/, "") ?? name

const readError = (what: string) => (e: unknown) => new ReportError({ reason: "Read", what, detail: e instanceof Error ? e.message : String(e) })

const runFigures = (reports: ReadonlyArray<RunReport>, lines: ReturnType<typeof statusOf>["runs"]): ReadonlyArray<RunFigures> =>
  lines.map((line) => {
    const report = reports.find((r) => r.runId === line.runId)
    const outcomes: Record<string, number> = { done: 0, failed: 0, skipped: 0, not_run: 0 }
    for (const s of report?.slices ?? []) outcomes[s.status] = (outcomes[s.status] ?? 0) + 1
    const failures = (report?.slices ?? [])
      .filter((s) => s.status === "failed")
      .map((s) => ({ runId: line.runId, dataset: s.dataset, slice: s.slice, error: s.error ?? "" }))
    // a run that failed besides its slices (the catalog could not be rebuilt) says why
    const runError = report?.error === null || report?.error === undefined ? [] : [{ runId: line.runId, dataset: "(run)", slice: "", error: report.error }]
    return { ...line, outcomes, failures: [...failures, ...runError] }
  })

const exampleResult = (file: ExampleFile) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogReader
    const sql = file.sql.trim().replace(/;\s*$/, "")
    const title = titleOf(file.sql, file.name)
    // an analysis that cannot run here (a view it reads is empty or missing) is shown with its error
    return yield* catalog.table(sql, `example ${file.name}`).pipe(
      Effect.map((t): ExampleResult => ({ name: file.name, title, columns: t.columns, rows: t.rows, error: null })),
      Effect.catchAll((e) => Effect.succeed<ExampleResult>({ name: file.name, title, columns: [], rows: [], error: e.detail }))
    )
  })

export const collectReport = (out: string, catalogFile: string, examples: ReadonlyArray<ExampleFile>, now: Date) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogReader
    const store = yield* CheckpointStore
    const checkpoints = yield* store.list()
    const reports = yield* readRuns(out)
    const metas = yield* datasetMeta
    const windowed = metas.filter((m) => m.windowed).map((m) => m.name)
    const views = new Set((yield* catalog.rows("SELECT view_name FROM duckdb_views() WHERE NOT internal", "the catalog's views")).map((r) => String(r["view_name"])))
    const figures: DatasetFigures[] = []
    const empty: string[] = []
    for (const declared of catalogEntries().filter((e) => views.has(e.name))) {
      const dataset = yield* Effect.tryPromise({ try: () => layoutOnDisk(out, declared), catch: readError(declared.name) })
      const files = yield* liveFileSet(out, dataset.name).pipe(Effect.mapError(readError(dataset.name)))
      const f = yield* datasetFigures({
        out,
        dataset,
        files,
        windowed: windowed.includes(dataset.name),
        snapshot: dataset.latest?.snapshotScope !== undefined,
        checkpoints: checkpoints.filter((c) => c.dataset === dataset.name)
      })
      if (f.rows === "0") empty.push(f.dataset)
      else figures.push(f)
    }
    const status = statusOf(
      checkpoints,
      reports,
      windowed,
      LAST_RUNS,
      // counted by the same count(*) of the views status runs, here from this report's catalog
      new Map([...figures.map((f) => [f.dataset, Number(f.rows)] as const), ...empty.map((e) => [e, 0] as const)])
    )
    const heights = yield* committedHeights(metas).pipe(
      Effect.provide(OutputReader.layerPreferringCatalog(out, Effect.sync(catalogEntries))),
      Effect.map((lines) =>
        lines.map((h) => ({ dataset: h.dataset, listing: Object.values(h.listing).join("/"), height: h.height, completeThrough: h.completeThrough, holes: h.holes, holeKeys: h.holeKeys }))
      )
    )
    const exampleResults = yield* Effect.forEach(examples, exampleResult)
    const built = yield* Effect.tryPromise({ try: () => fs.stat(catalogFile), catch: readError(catalogFile) })
    return {
      out,
      generatedAt: now.toISOString(),
      now: Math.floor(now.getTime() / 1000),
      catalogBuiltAt: built.mtime.toISOString(),
      datasets: figures,
      empty,
      listings: status.listings,
      slices: status.datasets,
      heights,
      runs: runFigures(reports, status.runs),
      failing: status.failures,
      examples: exampleResults
    } satisfies Report
  })
