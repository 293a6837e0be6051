/**
 * One key budget shared by several processes through PostgreSQL (issue 15 items 2 and 4): three
 * source layers, each with its own connection pool as three processes on three machines would
 * have, send at once with the same keys; counted at the emulator, the three together stay within
 * each key's budget in every window. The same three with their buckets in process (no
 * CHAINETL_STATE_URL) each spend the whole budget, so together they exceed it: the check can fail.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SourceConfig } from "../../src/Config.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { KeyBuckets } from "../../src/source/KeyBuckets.ts"
import { KeyLimiter, type KeyReport } from "../../src/source/KeyLimiter.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { sourceLayer, sourceLayerWithBuckets } from "../../src/source/SourceLayer.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { pgKeyBucketsLayer } from "../../src/state/PgKeyBuckets.ts"
import { testSettings } from "../support/sourceSettings.ts"
import { bucketBound, busiestWindow, expectWithinBudgets, withLoopStalls } from "../support/keyWindows.ts"
import { type RunningPostgres, startPostgres } from "../support/postgres.ts"

const ALPHA = "ka-alpha-5ecret-Sh4red-N0t-T0-Leak"
const BETA = "kb-beta-5ecret-Sh4red-N0t-T0-Leak"
const budgets = { alpha: { rate: 8, burst: 2 }, beta: { rate: 4, burst: 1 } }
// client, emulator and the three pools share this test's event loop; plus the database's round-trip
const JITTER_MS = 150

let pg: RunningPostgres
let emu: RunningEmulator
beforeAll(async () => {
  ;[pg, emu] = await Promise.all([startPostgres(), startEmulator({ seed: 1, recordKeyArrivals: true, auth: { mode: "required", validKeys: [ALPHA, BETA] } })])
}, 60_000)
afterAll(async () => {
  await emu?.close()
  await pg?.stop()
})

const settings = () => SourceConfig.layerWith(testSettings(emu.baseUrl, { apiKeys: `alpha=${ALPHA},beta=${BETA}`, keyBudgets: budgets, concurrency: 4 }))

/** One process's source side: its buckets in PostgreSQL (own pool), or in the process. */
const processLayer = (shared: boolean) =>
  (shared ? sourceLayerWithBuckets.pipe(Layer.provide(pgKeyBucketsLayer(Redacted.make(pg.url)))) : sourceLayer).pipe(
    Layer.provideMerge(settings()),
    Layer.orDie
  )

/** `n` chain-data requests, 4 at a time, in one "process"; its key report. */
const oneProcess = (n: number, shared: boolean): Effect.Effect<ReadonlyArray<KeyReport>> =>
  Effect.gen(function* () {
    const rest = yield* RestClient
    yield* Effect.forEach(Array.from({ length: n }), () => rest.get("data", "/v1/chains/43114"), { concurrency: 4 })
    return yield* (yield* KeyLimiter).report
  }).pipe(Effect.provide(processLayer(shared)), Effect.orDie)

const since = (key: string, start: number) => (emu.keyArrivals().get(key) ?? []).filter((t) => t >= start)

