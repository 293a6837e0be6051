/**
 * The enqueuer's hold on its output (`run --distributed`, `backfill --distributed`), in
 * PostgreSQL session locks on one connection it keeps for the run:
 *  - the distributed-run lock, exclusive: one enqueuer per output. Its holder keeps a row in
 *    `chainetl_enqueuers` (run id, pid, host) whose `confirmed_at` it renews every third of the
 *    lease, so a later enqueuer can tell a dead holder from a live one (Takeover.ts): a holder
 *    whose session ended (a SIGKILL anywhere) or whose pid is gone from this host is taken over at
 *    once, a silent one after its lease, a live one refuses the newcomer;
 *  - the output's writer lock (state/PgWriterLock.ts's key): exclusive while it prepares and
 *    finishes, shared while the workers crawl. An enqueuer that took over a run whose workers are
 *    still crawling cannot have it exclusive; it holds it shared at once, like them, and **joins**
 *    the run: it plans, enqueues (joining the jobs still queued or running: their ids are fixed)
 *    and waits, but clears nothing the workers may be writing until it holds the output
 *    exclusive again at the end.
 */
import { SqlClient } from "@effect/sql"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Schedule, type Scope } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { processAlive } from "../sink/OutputLock.ts"
import { holdsAdvisory, KEY as WRITER_KEY } from "../state/PgWriterLock.ts"
import { lockError, one } from "./SliceLocks.ts"
import type { TookOver } from "../SliceExecution.ts"
import { type EnqueuerRow, type TakeoverWhen, judgeHolder } from "./Takeover.ts"

const RUN_KEY = "hashtextextended('chainetl distributed ' || $1, 0)"

const HOLDER = `SELECT e.run_id, e.pid, e.hostname, e.backend_pid,
    (EXTRACT(EPOCH FROM clock_timestamp() - e.confirmed_at) * 1000)::float8 AS ago_ms,
    (EXTRACT(EPOCH FROM e.confirmed_at) * 1000)::float8 AS at_ms,
    ${holdsAdvisory("e.backend_pid", RUN_KEY)} AS holds
  FROM chainetl_enqueuers e WHERE e.output_id = $1`

export interface RunHold {
  /** Let workers in: the writer lock shared, its exclusive hold let go (nothing when joined: shared already). */
  readonly share: Effect.Effect<void, SinkError>
  /** Workers done: the writer lock exclusive again (waiting up to `waitSeconds` for a worker still finishing). */
  readonly exclusive: (waitSeconds: number) => Effect.Effect<void, SinkError>
  /** Workers were crawling when this run took over: the output is held shared from the start. */
  readonly joined: boolean
  readonly tookOver: TookOver | undefined
}

/** Whether run `runId`'s enqueuer still holds the output's distributed-run lock (its session alive). */
export const enqueuerAlive = (outputId: string, runId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.unsafe<{ alive: boolean }>(`SELECT EXISTS (SELECT 1 FROM chainetl_enqueuers e WHERE e.output_id = $1 AND e.run_id = $2 AND ${holdsAdvisory("e.backend_pid", RUN_KEY)}) AS alive`, [outputId, runId])
  ).pipe(Effect.map((rows) => rows[0]?.alive === true))

const rowOf = (r: Record<string, unknown> | undefined): (EnqueuerRow & { backendPid: number; holds: boolean }) | undefined =>
  r === undefined
    ? undefined
    : {
        runId: String(r["run_id"]),
        pid: Number(r["pid"]),
        hostname: String(r["hostname"]),
        confirmedAgoMs: Number(r["ago_ms"]),
        confirmedAtMs: Number(r["at_ms"]),
        backendPid: Number(r["backend_pid"]),
        holds: r["holds"] === true
      }

/**
 * The distributed-run lock, taken over from a dead holder when Takeover.ts says so; fails
 * "Locked" naming a live one.
 */
