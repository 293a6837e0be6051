/**
 * `chainetl run --distributed` and `backfill --distributed`: the run of Runner.ts with its slices
 * crawled by `chainetl worker` processes through the queue (`queuedSlices`, a SliceExecution).
 * Steps 2–3 and 5–7 are the local run's; this does:
 *  1. hold the output (one distributed run at a time; the writer lock exclusive, as a local run),
 *     taking over a run whose enqueuer died (RunHold.ts: at once, or after its lease) and joining
 *     its workers if they still crawl;
 *  4. let the workers in (the writer lock shared), enqueue one job per slice (its key fixed by
 *     output, dataset and slice: enqueueing again joins the jobs already queued), every dataset's
 *     together but a dataset that reads another's output after that one's (a later stage,
 *     src/pace/Order.ts), and wait for every job to finish, reporting slices as workers finish
 *     them; then take the writer lock exclusive again (no worker writes), pull the bucket (an
 *     s3:// output: the workers' parts are there, not in this working copy) and clear what
 *     killed workers staged, so that compaction, the catalog and the run report (the
 *     enqueuer's, since it alone knows when all are done) see every part.
 * A 401/403 reported by a worker stops the run as locally: the jobs still waiting are withdrawn,
 * and no later stage is enqueued.
 */
import type { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schedule } from "effect"
import { SourceConfig } from "../Config.ts"
import type { ApiKey } from "../ApiKeys.ts"
import type { KeyBudgetOf } from "../source/KeyBuckets.ts"
import { SourceStats } from "../source/SourceStats.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { emit } from "../crawl/Progress.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { ensureOutputId } from "../state/OutputId.ts"
import type { SliceResult } from "../crawl/SliceResult.ts"
import { type RunOptions, notPlanned, notRun, runWith } from "../Runner.ts"
import type { SliceExecution, SliceRun, TookOver } from "../SliceExecution.ts"
import type { SinkError } from "../Errors.ts"
import type { DistributedSettings } from "./Settings.ts"
import { type JobOutcome, type QueueError, SliceQueue } from "./SliceQueue.ts"
import { jobId, type SliceJob } from "./SliceJob.ts"
import { holdRun } from "./RunHold.ts"
import { stagesOf } from "../pace/Order.ts"

/**
 * Steps 1 and 4 through the queue (SliceExecution.ts): the output held in PostgreSQL, shared with
 * the workers while they crawl, and each planned slice a job some worker crawls.
 */
export const queuedSlices = (
  options: RunOptions,
  settings: DistributedSettings
): SliceExecution<SinkError | QueueError, SqlClient.SqlClient | SourceConfig | ParquetSink | SliceQueue> => ({
  hold: (out, runId) =>
    Effect.gen(function* () {
      // 1.
      const outputId = yield* ensureOutputId(out)
      const hold = yield* holdRun(out, outputId, runId, settings.leaseSeconds)
      if (hold.tookOver !== undefined) yield* say(tookOverLine(hold.tookOver, hold.joined))
      const crawl = (run: SliceRun) =>
        Effect.gen(function* () {
          // the backfill's probed first pages stay in this process: workers ask their own
          run.probed?.keepOnly([])
          // 4. the job's key budgets travel with each job (workers read no job file); the rows
          // already have them, written when this process's layers were built
          const keyBudgets = jobKeyBudgets(options, (yield* SourceConfig).apiKeys)
          // a dataset that reads another's output is enqueued once that one's jobs are over (a
          // worker would otherwise take it beside them and miss what they commit this run)
          const stages = stagesOf(run.plan.map((p) => p.dataset))
          const jobs = run.plan.flatMap(({ dataset, slices }, d) =>
            slices.map((slice) => {
              const job: SliceJob = {
                outputId,
                runId,
                dataset: dataset.name,
                grain: dataset.grain,
                slice,
                asOf: run.asOf,
                ingestedAt: run.started.toISOString(),
                partRows: run.partRows,
                ...(run.partBytes === undefined ? {} : { partBytes: run.partBytes }),
                ...(keyBudgets.length === 0 ? {} : { keyBudgets })
              }
              return { id: jobId(outputId, dataset.name, slice.id), job, stage: stages[d]! }
            })
          )
          // workers in first: a job taken while the output is still exclusive would only be handed back
          yield* hold.share
          const { outcomes, stopped } = yield* enqueueInStages(jobs, settings, (joined, of) =>
            say(`joined ${joined} job(s) still queued or running${hold.tookOver === undefined ? "" : ` of run ${hold.tookOver.runId}`}; ${of - joined} queued anew`)
          )
          // back to exclusive before steps 5–7 (no worker writes)
          yield* hold.exclusive(2 * settings.leaseSeconds + 30)
          // an s3:// output: the workers published their parts to the bucket, not to this copy; it is
          // made equal to the bucket before compaction and the catalog read it (a folder: nothing)
          const outputStore = yield* Effect.serviceOption(OutputStore)
          if (Option.isSome(outputStore)) yield* outputStore.value.pull
          // no worker writes now: what killed workers left staged can go
          yield* (yield* ParquetSink).clearStaging()
          const results = run.plan.map(({ dataset, slices }) =>
            slices.map((slice): SliceResult => {
              const outcome = outcomes.get(jobId(outputId, dataset.name, slice.id))
              if (outcome?.result !== undefined) return outcome.result
              // withdrawn, or of a stage not enqueued once the run stopped
              if ((outcome?.state === "failed" && outcome.error === WITHDRAWN) || (outcome === undefined && stopped)) return notRun(slice)
              return { ...notPlanned(dataset.name, undefined), slice: slice.id, params: slice.params, error: `job queue gave the slice up: ${outcome?.error ?? "no outcome"}` }
            })
          )
          // the requests were the workers': their slices' counters, summed under one entry
          const stats = yield* Effect.serviceOption(SourceStats)
          if (Option.isSome(stats)) {
            for (const r of results.flat()) {
              yield* stats.value.add(WORKERS_HOST, { requests: r.requests, retries: r.retries, rateLimited: r.rateLimited, bytesReceived: r.bytes, limiterWaitMs: r.waitMs })
            }
          }
          return { results, stoppedBy: results.flat().find((r) => r.stopsRun === true) }
        })
      return { crawl, shared: hold.joined, ...(hold.tookOver === undefined ? {} : { tookOver: hold.tookOver }) }
    })
})

