/**
 * The PostgreSQL connection pool behind the state store and the writer lock, with chainetl's
 * tables created if they are missing. One pool per process: checkpoint saves borrow a connection
 * per statement, the writer lock keeps one for the whole run (PgWriterLock.ts).
 *
 * A server that cannot be reached, or refuses the credentials, fails here, before the run
 * touches anything, with a ConfigError naming CHAINETL_STATE_URL, where it tried (the URL
 * without its password) and what the server said.
 */
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Duration, Effect, Layer, Redacted } from "effect"
import { ConfigError } from "../Errors.ts"
import { STATE_URL_ENV, describeStateUrl, stateUrlFix } from "./StateConfig.ts"

/** Every table chainetl keeps in the database (docs/scale-out.md, "State in PostgreSQL"). */
export const SCHEMA: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS chainetl_checkpoints (
     output_id text NOT NULL,
     dataset text NOT NULL,
     slice text NOT NULL,
     state jsonb NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (output_id, dataset, slice)
   )`,
  // a broken checkpoint's marker (the file store's `<slice>.refetch`): see crawl/Refetch.ts
  `CREATE TABLE IF NOT EXISTS chainetl_refetch (
     output_id text NOT NULL,
     dataset text NOT NULL,
     slice text NOT NULL,
     PRIMARY KEY (output_id, dataset, slice)
   )`,
  // who holds an output's advisory lock, for the message a second writer gets
  `CREATE TABLE IF NOT EXISTS chainetl_writer (
     output_id text PRIMARY KEY,
     location text NOT NULL,
     run_id text NOT NULL,
     pid integer NOT NULL,
     hostname text NOT NULL,
     backend_pid integer NOT NULL,
     started_at timestamptz NOT NULL
   )`,
  // the enqueuer holding an output's distributed-run lock, and its last sign of life (distributed/RunHold.ts)
  `CREATE TABLE IF NOT EXISTS chainetl_enqueuers (
     output_id text PRIMARY KEY,
     run_id text NOT NULL,
     pid integer NOT NULL,
     hostname text NOT NULL,
     backend_pid integer NOT NULL,
     started_at timestamptz NOT NULL,
     confirmed_at timestamptz NOT NULL
   )`,
  // which worker crawls which slice of a distributed run, while it holds the slice's advisory lock
  `CREATE TABLE IF NOT EXISTS chainetl_slice_holders (
     output_id text NOT NULL,
     dataset text NOT NULL,
     slice text NOT NULL,
     run_id text NOT NULL,
     pid integer NOT NULL,
     hostname text NOT NULL,
     backend_pid integer NOT NULL,
     since timestamptz NOT NULL,
     -- the holder's last confirmation of its lock: its successor waits out its fence (distributed/SliceFence.ts)
     confirmed_at timestamptz,
     PRIMARY KEY (output_id, dataset, slice)
   )`,
  // databases made before the fence
  `ALTER TABLE chainetl_slice_holders ADD COLUMN IF NOT EXISTS confirmed_at timestamptz`,
  // one token bucket per API key, shared by every process using the key (PgKeyBuckets.ts);
  // times are the server's clock in ms since the epoch, `at_ms` in the future during a pause
  `CREATE TABLE IF NOT EXISTS chainetl_key_budgets (
     key_id text PRIMARY KEY,
     name text NOT NULL,
     ceiling double precision NOT NULL,
     rate double precision NOT NULL,
     burst double precision NOT NULL,
     tokens double precision NOT NULL,
     at_ms double precision NOT NULL,
     last_decrease_ms double precision NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`
]

/**
 * Serialises schema creation: `CREATE TABLE IF NOT EXISTS` run by two sessions at once can still
 * fail on the catalog's unique index. An arbitrary constant ("chainetl" in ASCII).
 */
const SCHEMA_LOCK = 0x636861696e65746cn

/** What the server said, with the password cut out should a driver message ever echo it. */
export const sqlDetail = (url: Redacted.Redacted<string>, e: SqlError): string => {
  const cause = e.cause instanceof Error ? e.cause.message : e.cause === undefined ? "" : String(e.cause)
  const text = cause === "" ? e.message : `${e.message}: ${cause}`
  let password = ""
  try {
    password = decodeURIComponent(new URL(Redacted.value(url)).password)
  } catch {
    password = ""
  }
  return password === "" ? text : text.split(password).join("<redacted>")
}

const unreachable = (url: Redacted.Redacted<string>) => (e: SqlError) =>
  new ConfigError({
    reason: "Invalid",
    field: STATE_URL_ENV,
    detail: `PostgreSQL at ${describeStateUrl(url)} could not be used (${sqlDetail(url, e)})`,
    fix: `start the server or correct the URL's host, port, database, user or password: ${stateUrlFix}`
  })

const ensureSchema = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK.toString()}::bigint)`
      for (const statement of SCHEMA) yield* sql.unsafe(statement)
    })
  )
})

/** The pool for `url`, its tables in place. */
export const pgDatabase = (url: Redacted.Redacted<string>): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, ConfigError> =>
  Layer.effectDiscard(ensureSchema).pipe(
    Layer.provideMerge(
      PgClient.layer({
        url,
        applicationName: "chainetl",
        connectTimeout: Duration.seconds(10),
        // the lock's connection plus concurrent slices' checkpoint saves
        maxConnections: 10
      })
    ),
    Layer.mapError(unreachable(url))
  )
