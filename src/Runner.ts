/**
 * One run (nightly or backfill), as a recipe:
 *  1. take the output folder's writer lock (a second run refuses);
 *  2. clear staging and the temporary files left by a killed run;
 *  3. plan every selected dataset's slices from the job, the as-of and the checkpoints on disk
 *     (windowed datasets plan around the windows they hold; a backfill asks for its range);
 *  4. crawl the selected datasets' slices side by side from one pool (bounded concurrency, one
 *     shared limiter per host; a dataset that reads another's output starts once that one is
 *     over: CrawlPlan.ts), here or, in a distributed run, by workers (SliceExecution.ts: steps 1
 *     and 4 are the only ones that differ);
 *  5. compact partitions past the threshold (unless `compact` is off): merged files and manifests
 *     committed, the files they replace still in place;
 *  6. rebuild the DuckDB catalog atomically, then delete what compaction replaced (no view reads it);
 *  7. write the run report; the caller maps it to an exit code (0 all done, 1 some slice failed).
 */
import { Clock, Effect, Either, Option } from "effect"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import { datasets as registry } from "../pipelines/index.ts"
import { withGrain } from "./transform/Grain.ts"
import { type CrawlOptions, type SliceResult, crawlSlice } from "./crawl/Crawler.ts"
import { makeRunStop } from "./crawl/RunStop.ts"
import type { AnyDataset, Backfill, SourceClients } from "./crawl/Dataset.ts"
import type { CommittedKeys } from "./crawl/CommittedKeys.ts"
import { CheckpointStore } from "./crawl/Checkpoint.ts"
import { replaceFile } from "./files/Durable.ts"
import { emit } from "./crawl/Progress.ts"
import type { Slice } from "./crawl/Slice.ts"
import { SourceStats, type StatsSnapshot } from "./source/SourceStats.ts"
import { KeyLimiter, type KeyReport } from "./source/KeyLimiter.ts"
import type { Job } from "./Job.ts"
import { buildCatalog } from "./sink/Catalog.ts"
import { clearDeadTemps } from "./sink/Leftovers.ts"
import { WriterLock } from "./sink/WriterLock.ts"
import { refuseLinks } from "./sink/NoLinks.ts"
import { ParquetSink } from "./sink/ParquetSink.ts"
import { OutputStore } from "./store/OutputStore.ts"
import { catalogEntries } from "./catalogEntries.ts"
import { type CheckpointError, SinkError } from "./Errors.ts"
import { refetchDeleted } from "./crawl/Refetch.ts"
import { makeSliceGate } from "./SliceGate.ts"
import { type RunPace, withCrawlPace } from "./CrawlPace.ts"
import { crawlPlan } from "./CrawlPlan.ts"
import { openedSlices } from "./OpenedSlices.ts"
import { cutBackfill } from "./crawl/SplitListings.ts"
import { ProbedPages } from "./crawl/ProbedPages.ts"
import type { PlannedDataset, SliceExecution, SliceRun, TookOver } from "./SliceExecution.ts"
import { closeInterrupted } from "./InterruptedRuns.ts"
import { type CompactionReport, finishCompaction, recoverCompaction } from "./compact/Compaction.ts"
import { compactDatasets, compactionTables } from "./CompactionPolicy.ts"
import { type CompactSettings, DEFAULT_SETTINGS } from "./compact/Compactor.ts"

export interface RunOptions {
  readonly out: string
  readonly job: Job
  /** Dataset names to run; empty = all. */
  readonly datasets: ReadonlyArray<string>
  readonly partRows: number
  /** Staged bytes before a part is written (absent: src/crawl/PartSize.ts's default). */
  readonly partBytes?: number
  readonly sliceConcurrency: number
  /** The run's "now" in Unix seconds, service time (default: the wall clock). */
  readonly asOf?: number
  /** Set by `chainetl backfill`: the range every selected dataset is planned over instead of its nightly one. */
  readonly backfill?: Backfill
  /** Compaction after the crawl (`--no-compact`: undefined); minFiles is the nightly threshold. */
  readonly compact?: CompactSettings
  /**
   * A backfill of time windows cuts its long listings before the crawl (src/crawl/SplitListings.ts)
   * at this rate (requests/s the run is allowed); absent: windows are crawled as planned.
   */
  readonly cutListings?: { readonly rate: number; readonly minSeconds?: number }
}

