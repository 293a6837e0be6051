/**
 * The writer lock in PostgreSQL: a session-level advisory lock on the output folder's id
 * (OutputId.ts), held on a connection the run keeps for as long as it holds the lock. The server
 * releases it when that session ends, however it ends: a run that finishes unlocks it, a run
 * killed with SIGKILL (or a host that loses power) drops its connection and the server frees the
 * lock then, so there is no stale lock to judge or take over, whatever host the run was on.
 *
 * `pg_try_advisory_lock` never waits: a second writer is refused at once with SinkError "Locked",
 * naming the holder from `chainetl_writer` (run id, pid, host, start), a row the holder writes
 * once it has the lock and deletes when it lets go. The row is only for that message: the
 * advisory lock alone decides who writes.
 */
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { ensureOutputId } from "./OutputId.ts"

/**
 * The advisory lock's 64-bit key: a hash of the id, namespaced so no other program's lock collides
 * by accident. A distributed run and its workers take it shared (distributed/SliceLocks.ts), so a
 * local run, which takes it exclusive, is refused while they write, and they while it does.
 */
export const KEY = "hashtextextended('chainetl writer ' || $1, 0)"

interface Holder {
  readonly run_id: string
  readonly pid: number
  readonly hostname: string
  readonly started_at: Date | string
  readonly location: string
  /** Whether the row's own session still holds the lock (false: a dead run's row; others hold it). */
  readonly holds: boolean
}

/** Whether session `pid` holds the advisory lock of 64-bit key `key` (pg_locks splits it in two oids). */
export const holdsAdvisory = (pid: string, key: string) =>
  `EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.pid = ${pid}
     AND ((l.classid::bigint << 32) | l.objid::bigint) = ${key})`

/** The row of the output's holder, and whether its session holds the lock. */
const HOLDER = `SELECT run_id, pid, hostname, started_at, location, ${holdsAdvisory("w.backend_pid", KEY)} AS holds
  FROM chainetl_writer w WHERE output_id = $1`

const where = (outDir: string, id: string) => `PostgreSQL writer lock of ${path.resolve(outDir)} (output id ${id})`

const failed = (outDir: string, id: string) => (e: SqlError | SinkError) =>
  e._tag === "SinkError"
    ? e
    : new SinkError({ reason: "Io", path: where(outDir, id), detail: `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` })

const lockedError = (outDir: string, id: string, holder: Holder | undefined) =>
  new SinkError({
    reason: "Locked",
    path: where(outDir, id),
    detail:
      holder !== undefined && !holder.holds && holder.run_id.endsWith(" (distributed)")
        ? // its enqueuer is gone (killed): naming it as the holder would send the operator after a dead process
          `workers of distributed run ${holder.run_id.replace(/ \(distributed\)$/, "")} still crawl this output, and its enqueuer (pid ${holder.pid} on ${holder.hostname}) is gone. ` +
          "Run its --distributed command again to take the run over and finish it, or wait for the workers to finish its jobs"
        : holder === undefined || !holder.holds
        ? "another chainetl run holds this output's lock. Wait for it to finish or stop it; the lock goes when its process or connection ends"
        : `output folder is in use by run ${holder.run_id} (pid ${holder.pid} on ${holder.hostname}, started ${new Date(holder.started_at).toISOString()}, writing ${holder.location}). ` +
          "Wait for it to finish or stop it; the lock goes when its process or connection ends"
  })

const acquireOn = (conn: Connection, outDir: string, id: string, runId: string) =>
  Effect.gen(function* () {
    const [won] = yield* conn.execute(`SELECT pg_try_advisory_lock(${KEY}) AS ok, pg_backend_pid() AS backend`, [id], undefined)
    if (won?.ok !== true) {
      const holders = yield* conn.execute(HOLDER, [id], undefined)
      return yield* Effect.fail(lockedError(outDir, id, holders[0] as Holder | undefined))
    }
    // the lock is ours from here: let it go with the scope, even if recording the holder fails
    yield* Effect.addFinalizer(() =>
      conn.execute(`SELECT pg_advisory_unlock(${KEY})`, [id], undefined).pipe(
        Effect.andThen(conn.execute("DELETE FROM chainetl_writer WHERE output_id = $1 AND run_id = $2", [id, runId], undefined)),
        // a lost connection has already released the lock on the server
        Effect.ignore
      )
    )
    yield* conn.execute(
      `INSERT INTO chainetl_writer (output_id, location, run_id, pid, hostname, backend_pid, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (output_id) DO UPDATE SET location = EXCLUDED.location, run_id = EXCLUDED.run_id, pid = EXCLUDED.pid,
         hostname = EXCLUDED.hostname, backend_pid = EXCLUDED.backend_pid, started_at = EXCLUDED.started_at`,
      [id, path.resolve(outDir), runId, process.pid, os.hostname(), won["backend"]],
      undefined
    )
  })

export const makePgWriterLock = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    acquire: (outDir: string, runId: string) =>
      Effect.gen(function* () {
        const id = yield* ensureOutputId(outDir)
        // kept until the scope closes: the lock lives exactly as long as this session
        const conn = yield* sql.reserve.pipe(Effect.mapError(failed(outDir, id)))
        yield* acquireOn(conn, outDir, id, runId).pipe(Effect.mapError(failed(outDir, id)))
      })
  } satisfies WriterLock["Type"]
})

/** The lock on the database the layer below provides (PgDatabase.ts). */
export const pgWriterLockLayer: Layer.Layer<WriterLock, never, SqlClient.SqlClient> = Layer.effect(WriterLock, makePgWriterLock)