// said whatever the progress mode: a takeover is a decision the operator must be able to read in the log
const say = (line: string) => Effect.sync(() => void process.stderr.write(`chainetl: ${line}\n`))

const tookOverLine = (t: TookOver, joined: boolean) =>
  `took over run ${t.runId} (pid ${t.pid} on ${t.hostname}) ${t.when}: ${t.why}` +
  (joined ? "; its workers are still crawling: joining them (leftovers are cleared once they finish)" : "")

/** `chainetl run --distributed` and `backfill --distributed`. */
export const runDistributed = (options: RunOptions, settings: DistributedSettings) => runWith(options, queuedSlices(options, settings))

/** The keys the job gives a budget (`apiKeys`), as they travel in a job: by digest, never the secret. */
const jobKeyBudgets = (options: RunOptions, keys: ReadonlyArray<ApiKey>): ReadonlyArray<KeyBudgetOf> => {
  const named = new Set(Object.keys(options.job.apiKeys ?? {}))
  return keys.filter((k) => named.has(k.name)).map((k) => ({ id: k.id, name: k.name, rate: k.rate, burst: k.burst }))
}

/** The run report's `hosts` entry of a distributed run (its waits: limiter and Retry-After together). */
export const WORKERS_HOST = "workers"

const WITHDRAWN = "withdrawn: the run stopped"

/**
 * Each stage's jobs enqueued once the stage before is over, and waited for; a stage whose jobs
 * stopped the run (refused credentials) is the last enqueued. `joined`: told how many of a
 * stage's jobs were already queued or running.
 */
export const enqueueInStages = <E>(
  jobs: ReadonlyArray<{ readonly id: string; readonly job: SliceJob; readonly stage: number }>,
  settings: Pick<DistributedSettings, "pollMs">,
  joined: (joined: number, of: number) => Effect.Effect<void, E>
) =>
  Effect.gen(function* () {
    const queue = yield* SliceQueue
    const outcomes = new Map<string, JobOutcome>()
    let stopped = false
    for (const stage of [...new Set(jobs.map((j) => j.stage))].sort((a, b) => a - b)) {
      if (stopped) break
      const these = jobs.filter((j) => j.stage === stage)
      const n = yield* queue.enqueue(these)
      if (n > 0) yield* joined(n, these.length)
      for (const [id, o] of yield* waitForJobs(these.map((j) => j.job), these.map((j) => j.id), settings)) {
        outcomes.set(id, o)
        if (o.result?.stopsRun === true) stopped = true
      }
    }
    return { outcomes, stopped }
  })

/** Polls the jobs until each has finished; slices are reported (progress events) as they finish. */
const waitForJobs = (jobs: ReadonlyArray<SliceJob>, ids: ReadonlyArray<string>, settings: Pick<DistributedSettings, "pollMs">) =>
  Effect.gen(function* () {
    const queue = yield* SliceQueue
    const byId = new Map(ids.map((id, i) => [id, jobs[i]!]))
    const seen = new Map<string, JobOutcome["state"]>()
    const finished = new Map<string, JobOutcome>()
    let withdrawn = false
    const poll = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      for (const o of yield* queue.outcomes(ids)) {
        const job = byId.get(o.id)
        if (job === undefined || finished.has(o.id)) continue
        if (o.state === "running" && seen.get(o.id) !== "running") {
          yield* emit({ type: "slice_started", at: now, dataset: job.dataset, slice: job.slice.id, params: job.slice.params })
        }
        seen.set(o.id, o.state)
        if (o.state !== "done" && o.state !== "failed") continue
        finished.set(o.id, withdrawn && o.state === "failed" ? { ...o, error: WITHDRAWN } : o)
        const r = o.result
        yield* emit({
          type: "slice_finished",
          at: now,
          dataset: job.dataset,
          slice: job.slice.id,
          status: r === undefined || r.status === "not_run" ? "failed" : r.status,
          pages: r?.pages ?? 0,
          rows: r?.rows ?? 0,
          rejects: r?.rejects ?? 0,
          requests: r?.requests ?? 0,
          durationMs: r?.durationMs ?? 0,
          ...(r?.error === undefined && o.error === undefined ? {} : { error: r?.error ?? o.error ?? "" })
        })
        // a service refused the credentials: no slice starts after that, as in a local run
        if (r?.stopsRun === true && !withdrawn) {
          withdrawn = true
          yield* queue.withdraw(ids.filter((id) => !finished.has(id)))
        }
      }
      return finished.size === ids.length
    })
    yield* poll.pipe(Effect.repeat({ schedule: Schedule.spaced(`${settings.pollMs} millis`), until: (all) => all }))
    return finished
  })