const takeRunLock = (conn: Connection, outputId: string, leaseMs: number, locked: (detail: string) => SinkError): Effect.Effect<TookOver | undefined, SinkError | SqlError> =>
  Effect.gen(function* () {
    const began = performance.now()
    let firstSeen: number | undefined
    let ending: { readonly row: EnqueuerRow; readonly when: TakeoverWhen; readonly why: string; readonly until: number } | undefined
    for (;;) {
      const got = (yield* one(conn, `SELECT pg_try_advisory_lock(${RUN_KEY}) AS ok`, [outputId]))?.["ok"] === true
      const row = rowOf(yield* one(conn, HOLDER, [outputId]))
      // a session this contender ended: the server frees its lock as its backend exits
      if (ending !== undefined) {
        if (got) return { runId: ending.row.runId, pid: ending.row.pid, hostname: ending.row.hostname, when: ending.when, why: ending.why }
        if (performance.now() > ending.until) return yield* Effect.fail(locked(`run ${ending.row.runId} (pid ${ending.row.pid} on ${ending.row.hostname}) is gone (${ending.why}) but its PostgreSQL session did not end when asked. End it (SELECT pg_terminate_backend(pid) FROM pg_stat_activity …) and run this again`))
        yield* Effect.sleep(Duration.millis(200))
        continue
      }
      const verdict = judgeHolder({ lockHeld: !got, row, rowHoldsLock: row?.holds === true, host: os.hostname(), pidAlive: processAlive, leaseMs, firstSeenAtMs: firstSeen, waitedMs: performance.now() - began })
      firstSeen ??= row?.confirmedAtMs
      switch (verdict.kind) {
        case "free":
          return undefined
        case "take": {
          if (!verdict.endSession) return { runId: row!.runId, pid: row!.pid, hostname: row!.hostname, when: verdict.when, why: verdict.why }
          // only the session that still holds the lock is ended, never a backend pid reused since
          const ended = yield* Effect.either(one(conn, `SELECT pg_terminate_backend(e.backend_pid) AS ok FROM chainetl_enqueuers e WHERE e.output_id = $1 AND ${holdsAdvisory("e.backend_pid", RUN_KEY)}`, [outputId]))
          if (ended._tag === "Left") {
            return yield* Effect.fail(locked(`run ${row!.runId} (pid ${row!.pid} on ${row!.hostname}) is gone (${verdict.why}), but its PostgreSQL session could not be ended (${ended.left.message}): end it as a role allowed to (pg_signal_backend) and run this again`))
          }
          ending = { row: row!, when: verdict.when, why: verdict.why, until: performance.now() + 10_000 }
          continue
        }
        case "wait":
          yield* Effect.sleep(Duration.millis(verdict.ms))
          continue
        case "alive":
          return yield* Effect.fail(
            locked(
              `another distributed run (chainetl run --distributed or backfill --distributed) is under way on this output${row === undefined || !row.holds ? "" : `: run ${row.runId} (pid ${row.pid} on ${row.hostname})`}, alive (${verdict.why}). Wait for it to finish or stop it`
            )
          )
      }
    }
  })