describe("a key's budget shared through PostgreSQL", () => {
  it("given three processes with their own connections and the same two keys, when each sends 24 requests at once, then at the service the three together keep each key within its budget in every window, and both keys are used", async () => {
    const start = performance.now()
    const { value: reports, stallMs } = await withLoopStalls(() =>
      Effect.runPromise(Effect.all([oneProcess(24, true), oneProcess(24, true), oneProcess(24, true)], { concurrency: "unbounded" }))
    )
    const jitter = JITTER_MS + stallMs
    if (process.env["CHAINETL_TEST_VERBOSE"] !== undefined) {
      const r = reports.flat()
      console.log(JSON.stringify({ stallMs, requests: r.reduce((n, k) => n + k.requests, 0), reservations: r.reduce((n, k) => n + k.reservations, 0), dropped: r.reduce((n, k) => n + k.tokensDropped, 0) }))
    }
    const a = since(ALPHA, start)
    const b = since(BETA, start)
    expect(a.length + b.length).toBe(72)
    expect(a.length).toBeGreaterThan(b.length)
    expect(b.length).toBeGreaterThanOrEqual(12)
    expectWithinBudgets({ alpha: { arrivals: a, budget: budgets.alpha }, beta: { arrivals: b, budget: budgets.beta } }, [500, 1_000, 2_000], jitter, ` (loop stall ${stallMs} ms)`)
    // over the whole run as well: the three together sent what one budget allows for that long
    const span = (xs: number[]) => Math.max(...xs) - Math.min(...xs)
    expect(a.length).toBeLessThanOrEqual(bucketBound(budgets.alpha, span(a), jitter))
    expect(b.length).toBeLessThanOrEqual(bucketBound(budgets.beta, span(b), jitter))
    // both keys carried requests, and the processes' reports add up to what the service saw (which
    // key one process got is the buckets' timing: under load one process may see only one key)
    expect(a.length).toBeGreaterThan(0)
    expect(b.length).toBeGreaterThan(0)
    expect(reports.flat().filter((k) => k.name === "alpha").reduce((n, k) => n + k.requests, 0)).toBe(a.length)
    expect(emu.state().requests.rateLimited).toBe(0)
    // one round-trip serves every request of a process waiting at that moment; never more than one per request
    const all = reports.flat()
    const sent = all.reduce((n, k) => n + k.requests, 0)
    expect(all.reduce((n, k) => n + k.reservations, 0)).toBeLessThanOrEqual(sent + all.reduce((n, k) => n + k.tokensDropped, 0))

    // the rows name the keys and a digest, never the secrets
    const rows = await Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ row: string }>`SELECT row_to_json(b)::text AS row FROM chainetl_key_budgets b ORDER BY name`).pipe(
        Effect.provide(pgDatabase(Redacted.make(pg.url))),
        Effect.orDie
      )
    )
    expect(rows.map((r) => JSON.parse(r.row).name)).toEqual(["alpha", "beta"])
    for (const r of rows) {
      expect(r.row).toMatch(/"key_id":"sha256:[0-9a-f]{32}"/)
      expect(r.row).not.toContain(ALPHA)
      expect(r.row).not.toContain(BETA)
    }
  }, 60_000)

  it("given the same three processes with their buckets in process (no shared state), when each sends 24 requests at once, then together they exceed the budget: each spends all of it", async () => {
    const start = performance.now()
    const { stallMs } = await withLoopStalls(() =>
      Effect.runPromise(Effect.all([oneProcess(24, false), oneProcess(24, false), oneProcess(24, false)], { concurrency: "unbounded" }))
    )
    const a = since(ALPHA, start)
    expect(busiestWindow(a, 1_000)).toBeGreaterThan(bucketBound(budgets.alpha, 1_000, JITTER_MS + stallMs))
  }, 60_000)

  it("given rows holding a job's budgets, when a worker starts with its own default budgets (\"keep\"), then the rows keep the job's; when the worker applies a job's budgets, then the rows take them", async () => {
    const rowsOf = () =>
      Effect.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ name: string; ceiling: number; burst: number }>`SELECT name, ceiling, burst FROM chainetl_key_budgets ORDER BY name`).pipe(
          Effect.provide(pgDatabase(Redacted.make(pg.url))),
          Effect.orDie
        )
      )
    const url = Redacted.make(pg.url)
    // the enqueuer's layer ("write") leaves the job's budgets in the rows
    const enqueuer = SourceConfig.layerWith(testSettings(emu.baseUrl, { apiKeys: `alpha=${ALPHA},beta=${BETA}`, keyBudgets: budgets }))
    await Effect.runPromise(Effect.scoped(Layer.build(pgKeyBucketsLayer(url, "write").pipe(Layer.provide(enqueuer), Layer.orDie))))
    // a worker has no job file: its keys get the default budget (rateLimit 1000/s here)
    const workerSettings = SourceConfig.layerWith(testSettings(emu.baseUrl, { apiKeys: `alpha=${ALPHA},beta=${BETA}` }))
    const worker = pgKeyBucketsLayer(url, "keep").pipe(Layer.provide(workerSettings), Layer.orDie)
    const rows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(worker)
          const after = yield* Effect.promise(rowsOf)
          const buckets = Context.get(context, KeyBuckets)
          const keys = (yield* Effect.provide(SourceConfig, workerSettings.pipe(Layer.orDie))).apiKeys
          yield* buckets.apply([{ id: keys[0]!.id, name: "alpha", rate: 3, burst: 1 }]).pipe(Effect.orDie)
          return { after, applied: yield* Effect.promise(rowsOf) }
        })
      )
    )
    expect(rows.after.map((r) => [r.name, Number(r.ceiling), Number(r.burst)])).toEqual([["alpha", 8, 2], ["beta", 4, 1]])
    expect(rows.applied.map((r) => [r.name, Number(r.ceiling), Number(r.burst)])).toEqual([["alpha", 3, 1], ["beta", 4, 1]])
  }, 60_000)
})
