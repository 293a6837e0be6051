/**
 * The API keys' token buckets in PostgreSQL: one row per key in `chainetl_key_budgets`, so every
 * process using a key (any number, on any machine) takes its tokens from one bucket and together
 * they stay within the key's budget. Each operation is one statement on the row, under its row
 * lock: refill from the server's clock, then take, pause or raise, atomically.
 *
 * Times are the database server's clock (`clock_timestamp()`), so the processes' own clocks need
 * not agree. A reservation answers how long each token's request must wait from the moment the
 * statement ran; the process sleeps that long from when the answer arrives, so its requests go
 * no earlier than the shared bucket allows (later by the answer's trip back, which is safe).
 *
 * Rows are keyed by a digest of the secret (ApiKeys.ts `keyId`), never the secret. A process
 * starting writes its budget into the row (the last one started wins; processes sharing a key
 * should be given the same budget) and keeps the row's tokens: a restart gets no fresh burst.
 * A `chainetl worker` is the exception: it reads no job file, so its own budgets are only
 * defaults; it creates rows that are missing and otherwise writes the budgets each job carries
 * (`apply`, before the job's slice is crawled), which are the enqueuer's job file's.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Layer, type Redacted } from "effect"
import { SourceConfig } from "../Config.ts"
import type { ConfigError } from "../Errors.ts"
import type { ApiKey } from "../ApiKeys.ts"
import { KeyBuckets, type KeyBucketsService, KeyStoreError } from "../source/KeyBuckets.ts"
import { pgDatabase, sqlDetail } from "./PgDatabase.ts"

const NOW = "(extract(epoch FROM clock_timestamp()) * 1000)::float8"
/** The row's tokens refilled up to `c.now_ms` at its current rate (none accrue before `at_ms`). */
const REFILLED = "least(b.burst, b.tokens + greatest(0, c.now_ms - b.at_ms) * b.rate / 1000)"

const RESERVE = `
  WITH c AS (SELECT ${NOW} AS now_ms),
  pick AS (
    SELECT b.key_id
    FROM chainetl_key_budgets b, c
    WHERE b.key_id = ANY(string_to_array($1, ','))
    -- the key whose n-th token is there soonest: the most tokens for its rate, never a paused one while others have any
    ORDER BY greatest(b.at_ms, c.now_ms) + greatest(0, $2::float8 - ${REFILLED}) * 1000 / b.rate, b.key_id
    LIMIT 1
    FOR UPDATE OF b
  )
  UPDATE chainetl_key_budgets b
  SET tokens = ${REFILLED} - $2::float8, at_ms = greatest(b.at_ms, c.now_ms), updated_at = now()
  FROM pick, c
  WHERE b.key_id = pick.key_id
  RETURNING b.key_id, b.tokens, b.at_ms, b.rate, c.now_ms`

// 429s of one burst are one signal: the rate halves at most once a second (KeyBuckets.ts)
const RATE_LIMITED = `
  WITH c AS (SELECT ${NOW} AS now_ms)
  UPDATE chainetl_key_budgets b
  SET tokens = least(0, ${REFILLED}),
      rate = CASE WHEN c.now_ms - b.last_decrease_ms >= 1000 THEN greatest(least(1, b.ceiling), b.rate / 2) ELSE b.rate END,
      last_decrease_ms = CASE WHEN c.now_ms - b.last_decrease_ms >= 1000 THEN c.now_ms ELSE b.last_decrease_ms END,
      at_ms = greatest(b.at_ms, c.now_ms + $2::float8),
      updated_at = now()
  FROM c WHERE b.key_id = $1`

const RAISE = `
  WITH c AS (SELECT ${NOW} AS now_ms)
  UPDATE chainetl_key_budgets b
  SET tokens = ${REFILLED}, at_ms = greatest(b.at_ms, c.now_ms), rate = least(b.ceiling, b.rate + greatest(1, b.ceiling / 20)), updated_at = now()
  FROM c WHERE b.key_id = $1 AND b.rate < b.ceiling`