/** Nightly: a partition is compacted once it holds this many small files compaction may merge. */
export const NIGHTLY_COMPACT: CompactSettings = { ...DEFAULT_SETTINGS, minFiles: 8 }

export interface RunReport {
  readonly runId: string
  readonly startedAt: string
  readonly finishedAt: string | null
  /** `interrupted`: its process died before it finished; set by the next run that held the output (InterruptedRuns.ts). */
  readonly status: "running" | "succeeded" | "failed" | "interrupted"
  readonly mode: "run" | "backfill"
  readonly backfill: Backfill | null
  readonly datasets: ReadonlyArray<string>
  readonly asOf: number | null
  /** Slices planned (final windows are not planned at all; final slices of other datasets are, and report "skipped"). */
  readonly planned: number
  readonly slices: ReadonlyArray<RunSlice>
  /** Per host: requests, retries, 429s, bytes, time waiting on the limiter and on Retry-After. */
  readonly hosts: StatsSnapshot
  /**
   * Per API key of the chain-data service, by name (never the secret): its budget, requests,
   * 429s, time waited for its tokens, and why the service refused it when it did (the key was
   * then not used again this run). Empty without keys.
   */
  readonly keys: ReadonlyArray<KeyReport>
  readonly catalog: string | null
  /** Tables compacted after the crawl: folders, files merged and written. */
  readonly compaction: CompactionReport["tables"]
  /** Why the run failed besides its slices (the catalog could not be rebuilt). */
  readonly error: string | null
  /** The run this one took over, its process dead (a distributed run started again after a kill). */
  readonly tookOver?: TookOver
  /** The crawl's pace: its share of the allowance and what held it back (a local run; CrawlPace.ts). */
  readonly pace?: RunPace
}

/**
 * A slice's outcome in the report. `replacing`: the slice was written again whole (a replacing
 * listing: chain_metrics' open month, avg_tps) and its rows took the place of a previous complete
 * version on disk; absent when its rows are new to the output.
 */
export type RunSlice = SliceResult & { readonly replacing?: true }

export const newRunId = (now: Date): string =>
  `${now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`

const reportPath = (out: string, runId: string) => path.join(out, "_runs", `${runId}.json`)

const saveReport = (out: string, report: RunReport) =>
  Effect.tryPromise({
    try: () => replaceFile(reportPath(out, report.runId), JSON.stringify(report, null, 2)),
    catch: (e) => new SinkError({ reason: "Io", path: reportPath(out, report.runId), detail: e instanceof Error ? e.message : String(e) })
  })

/** Named datasets, else the job's list, else every dataset (legacy ones only when the job enables them). */
export const selectDatasets = (names: ReadonlyArray<string>, job: Job): ReadonlyArray<AnyDataset> => {
  const wanted = names.length > 0 ? names : job.datasets
  const chosen =
    wanted !== undefined && wanted.length > 0
      ? registry.filter((d) => wanted.includes(d.name))
      : registry.filter((d) => d.legacy !== true || job.legacy.enabled)
  // each at the grain it is written at: its own, or the job's partitionGrain
  return chosen.map((d) => withGrain(d, job.partitionGrain[d.name]))
}

/**
 * The slices of each dataset for this run: pure given the job, the as-of and the checkpoints. A
 * dataset planned from its checkpoints (windows, heights) that holds a broken one is not planned:
 * which range that slice covered is unknown, so new windows could overlap its parts. It carries
 * the error instead (the file and the fix); the other datasets are planned as usual.
 */
export const planRun = (datasets: ReadonlyArray<AnyDataset>, job: Job, asOf: number, backfill?: Backfill) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    const runDate = new Date(asOf * 1000).toISOString().slice(0, 10)
    const plan: PlannedDataset[] = []
    for (const dataset of datasets) {
      const listed = dataset.windows === undefined && dataset.backfill !== "height" ? undefined : yield* Effect.either(store.list(dataset.name))
      if (listed !== undefined && Either.isLeft(listed)) {
        if (listed.left.reason !== "Corrupt") return yield* Effect.fail(listed.left)
        plan.push({ dataset, slices: [], error: listed.left })
        continue
      }
      const checkpoints = listed?.right
      const slices = dataset.slices(job, {
        asOf,
        runDate,
        ...(checkpoints === undefined ? {} : { checkpoints }),
        ...(backfill === undefined ? {} : { backfill })
      })
      plan.push({ dataset, slices, ...(checkpoints === undefined ? {} : { checkpointed: new Set(checkpoints.map((c) => c.slice)) }) })
    }
    return plan
  })

