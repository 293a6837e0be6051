/**
 * SliceQueue on pg-boss 10 (the last major that runs on Node 20), in the same PostgreSQL as the
 * checkpoints, under its own schema `pgboss`. Chosen over graphile-worker 0.17 by the spike
 * (bench/engineSpike.ts, docs/scale-out.md#distributed-slices): graphile-worker frees a crashed worker's job only after a fixed
 * 4 hours; pg-boss expires an active job after its own `expire_in`, swept every
 * CHAINETL_QUEUE_SWEEP_SECONDS.
 *
 * pg-boss 10 has no heartbeat: a job's expiry is fixed when it is sent. A slice may crawl for
 * hours, so a short expiry would take live slices away and a long one would leave a dead worker's
 * slice waiting for hours. The lease is therefore renewed here by moving the job's `expire_in`
 * forward (one UPDATE on pg-boss's job table, pinned to 10.4.2's schema), guarded by the job's
 * `retry_count`: pg-boss raises it each time the job is taken again, so a renewal by a worker
 * whose hold has passed to another matches no row and tells it so.
 */
import PgBoss from "pg-boss"
import { Duration, Effect, Layer, type Redacted, Schedule } from "effect"
import { Redacted as R } from "effect"
import type { RunSlice } from "../Runner.ts"
import type { DistributedSettings } from "./Settings.ts"
import { type JobOutcome, type Lease, QueueError, SliceQueue } from "./SliceQueue.ts"
import { type SliceJob, queueName } from "./SliceJob.ts"

const SCHEMA = "pgboss"

/** Deaths and hand-backs each count as a retry in pg-boss; a slice is never given up for them. */
const RETRY_LIMIT = 1_000

const detail = (e: unknown) => (e instanceof Error ? e.message : String(e))

const stateOf = (s: string): JobOutcome["state"] =>
  s === "completed" ? "done" : s === "failed" || s === "cancelled" ? "failed" : s === "active" ? "running" : "waiting"

/**
 * The output's queue, created by whichever of its processes comes first. pg-boss 10 creates a
 * queue as a partition of its job table: two processes creating the same new queue at once (the
 * workers and the enqueuer of a new output all start together), or one creating it while another
 * sweeps, can deadlock in PostgreSQL, which then aborts one of them. That one tries again; a
 * queue that another process created meanwhile is the queue wanted.
 */
const createQueue = (boss: PgBoss, name: string): Effect.Effect<void, QueueError> =>
  Effect.tryPromise({
    try: () =>
      boss.createQueue(name).catch((e: unknown) => {
        if (!/already exists|duplicate key/i.test(detail(e))) throw e
      }),
    catch: (e) => new QueueError({ reason: "Unavailable", detail: `pg-boss could not start: ${detail(e)}` })
  }).pipe(
    Effect.retry({
      schedule: Schedule.jittered(Schedule.exponential(Duration.millis(50))),
      times: 6,
      while: (e) => TRANSIENT.test(e.detail)
    })
  )

// PostgreSQL's deadlock (40P01) and serialization failure (40001): the transaction was aborted whole
const TRANSIENT = /deadlock detected|could not serialize access/i

