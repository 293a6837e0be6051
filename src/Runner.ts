/**
 * One run, as a recipe:
 *  1. take the output folder's writer lock (a second run refuses);
 *  2. clear staging and the temporary files left by a killed run;
 *  3. for each selected dataset in registry order, crawl its slices (bounded concurrency);
 *  4. rebuild the DuckDB catalog atomically;
 *  5. write the run report; the caller maps it to an exit code (0 all done, 1 some slice failed).
 */
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import { datasets as registry } from "../pipelines/index.ts"
import { type CrawlOptions, type SliceResult, crawlSlice } from "./crawl/Crawler.ts"
import type { AnyDataset } from "./crawl/Dataset.ts"
import { writeFileAtomic } from "./crawl/Checkpoint.ts"
import type { Job } from "./Job.ts"
import { buildCatalog } from "./sink/Catalog.ts"
import { clearDeadTemps } from "./sink/Leftovers.ts"
import { acquireOutputLock } from "./sink/OutputLock.ts"
import { ParquetSink } from "./sink/ParquetSink.ts"
import { catalogEntries } from "./catalogEntries.ts"

export interface RunOptions {
  readonly out: string
  readonly job: Job
  /** Dataset names to run; empty = all. */
  readonly datasets: ReadonlyArray<string>
  readonly partRows: number
  readonly sliceConcurrency: number
  /** The run's "now" in Unix seconds, service time (default: the wall clock). */
  readonly asOf?: number
}

export interface RunReport {
  readonly runId: string
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly status: "running" | "succeeded" | "failed"
  readonly datasets: ReadonlyArray<string>
  readonly asOf: number | null
  readonly slices: ReadonlyArray<SliceResult>
  readonly catalog: string | null
}

export const newRunId = (now: Date): string =>
  `${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`

const reportPath = (out: string, runId: string) => path.join(out, "_runs", `${runId}.json`)

const saveReport = (out: string, report: RunReport) =>
  Effect.promise(() => writeFileAtomic(reportPath(out, report.runId), JSON.stringify(report, null, 2)))

/** Named datasets, else the job's list, else every dataset (legacy ones only when the job enables them). */
export const selectDatasets = (names: ReadonlyArray<string>, job: Job): ReadonlyArray<AnyDataset> => {
  const wanted = names.length > 0 ? names : job.datasets
  if (wanted !== undefined && wanted.length > 0) return registry.filter((d) => wanted.includes(d.name))
  return registry.filter((d) => d.legacy !== true || job.legacy.enabled)
}

export const run = (options: RunOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const started = new Date(yield* Clock.currentTimeMillis)
      const runId = newRunId(started)
      const selected = selectDatasets(options.datasets, options.job)
      // 1.
      yield* acquireOutputLock(options.out, runId)
      // 2.
      const sink = yield* ParquetSink
      yield* sink.clearStaging()
      yield* clearDeadTemps(options.out)
      let report: RunReport = {
        runId,
        startedAt: started.toISOString(),
        finishedAt: null,
        status: "running",
        datasets: selected.map((d) => d.name),
        asOf: options.asOf ?? null,
        slices: [],
        catalog: null
      }
      yield* saveReport(options.out, report)
      // 3.
      const asOf = options.asOf ?? Math.floor(started.getTime() / 1000)
      const runDate = new Date(asOf * 1000).toISOString().slice(0, 10)
      const crawl: CrawlOptions = { runId, asOf, ingestedAt: started, partRows: options.partRows }
      const results: SliceResult[] = []
      for (const dataset of selected) {
        const slices = dataset.slices(options.job, { asOf, runDate })
        const done = yield* Effect.forEach(slices, (slice) => crawlSlice(dataset, slice, crawl), {
          concurrency: options.sliceConcurrency
        })
        results.push(...done)
      }
      // 4.
      const catalog = (yield* buildCatalog(options.out, catalogEntries())).databasePath
      // 5.
      report = {
        ...report,
        finishedAt: new Date(yield* Clock.currentTimeMillis).toISOString(),
        status: results.some((r) => r.status === "failed") ? "failed" : "succeeded",
        slices: results,
        catalog
      }
      yield* saveReport(options.out, report)
      return report
    })
  )