export const notRun = (slice: Slice): SliceResult => ({ ...notPlanned(slice.dataset, undefined), slice: slice.id, params: slice.params, status: "not_run" })

/** The failed line of a dataset that could not be planned (its checkpoint is broken). */
export const notPlanned = (dataset: string, error: CheckpointError | SinkError | undefined): SliceResult => ({
  dataset,
  slice: error?._tag === "CheckpointError" ? error.slice : "*",
  params: {},
  status: "failed",
  pages: 0,
  rows: 0,
  rejects: 0,
  restarts: 0,
  duplicates: 0,
  parts: 0,
  unknownFields: {},
  requests: 0,
  retries: 0,
  rateLimited: 0,
  bytes: 0,
  waitMs: 0,
  durationMs: 0,
  ...(error === undefined ? {} : { error: `${dataset} not planned: ${error.message}` })
})

/**
 * Steps 2–3 of a run, once its writer lock is held: leftovers cleared, slices planned. `shared`:
 * workers still write (a distributed run joined theirs), so nothing they may be writing is cleared.
 */
const prepareRun = (options: RunOptions, started: Date, shared: boolean) =>
  Effect.gen(function* () {
    const selected = selectDatasets(options.datasets, options.job)
    // an s3:// output: the working copy is made equal to the bucket once the lock is held, so
    // that nothing another writer committed before is missed (a folder's store does nothing)
    const outputStore = yield* Effect.serviceOption(OutputStore)
    if (Option.isSome(outputStore)) yield* outputStore.value.pull
    // 2.
    if (!shared) {
      const sink = yield* ParquetSink
      yield* sink.clearStaging()
      yield* clearDeadTemps(options.out)
      // what a killed compaction left (every table: a killed run may have compacted any of them)
      const tables = compactionTables(registry)
      yield* recoverCompaction(options.out, tables.map((t) => t.name), buildCatalog(options.out, catalogEntries()))
    }
    const asOf = options.asOf ?? Math.floor(started.getTime() / 1000)
    // slices whose broken checkpoint was deleted lose their parts first: they are fetched again
    const unprepared = new Map<string, SinkError>()
    for (const dataset of shared ? [] : selected) {
      const cleared = yield* Effect.either(refetchDeleted(options.out, dataset))
      if (Either.isLeft(cleared)) unprepared.set(dataset.name, cleared.left)
    }
    // 3.
    const planned = (yield* planRun(selected, options.job, asOf, options.backfill)).map((p) => {
      const error = unprepared.get(p.dataset.name) ?? p.error
      return error === undefined ? p : { ...p, slices: [], error }
    })
    // a run that joins workers' jobs (shared) leaves its windows as they are: a window queued
    // before may have no checkpoint yet, and its pieces would overlap the job crawling it whole
    const cuts = options.cutListings !== undefined && options.backfill?.unit === "time" && !shared
    // the probes' first pages, kept for the slices crawled whole (crawl/ProbedPages.ts)
    const probed = cuts ? new ProbedPages() : undefined
    const plan = cuts ? yield* cutBackfill(planned, options.cutListings!.rate, options.cutListings!.minSeconds, probed) : planned
    return { selected, asOf, plan, probed }
  })

/** The report a run writes when it starts (status running, no slice yet). */
export const startReport = (options: RunOptions, runId: string, started: Date, selected: ReadonlyArray<AnyDataset>, asOf: number, planned: number, tookOver?: TookOver): RunReport => ({
  runId,
  startedAt: started.toISOString(),
  finishedAt: null,
  status: "running",
  mode: options.backfill === undefined ? "run" : "backfill",
  backfill: options.backfill ?? null,
  datasets: selected.map((d) => d.name),
  asOf,
  planned,
  slices: [],
  hosts: {},
  keys: [],
  catalog: null,
  compaction: [],
  error: null,
  ...(tookOver === undefined ? {} : { tookOver })
})

/** A report that cannot be written (a full disk) must not stop the run: the slices say more. */
const saveStartReport = (out: string, report: RunReport) =>
  Effect.gen(function* () {
    const outputStore = yield* Effect.serviceOption(OutputStore)
    yield* saveReport(out, report).pipe(
      // a bucket gets the report at once too, so that a killed run's shows there as it does in a folder
      Effect.zipRight(Option.isNone(outputStore) ? Effect.void : outputStore.value.publish([reportPath(out, report.runId)])),
      Effect.catchAll((e) => Effect.logWarning(`run report not written at start: ${e.message}`))
    )
  })

