/**
 * `chainetl worker`: takes slices of distributed runs on one output (a shared folder, or this
 * worker's working copy of an s3:// prefix) from the queue and
 * crawls them with the same crawler a local run uses, `concurrency` at a time, until stopped.
 * For each job:
 *  1. hold the slice's lock and the output's shared lock (SliceLocks.ts); when a local run has the
 *     output or another worker still crawls the slice, hand the job back and take another; when
 *     the slice's last holder did not let go cleanly, wait out its fence (SliceFence.ts);
 *  2. pull the slice's files of an s3:// output (SlicePull.ts) and write the job's key budgets
 *     into the keys' shared rows; a slice this run already finished (its holder died after its
 *     last checkpoint, before reporting) is reported done without a request;
 *  3. crawl it, resuming from its checkpoint, renewing the lease and confirming the lock every
 *     third of the lease (from the moment the lock is held); a lease or lock lost stops the crawl
 *     (the slice's next holder resumes it from its checkpoint, and recovery removes whatever this
 *     one wrote past it);
 *  4. report the outcome to the queue; a run whose enqueuer is gone has its report closed as
 *     interrupted (OrphanedRun.ts).
 * Every checkpoint is saved on the slice lock's own session, and every file written within the
 * lock's fence (FencedSink.ts).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Schedule } from "effect"
import { datasets as registry } from "../../pipelines/index.ts"
import type { SourceSettings } from "../Config.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { crawlSlice } from "../crawl/Crawler.ts"
import { withGrain } from "../transform/Grain.ts"
import { CheckpointError } from "../Errors.ts"
import { notPlanned, type RunSlice } from "../Runner.ts"
import type { DistributedSettings } from "./Settings.ts"
import { KeyBuckets } from "../source/KeyBuckets.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { checkpointUpsert } from "../state/PgCheckpointStore.ts"
import { fencedSink } from "./FencedSink.ts"
import { holdSlice } from "./SliceLocks.ts"
import { closeIfOrphaned } from "./OrphanedRun.ts"
import { type Lease, SliceQueue } from "./SliceQueue.ts"

const URL_OF = { data: ["baseUrl", "CHAINETL_BASE_URL"], metrics: ["metricsUrl", "CHAINETL_METRICS_URL"], node: ["nodeUrl", "CHAINETL_NODE_URL"] } as const

const failedLine = (lease: Lease, error: string): RunSlice => ({
  ...notPlanned(lease.job.dataset, undefined),
  slice: lease.job.slice.id,
  params: lease.job.slice.params,
  error
})

/** A service this worker has no URL for: the slice fails saying so (another worker may have it). */
const missingService = (lease: Lease, settings: SourceSettings): string | undefined => {
  const missing = (registry.find((d) => d.name === lease.job.dataset)?.services ?? []).filter((s) => settings[URL_OF[s][0]] === "")
  return missing.length === 0 ? undefined : `worker has no ${missing.map((s) => URL_OF[s][1]).join(", ")}: set it on every worker`
}

export interface WorkerOptions {
  readonly out: string
  readonly concurrency: number
  readonly settings: SourceSettings
  readonly distributed: DistributedSettings
  readonly quiet: boolean
  /** What the output is called in its lines: the bucket's URL for an s3:// output (`out` is then this worker's copy). */
  readonly location?: string
}

// straight to stderr: the CLI holds its Console's error lines for its own one-line failures (main.ts)
const say = (quiet: boolean, line: string) => (quiet ? Effect.void : Effect.sync(() => void process.stderr.write(`worker ${process.pid}: ${line}\n`)))