export const pgBossQueueLayer = (
  url: Redacted.Redacted<string>,
  outputId: string,
  settings: DistributedSettings
): Layer.Layer<SliceQueue, QueueError> =>
  Layer.scoped(
    SliceQueue,
    Effect.gen(function* () {
      const name = queueName(outputId)
      const boss = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const b = new PgBoss({
              connectionString: R.value(url),
              schema: SCHEMA,
              application_name: "chainetl",
              max: 4,
              maintenanceIntervalSeconds: settings.sweepSeconds,
              // cron and its clock monitor are not used
              schedule: false
            })
            // errors of its background loops (a sweep that lost its connection) retry by themselves
            b.on("error", () => undefined)
            await b.start()
            return b
          },
          catch: (e) => new QueueError({ reason: "Unavailable", detail: `pg-boss could not start: ${detail(e)}` })
        }),
        (b) => Effect.promise(() => b.stop({ graceful: false, wait: true, close: true }).catch(() => undefined))
      )
      yield* createQueue(boss, name)
      const db = boss.getDb() as { executeSql: (text: string, values?: ReadonlyArray<unknown>) => Promise<{ rows: Array<Record<string, unknown>> }> }
      const sql = (reason: QueueError["reason"], text: string, values: ReadonlyArray<unknown>) =>
        Effect.tryPromise({ try: () => db.executeSql(text, values), catch: (e) => new QueueError({ reason, detail: detail(e) }) })

      const enqueue: SliceQueue["Type"]["enqueue"] = (jobs) =>
        Effect.gen(function* () {
          if (jobs.length === 0) return 0
          const ids = jobs.map((j) => j.id)
          // a finished job of an earlier run is queued again; a waiting or running one is joined
          yield* sql("Enqueue", `DELETE FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state >= 'completed'`, [name, ids])
          const waiting = yield* sql("Enqueue", `SELECT count(*)::int AS n FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])`, [name, ids])
          yield* sql("Enqueue", `DELETE FROM ${SCHEMA}.archive WHERE name = $1 AND id = ANY($2::uuid[])`, [name, ids])
          yield* Effect.tryPromise({
            try: () =>
              boss.insert(
                jobs.map((j) => ({ name, id: j.id, data: j.job, retryLimit: RETRY_LIMIT, retryDelay: 1, expireInSeconds: settings.leaseSeconds }))
              ),
            catch: (e) => new QueueError({ reason: "Enqueue", detail: detail(e) })
          })
          return Number(waiting.rows[0]?.["n"] ?? 0)
        })

      const take: SliceQueue["Type"]["take"] = Effect.tryPromise({
        try: () => boss.fetch<SliceJob>(name, { includeMetadata: true }),
        catch: (e) => new QueueError({ reason: "Take", detail: detail(e) })
      }).pipe(Effect.map((jobs) => (jobs[0] === undefined ? undefined : { id: jobs[0].id, job: jobs[0].data, generation: jobs[0].retryCount })))

      const renew: SliceQueue["Type"]["renew"] = (lease) =>
        sql(
          "Lease",
          `UPDATE ${SCHEMA}.job SET expire_in = (now() - started_on) + $3 * interval '1 second'
           WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $4 RETURNING 1`,
          [name, lease.id, settings.leaseSeconds, lease.generation]
        ).pipe(Effect.map((r) => r.rows.length === 1))

      // pg-boss 10's own completion (plans.js completeJobs) plus the lease's retry_count, as in
      // renew: a worker whose job has passed to another (it lost its lock, its save was refused)
      // must not complete the job its successor is working, which would report a finished slice
      // as failed. Its completion then changes nothing
      const complete: SliceQueue["Type"]["complete"] = (lease: Lease, result: RunSlice) =>
        sql(
          "Complete",
          `UPDATE ${SCHEMA}.job SET completed_on = now(), state = 'completed', output = $3::jsonb
           WHERE name = $1 AND id = $2 AND state = 'active' AND retry_count = $4`,
          [name, lease.id, JSON.stringify(result), lease.generation]
        ).pipe(Effect.asVoid)

      const release: SliceQueue["Type"]["release"] = (lease, why) =>
        Effect.tryPromise({ try: () => boss.fail(name, lease.id, { message: why }), catch: (e) => new QueueError({ reason: "Complete", detail: detail(e) }) }).pipe(Effect.asVoid)

      const withdraw: SliceQueue["Type"]["withdraw"] = (ids) =>
        sql("Complete", `UPDATE ${SCHEMA}.job SET state = 'cancelled', completed_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state < 'active'`, [name, ids]).pipe(Effect.asVoid)

      const outcomes: SliceQueue["Type"]["outcomes"] = (ids) =>
        sql(
          "Read",
          `SELECT id::text AS id, state::text AS state, output, retry_count FROM ${SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])
           UNION ALL
           SELECT id::text, state::text, output, retry_count FROM ${SCHEMA}.archive WHERE name = $1 AND id = ANY($2::uuid[])`,
          [name, ids]
        ).pipe(
          Effect.map((r) =>
            r.rows.map((row): JobOutcome => {
              const state = stateOf(String(row["state"]))
              const output = row["output"] as (RunSlice & { message?: string; value?: { message?: string } }) | null
              return {
                id: String(row["id"]),
                state,
                retries: Number(row["retry_count"] ?? 0),
                ...(state === "done" && output !== null ? { result: output } : {}),
                ...(state === "failed" ? { error: output?.message ?? output?.value?.message ?? "given up by the job queue" } : {})
              }
            })
          )
        )

      return { leaseSeconds: settings.leaseSeconds, enqueue, take, renew, complete, release, withdraw, outcomes }
    })
  )