/**
 * The slices of a replacing dataset that have a complete version on disk (keepFromSeq set when
 * they finished): read before they are crawled, so their new version is reported `replacing`.
 * (A broken checkpoint among them is its own slice's failure, not the run's: read as none.)
 */
const replacingBefore = (dataset: AnyDataset) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    const listed = dataset.rerun === "replace" ? yield* store.list(dataset.name).pipe(Effect.orElseSucceed(() => [])) : []
    return new Set(listed.filter((c) => c.keepFromSeq !== null).map((c) => c.slice))
  })

const markReplacing = (previous: ReadonlySet<string>, done: ReadonlyArray<SliceResult>): ReadonlyArray<RunSlice> =>
  done.map((r): RunSlice => (r.status === "done" && previous.has(r.slice) ? { ...r, replacing: true } : r))

/** Steps 5–7, once every slice has its outcome: compaction, the catalog, the final report. */
const finishRun = (options: RunOptions, selected: ReadonlyArray<AnyDataset>, started: Date, begun: RunReport, results: ReadonlyArray<RunSlice>, stoppedBy: SliceResult | undefined) =>
  Effect.gen(function* () {
    // 5. compaction failing (a full disk) leaves the parts as they were: the run reports it
    const compaction = options.compact === undefined
      ? Either.right<CompactionReport>({ tables: [], garbage: [] })
      : yield* Effect.either(compactDatasets(options.out, selected, options.compact))
    // 6. a catalog that cannot be rebuilt fails the run, but the report still says so; what
    // compaction replaced goes only once a catalog that does not read it is in place
    const catalog = yield* Effect.either(buildCatalog(options.out, catalogEntries()))
    const finished_ = Either.isRight(catalog) && Either.isRight(compaction) ? yield* Effect.either(finishCompaction(compaction.right)) : Either.right(undefined)
    const notRunCount = results.filter((r) => r.status === "not_run").length
    const errors = [
      stoppedBy === undefined ? null : `stopped: ${stoppedBy.error ?? "a service refused the credentials"}; ${notRunCount} slice(s) not run`,
      Either.isLeft(catalog) ? `catalog not rebuilt: ${catalog.left.message}` : null,
      Either.isLeft(compaction) ? `compaction failed: ${compaction.left.message}` : null,
      Either.isLeft(finished_) ? `compaction not finished: ${finished_.left.message}` : null
    ].filter((e): e is string => e !== null)
    // the bucket gets what compaction and the catalog made (parts were published as committed)
    const outputStore = Option.getOrUndefined(yield* Effect.serviceOption(OutputStore))
    const pushed = outputStore === undefined ? Either.right(undefined) : yield* Effect.either(outputStore.push)
    if (Either.isLeft(pushed)) errors.push(`bucket not updated: ${pushed.left.message}`)
    // 7.
    const stats = yield* Effect.serviceOption(SourceStats)
    const keyLimiter = yield* Effect.serviceOption(KeyLimiter)
    const finished = yield* Clock.currentTimeMillis
    let report: RunReport = {
      ...begun,
      finishedAt: new Date(finished).toISOString(),
      status: results.some((r) => r.status === "failed") || errors.length > 0 ? "failed" : "succeeded",
      slices: results,
      hosts: Option.isSome(stats) ? yield* stats.value.snapshot : {},
      keys: Option.isSome(keyLimiter) ? yield* keyLimiter.value.report : [],
      catalog: Either.isRight(catalog) ? catalog.right.databasePath : null,
      compaction: Either.isRight(compaction) ? compaction.right.tables : [],
      error: errors.length === 0 ? null : errors.join("; ")
    }
    const saved = yield* Effect.either(
      Effect.zipRight(saveReport(options.out, report), outputStore === undefined || Either.isLeft(pushed) ? Effect.void : outputStore.push)
    )
    if (Either.isLeft(saved)) {
      report = { ...report, status: "failed", error: [report.error, `run report not written: ${saved.left.message}`].filter((e) => e !== null).join("; ") }
    }
    yield* emit({ type: "run_finished", at: finished, runId: report.runId, status: report.status === "failed" ? "failed" : "succeeded", durationMs: finished - started.getTime() })
    return report
  })

/** Nothing is written through a link planted in the output, the lock included. */
const refuseOutputLinks = (options: RunOptions) =>
  refuseLinks(
    options.out,
    compactionTables(registry).map((t) => t.name),
    compactionTables(selectDatasets(options.datasets, options.job)).map((t) => t.name)
  )