export const workOne = (options: WorkerOptions, lease: Lease) =>
  Effect.scoped(
    Effect.gen(function* () {
      const queue = yield* SliceQueue
      const { job } = lease
      const name = `${job.dataset}/${job.slice.id}`
      const declared = registry.find((d) => d.name === job.dataset)
      if (declared === undefined) return yield* queue.complete(lease, failedLine(lease, `this worker does not know dataset ${job.dataset} (a different chainetl version?)`))
      const missing = missingService(lease, options.settings)
      if (missing !== undefined) return yield* queue.complete(lease, failedLine(lease, missing))
      // 1.
      const fenceMs = (queue.leaseSeconds * 1000) / 2
      const held = yield* holdSlice(options.out, job, fenceMs)
      if (held === "output busy" || held === "slice busy") {
        yield* say(options.quiet, `${name}: ${held === "output busy" ? "a local run holds the output" : "another worker still holds the slice"}, handed back`)
        return yield* queue.release(lease, held)
      }
      const stillOurs = Effect.zipWith(queue.renew(lease).pipe(Effect.orElseSucceed(() => false)), held.fence.confirm, (a, b) => a && b)
      const lost = stillOurs.pipe(
        Effect.repeat({ schedule: Schedule.spaced(Duration.millis((queue.leaseSeconds * 1000) / 3)), while: (ok) => ok }),
        Effect.as(undefined)
      )
      const startedAt = yield* Clock.currentTimeMillis
      const work = Effect.gen(function* () {
        // a holder that did not let go cleanly may write until its fence ends: nothing is read before
        if (held.waitMs > 0) {
          yield* say(options.quiet, `${name}: its last holder did not let go cleanly; waiting ${(held.waitMs / 1000).toFixed(1)} s for its last writes to be over`)
          yield* Effect.sleep(Duration.millis(held.waitMs))
        }
        // 2. an s3:// output: this worker's copy gets the slice's parts as the bucket has them (a
        // worker that held it before may have published parts past its checkpoint): recovery then
        // sees them and deletes their objects too. The job's key budgets go into the keys' rows.
        const tables = [job.dataset, ...(declared.children ?? []).map((c) => c.name), rejectsDataset.name]
        yield* (yield* OutputStore).pullSlice(tables, job.slice.id)
        if (job.keyBudgets !== undefined && job.keyBudgets.length > 0) yield* (yield* KeyBuckets).apply(job.keyBudgets)
        const store = yield* CheckpointStore
        const loaded = yield* store.load(job.slice).pipe(Effect.orElseSucceed(() => undefined))
        if (loaded?.status === "done" && loaded.runId === job.runId) {
          return { ...notPlanned(job.dataset, undefined), slice: job.slice.id, params: job.slice.params, status: "done" as const, already: true }
        }
        // the checkpoint lands only on the lock's own session; the files only within its fence
        const fencedStore: CheckpointStore["Type"] = {
          ...store,
          save: (state) =>
            held.execute(...checkpointUpsert(job.outputId, state)).pipe(
              Effect.mapError(
                (e) => new CheckpointError({ reason: "Io", slice: state.slice, detail: `not saved on the slice lock's PostgreSQL session (${e.message}): this worker may have lost the slice, whose next holder resumes it` })
              )
            )
        }
        // 3.
        if (lease.generation > 0) yield* say(options.quiet, `${name}: taken over (hold ${lease.generation + 1}), resuming from its checkpoint`)
        const result = yield* crawlSlice(withGrain(declared, job.grain), job.slice, {
          runId: job.runId,
          asOf: job.asOf,
          ingestedAt: new Date(job.ingestedAt),
          partRows: job.partRows,
          ...(job.partBytes === undefined ? {} : { partBytes: job.partBytes })
        }).pipe(Effect.provideService(CheckpointStore, fencedStore), Effect.provideService(ParquetSink, fencedSink(yield* ParquetSink, held.fence)))
        return { ...result, already: false }
      })
      const raced = yield* Effect.race(work, Effect.delay(lost, Duration.millis((queue.leaseSeconds * 1000) / 3))).pipe(
        // a worker told to stop (SIGTERM, Ctrl-C) hands its slices back at once rather than at lease end
        Effect.onInterrupt(() => queue.release(lease, "worker stopped").pipe(Effect.ignore))
      )
      if (raced === undefined) {
        return yield* say(options.quiet, `${name}: lease or lock lost after ${((Date.now() - startedAt) / 1000).toFixed(1)} s, stopped; its next holder resumes it`)
      }
      // 4.
      const { already, ...result } = raced
      yield* queue.complete(lease, result)
      // the run's enqueuer gone (killed), its report would say running until the next run
      const closed = yield* closeIfOrphaned(options.out, job).pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<string>))
      if (closed.length > 0) yield* say(options.quiet, `run ${job.runId} closed as interrupted: its enqueuer is gone`)
      yield* say(
        options.quiet,
        already
          ? `${name}: already finished by this run`
          : `${name}: ${result.status} (${result.pages} pages, ${result.rows} rows, ${result.requests} requests) in ${(result.durationMs / 1000).toFixed(1)} s${result.error === undefined ? "" : `: ${result.error}`}`
      )
    })
  )

/** One slot: take a job (polling while none waits), work it, again, forever. */
const slot = (options: WorkerOptions) =>
  Effect.gen(function* () {
    const queue = yield* SliceQueue
    const next = queue.take.pipe(
      Effect.filterOrFail((l): l is Lease => l !== undefined, () => "idle" as const),
      // the database away a moment is waited out like an empty queue, and said
      Effect.tapError((e) => (e === "idle" ? Effect.void : say(false, e.message))),
      Effect.retry(Schedule.spaced(Duration.millis(options.distributed.pollMs)))
    )
    for (;;) {
      const lease = yield* next
      // a failure of one job (the database gone a moment) costs that job's lease, not the worker
      yield* workOne(options, lease).pipe(Effect.catchAll((e) => say(false, `${lease.job.dataset}/${lease.job.slice.id}: ${e.message}; the job goes back to the queue when its lease ends`)))
    }
  })

/** Resolves on SIGTERM or SIGINT: the worker stops, its slices unlocked and handed back. */
const stopSignal = Effect.async<void>((resume) => {
  const stop = () => resume(Effect.void)
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
  return Effect.sync(() => {
    process.off("SIGTERM", stop)
    process.off("SIGINT", stop)
  })
})

export const runWorker = (options: WorkerOptions) =>
  Effect.gen(function* () {
    yield* SqlClient.SqlClient
    yield* say(options.quiet, `serving ${options.location ?? options.out}, ${options.concurrency} slice(s) at a time, lease ${options.distributed.leaseSeconds} s`)
    const slots = Effect.all(Array.from({ length: options.concurrency }, () => slot(options)), { concurrency: "unbounded", discard: true })
    yield* Effect.raceFirst(slots, stopSignal)
    yield* say(options.quiet, "stopped")
  })
