/**
 * The fencing of a distributed run, in PostgreSQL advisory locks (session locks: the server frees
 * them the moment their connection ends, however the process ends):
 *  - a worker crawls a slice only while holding that slice's lock, exclusive, and the output's
 *    writer lock, shared, on one connection it keeps for the slice. The queue's lease decides who
 *    *should* crawl a slice; the slice lock decides who *can*: a worker whose lease ran out while
 *    it was still alive (stalled, cut off) keeps its lock until it stops, and its successor waits;
 *  - the output's writer lock is the one a local run takes exclusive (state/PgWriterLock.ts): held
 *    shared by the enqueuer and by every worker mid-slice, it keeps a local run (or `compact`) off
 *    the output while a distributed run writes, and the distributed run off it while a local one
 *    does. The enqueuer takes it exclusive before planning and again for compaction and the
 *    catalog, when no worker writes;
 *  - one distributed run per output at a time (its own lock, RunHold.ts), so two enqueuers never
 *    wait on each other's shared hold.
 * A slice's checkpoint is saved on its lock's own session (`execute`), so it lands only while the
 * lock is held; its files are fenced by confirmations of the lock in time (SliceFence.ts).
 */
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, type Scope } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { KEY as WRITER_KEY } from "../state/PgWriterLock.ts"
import type { SliceJob } from "./SliceJob.ts"
import { LOCK_DELAY_SQL, type SliceFence, makeSliceFence } from "./SliceFence.ts"

const SLICE_KEY = "hashtextextended('chainetl slice ' || $1 || ' ' || $2 || ' ' || $3, 0)"

export const lockError = (outDir: string, e: SqlError | SinkError) =>
  e._tag === "SinkError"
    ? e
    : new SinkError({ reason: "Io", path: `PostgreSQL locks of ${path.resolve(outDir)}`, detail: `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` })

/** The first row of a statement run on the lock's own session. */
export const one = (conn: Connection, text: string, values: ReadonlyArray<unknown>) =>
  Effect.map(conn.execute(text, values, undefined), (rows) => rows[0] as Record<string, unknown> | undefined)

/** A slice held by this worker. */
export interface HeldSlice {
  /** How long to wait before touching the slice: what is left of its last holder's fence (SliceFence.ts). */
  readonly waitMs: number
  readonly fence: SliceFence
  /** Runs a statement on the lock's own session: it takes effect only while the lock is held. */
  readonly execute: (text: string, values: ReadonlyArray<unknown>) => Effect.Effect<void, SqlError>
}

/**
 * The slice's lock and the output's shared lock, for the enclosing scope; "busy" when a local run
 * has the output or another worker still crawls the slice.
 */
export const holdSlice = (outDir: string, job: SliceJob, fenceMs: number): Effect.Effect<HeldSlice | "output busy" | "slice busy", SinkError, Scope.Scope | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const conn = yield* sql.reserve
    // whatever this session took goes with the scope (a lost connection has lost them already)
    yield* Effect.addFinalizer(() =>
      conn.execute("SELECT pg_advisory_unlock_all()", [], undefined).pipe(
        Effect.andThen(conn.execute("DELETE FROM chainetl_slice_holders WHERE output_id = $1 AND dataset = $2 AND slice = $3 AND backend_pid = pg_backend_pid()", [job.outputId, job.dataset, job.slice.id], undefined)),
        Effect.ignore
      )
    )
    const shared = yield* one(conn, `SELECT pg_try_advisory_lock_shared(${WRITER_KEY}) AS ok`, [job.outputId])
    if (shared?.["ok"] !== true) return "output busy" as const
    const own = yield* one(conn, `SELECT pg_try_advisory_lock(${SLICE_KEY}) AS ok`, [job.outputId, job.dataset, job.slice.id])
    if (own?.["ok"] !== true) return "slice busy" as const
    // a row left behind is a holder that did not let go cleanly: it may still write until its fence ends
    const left = yield* one(conn, LOCK_DELAY_SQL, [job.outputId, job.dataset, job.slice.id, fenceMs])
    const confirmedFrom = performance.now()
    yield* conn.execute(
      `INSERT INTO chainetl_slice_holders (output_id, dataset, slice, run_id, pid, hostname, backend_pid, since, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, pg_backend_pid(), now(), clock_timestamp())
       ON CONFLICT (output_id, dataset, slice) DO UPDATE SET run_id = EXCLUDED.run_id, pid = EXCLUDED.pid, hostname = EXCLUDED.hostname,
         backend_pid = EXCLUDED.backend_pid, since = EXCLUDED.since, confirmed_at = EXCLUDED.confirmed_at`,
      [job.outputId, job.dataset, job.slice.id, job.runId, process.pid, os.hostname()],
      undefined
    )
    const keys = [job.outputId, job.dataset, job.slice.id] as const
    return {
      waitMs: Math.ceil(Number(left?.["wait_ms"] ?? 0)),
      fence: makeSliceFence(conn, keys, fenceMs, `${path.resolve(outDir)} (${job.dataset}/${job.slice.id})`, confirmedFrom),
      execute: (text: string, values: ReadonlyArray<unknown>) => Effect.asVoid(conn.execute(text, values, undefined))
    }
  }).pipe(Effect.mapError((e) => lockError(outDir, e)))