export const holdRun = (outDir: string, outputId: string, runId: string, leaseSeconds: number): Effect.Effect<RunHold, SinkError, Scope.Scope | SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const conn = yield* sql.reserve
    yield* Effect.addFinalizer(() =>
      conn.execute("SELECT pg_advisory_unlock_all()", [], undefined).pipe(
        Effect.andThen(conn.execute("DELETE FROM chainetl_writer WHERE output_id = $1 AND run_id = $2", [outputId, `${runId} (distributed)`], undefined)),
        Effect.andThen(conn.execute("DELETE FROM chainetl_enqueuers WHERE output_id = $1 AND run_id = $2", [outputId, runId], undefined)),
        Effect.ignore
      )
    )
    const locked = (detail: string) => new SinkError({ reason: "Locked", path: `PostgreSQL writer lock of ${path.resolve(outDir)} (output id ${outputId})`, detail })
    const tookOver = yield* takeRunLock(conn, outputId, leaseSeconds * 1000, locked)
    yield* conn.execute(
      `INSERT INTO chainetl_enqueuers (output_id, run_id, pid, hostname, backend_pid, started_at, confirmed_at)
       VALUES ($1, $2, $3, $4, pg_backend_pid(), now(), clock_timestamp())
       ON CONFLICT (output_id) DO UPDATE SET run_id = EXCLUDED.run_id, pid = EXCLUDED.pid, hostname = EXCLUDED.hostname,
         backend_pid = EXCLUDED.backend_pid, started_at = EXCLUDED.started_at, confirmed_at = EXCLUDED.confirmed_at`,
      [outputId, runId, process.pid, os.hostname()],
      undefined
    )
    // alive, every third of the lease, for as long as the run holds the output
    yield* Effect.forkScoped(
      conn.execute("UPDATE chainetl_enqueuers SET confirmed_at = clock_timestamp() WHERE output_id = $1 AND run_id = $2", [outputId, runId], undefined).pipe(
        Effect.ignore,
        Effect.repeat(Schedule.spaced(Duration.millis((leaseSeconds * 1000) / 3)))
      )
    )
    const writer = yield* one(conn, `SELECT pg_try_advisory_lock(${WRITER_KEY}) AS ok`, [outputId])
    // workers still crawl (they hold it shared) with no enqueuer (this one holds the run lock):
    // the run taken over, or leftovers of one that gave up waiting for them; join them, shared too
    const joined = writer?.["ok"] !== true && (yield* one(conn, `SELECT pg_try_advisory_lock_shared(${WRITER_KEY}) AS ok`, [outputId]))?.["ok"] === true
    if (writer?.["ok"] !== true && !joined) {
      const holder = yield* one(conn, `SELECT run_id, pid, hostname, ${holdsAdvisory("backend_pid", WRITER_KEY)} AS holds FROM chainetl_writer WHERE output_id = $1`, [outputId])
      return yield* Effect.fail(
        locked(
          holder === undefined || holder["holds"] !== true
            ? "a chainetl run, or workers of an earlier distributed run still crawling, hold this output. Wait for them to finish or stop them"
            : `output folder is in use by run ${String(holder["run_id"])} (pid ${String(holder["pid"])} on ${String(holder["hostname"])}). Wait for it to finish or stop it`
        )
      )
    }
    // who holds the output, for the message a local run gets while this run is under way
    yield* conn.execute(
      `INSERT INTO chainetl_writer (output_id, location, run_id, pid, hostname, backend_pid, started_at)
       VALUES ($1, $2, $3, $4, $5, pg_backend_pid(), now())
       ON CONFLICT (output_id) DO UPDATE SET location = EXCLUDED.location, run_id = EXCLUDED.run_id, pid = EXCLUDED.pid,
         hostname = EXCLUDED.hostname, backend_pid = EXCLUDED.backend_pid, started_at = EXCLUDED.started_at`,
      [outputId, path.resolve(outDir), `${runId} (distributed)`, process.pid, os.hostname()],
      undefined
    )
    const share = joined
      ? Effect.void
      : Effect.asVoid(conn.execute(`SELECT pg_advisory_lock_shared(${WRITER_KEY}), pg_advisory_unlock(${WRITER_KEY})`, [outputId], undefined)).pipe(
          Effect.mapError((e) => lockError(outDir, e))
        )
    const exclusive = (waitSeconds: number) =>
      one(conn, `SELECT pg_try_advisory_lock(${WRITER_KEY}) AS ok`, [outputId]).pipe(
        Effect.mapError((e) => lockError(outDir, e)),
        Effect.filterOrFail(
          (r) => r?.["ok"] === true,
          () => locked(`a worker still holds a slice of this output ${waitSeconds} s after every job finished; the catalog was not rebuilt (run chainetl catalog once it is done)`)
        ),
        Effect.retry(Schedule.spaced("1 second").pipe(Schedule.upTo(`${waitSeconds} seconds`))),
        // the exclusive hold is ours: the shared one can go (the session held both a moment)
        Effect.andThen(conn.execute(`SELECT pg_advisory_unlock_shared(${WRITER_KEY})`, [outputId], undefined).pipe(Effect.mapError((e) => lockError(outDir, e)))),
        Effect.asVoid
      )
    return { share, exclusive, joined, tookOver }
  }).pipe(Effect.mapError((e) => lockError(outDir, e)))