// a budget raised since the row was written applies at once unless the key is slowed by 429s
const UPSERT = `
  INSERT INTO chainetl_key_budgets AS b (key_id, name, ceiling, rate, burst, tokens, at_ms, last_decrease_ms)
  VALUES ($1, $2, $3, $3, $4, $4, ${NOW}, 0)
  ON CONFLICT (key_id) DO UPDATE SET
    name = EXCLUDED.name,
    ceiling = EXCLUDED.ceiling,
    burst = EXCLUDED.burst,
    rate = CASE WHEN b.rate >= b.ceiling THEN EXCLUDED.ceiling ELSE least(b.rate, EXCLUDED.ceiling) END,
    tokens = least(b.tokens, EXCLUDED.burst),
    updated_at = now()`

// a worker starting: its own budgets only fill rows nobody wrote (a job's budgets stay)
const INSERT_MISSING = `
  INSERT INTO chainetl_key_budgets (key_id, name, ceiling, rate, burst, tokens, at_ms, last_decrease_ms)
  VALUES ($1, $2, $3, $3, $4, $4, ${NOW}, 0)
  ON CONFLICT (key_id) DO NOTHING`

interface Reserved {
  readonly key_id: string
  readonly tokens: number
  readonly at_ms: number
  readonly rate: number
  readonly now_ms: number
}

/**
 * `budgets`: "write" puts this process's budgets in the rows (a run, an enqueuer); "keep" only
 * creates missing rows (a worker: the budgets that count are its jobs', written by `apply`).
 */
export const makePgKeyBuckets = (url: Redacted.Redacted<string>, budgets: "write" | "keep" = "write") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* SourceConfig
    const failed = (e: SqlError) => new KeyStoreError({ reason: "Unavailable", detail: `PostgreSQL (CHAINETL_STATE_URL): ${sqlDetail(url, e)}` })
    const run = <A extends object>(text: string, params: ReadonlyArray<unknown>) => sql.unsafe<A>(text, params).pipe(Effect.mapError(failed))

    for (const k of settings.apiKeys) yield* run(budgets === "write" ? UPSERT : INSERT_MISSING, [k.id, k.name, k.rate, k.burst])

    const service: KeyBucketsService = {
      reserve: (candidates, n) =>
        Effect.gen(function* () {
          const rows = yield* run<Reserved>(RESERVE, [candidates.map((k) => k.id).join(","), n])
          const row = rows[0]
          if (row === undefined) return yield* Effect.fail(new KeyStoreError({ reason: "Unavailable", detail: "PostgreSQL (CHAINETL_STATE_URL): the keys' rows in chainetl_key_budgets are gone (deleted while the run went on)" }))
          const key = candidates.find((k) => k.id === row.key_id)!
          const before = Number(row.tokens) + n
          const at = Number(row.at_ms)
          const rate = Number(row.rate)
          const now = Number(row.now_ms)
          const waitsMs = Array.from({ length: n }, (_, i) => Math.max(0, at + (Math.max(0, i + 1 - before) * 1000) / rate - now))
          return { key, waitsMs, rate }
        }),
      rateLimited: (key: ApiKey, pauseMs: number) => Effect.asVoid(run(RATE_LIMITED, [key.id, pauseMs])),
      raise: (key: ApiKey) => Effect.asVoid(run(RAISE, [key.id])),
      // only keys this process has: a budget for a key it does not use would only create a row
      apply: (given) =>
        Effect.forEach(
          given.filter((b) => settings.apiKeys.some((k) => k.id === b.id)),
          (b) => run(UPSERT, [b.id, b.name, b.rate, b.burst]),
          { discard: true }
        )
    }
    return service
  })

/** The keys' buckets in the database at `url` (its own pool; the tables made if missing). */
export const pgKeyBucketsLayer = (url: Redacted.Redacted<string>, budgets: "write" | "keep" = "write"): Layer.Layer<KeyBuckets, ConfigError | KeyStoreError, SourceConfig> =>
  Layer.effect(KeyBuckets, makePgKeyBuckets(url, budgets)).pipe(Layer.provide(pgDatabase(url)))