/**
 * Steps 1 and 4 in this process: the writer lock, then every dataset's slices crawled here from
 * one pool, as many at a time as keep the hosts busy, at most `sliceConcurrency` (SliceGate.ts,
 * CrawlPlan.ts). Once a slice stops the run, no slice starts (RunStop.ts).
 */
export const localSlices = (sliceConcurrency: number): SliceExecution<SinkError, WriterLock | SourceClients | ParquetSink | CheckpointStore | CommittedKeys> => ({
  hold: (out, runId) =>
    Effect.gen(function* () {
      yield* (yield* WriterLock).acquire(out, runId)
      const crawl = (run: SliceRun) =>
        Effect.gen(function* () {
          const stop = yield* makeRunStop
          // slices at once follow the hosts' round trips and rates, --concurrency the cap (SliceGate.ts)
          const gate = yield* makeSliceGate(sliceConcurrency)
          // new slices' running states journaled a group at a time (OpenedSlices.ts)
          const opened = yield* openedSlices(run.plan, run.runId)
          // the probed pages of slices the plan no longer holds (cut windows) go before the crawl
          run.probed?.keepOnly(run.plan)
          const crawl: CrawlOptions = { runId: run.runId, asOf: run.asOf, ingestedAt: run.started, partRows: run.partRows, ...(run.partBytes === undefined ? {} : { partBytes: run.partBytes }), ...(run.probed === undefined ? {} : { probed: run.probed }) }
          // every dataset's slices from one pool, a reader of another's output after it (CrawlPlan.ts)
          const crawlAll = Effect.gen(function* () {
            const started = (dataset: AnyDataset, slice: Slice) =>
              opened.start(dataset, slice, crawlSlice(dataset, slice, crawl), (error): SliceResult => ({ ...notRun(slice), status: "failed", error }))
            const crawled = (dataset: AnyDataset, slice: Slice) => Effect.map(stop.unlessStopped(started(dataset, slice)), (r) => r ?? notRun(slice))
            const results = yield* crawlPlan(run.plan, crawled, gate, sliceConcurrency)
            return { results, stoppedBy: yield* stop.stoppedBy }
          })
          // its wall time, CPU, share of the allowance and what held it back (CrawlPace.ts)
          return yield* withCrawlPace(Effect.ensuring(crawlAll, opened.settle), gate.peak)
        }).pipe(Effect.scoped)
      return { crawl, shared: false }
    })
})

/** A run whose slices are crawled by `execution`; the rest of the recipe is this module's. */
export const runWith = <E, R>(options: RunOptions, execution: SliceExecution<E, R>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const started = new Date(yield* Clock.currentTimeMillis)
      const runId = newRunId(started)
      // 1.
      yield* refuseOutputLinks(options)
      const held = yield* execution.hold(options.out, runId)
      const { selected, asOf, plan, probed } = yield* prepareRun(options, started, held.shared)
      // the output is this run's: a report still `running` is a dead run's
      yield* closeInterrupted(options.out, runId, held.tookOver)
      const planned = plan.reduce((n, p) => n + p.slices.length, 0)
      const report = startReport(options, runId, started, selected, asOf, planned, held.tookOver)
      yield* saveStartReport(options.out, report)
      yield* emit({ type: "run_started", at: started.getTime(), runId, mode: report.mode, datasets: report.datasets, slices: planned })
      // 4.
      const previous: Array<ReadonlySet<string>> = []
      for (const { dataset } of plan) previous.push(yield* replacingBefore(dataset))
      const crawled = yield* held.crawl({ runId, asOf, started, partRows: options.partRows, ...(options.partBytes === undefined ? {} : { partBytes: options.partBytes }), plan, ...(probed === undefined ? {} : { probed }) })
      const results = plan.flatMap(({ dataset, error }, i): RunSlice[] => [
        ...(error === undefined ? [] : [notPlanned(dataset.name, error)]),
        ...markReplacing(previous[i]!, crawled.results[i] ?? [])
      ])
      return yield* finishRun(options, selected, started, crawled.pace === undefined ? report : { ...report, pace: crawled.pace }, results, crawled.stoppedBy)
    })
  )

/** A run in this process (`chainetl run`, `backfill`). */
export const run = (options: RunOptions) => runWith(options, localSlices(options.sliceConcurrency))
