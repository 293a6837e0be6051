/**
 * The fence of a held slice (src/distributed/SliceFence.ts) on a real PostgreSQL: a holder whose
 * session the server ended loses its right to write and its checkpoint statement does not land,
 * a confirmation that does not answer in time loses the right for good, and the slice's next
 * holder waits out the fence of a predecessor that did not let go cleanly, and only then.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Exit, Redacted, Scope } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import type { SliceJob } from "../../src/distributed/SliceJob.ts"
import { type HeldSlice, holdSlice } from "../../src/distributed/SliceLocks.ts"
import { isFenceLost } from "../../src/sink/PartFence.ts"
import { checkpointUpsert } from "../../src/state/PgCheckpointStore.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { postgresForTests } from "../support/postgres.ts"

const OUTPUT = "0f5e4d3c-2b1a-4978-8a6b-5c4d3e2f1a0b"
const FENCE_MS = 4_000
const OUT_DIR = path.join(os.tmpdir(), "chainetl-fence-out")

const jobOf = (day: string): SliceJob => ({
  outputId: OUTPUT,
  runId: "r1",
  dataset: "delegators",
  grain: undefined,
  slice: makeSlice("delegators", { network: "mainnet", snapshot_date: day }),
  asOf: 1_735_689_600,
  ingestedAt: "2025-01-01T00:00:00.000Z",
  partRows: 100
})

const held = (h: HeldSlice | "output busy" | "slice busy"): HeldSlice => {
  if (typeof h === "string") throw new Error(`expected to hold the slice, got ${h}`)
  return h
}

/** Ends the holder's session on the server, as a network cut it noticed would, and waits until it is gone. */
const cut = (slice: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [holder] = yield* sql<{ pid: number }>`SELECT backend_pid AS pid FROM chainetl_slice_holders WHERE output_id = ${OUTPUT} AND slice = ${slice}`
    yield* sql`SELECT pg_terminate_backend(${holder!.pid})`
    for (;;) {
      const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${holder!.pid}`
      if (left!.n === 0) return
      yield* Effect.sleep("20 millis")
    }
  })

const lostReason = (fence: HeldSlice["fence"]) =>
  Effect.promise(() => fence.deadline(FENCE_MS).then(() => undefined, (e: unknown) => e))

describe("the fence of a held slice", () => {
  const postgres = postgresForTests()

  const withPg = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient | Scope.Scope>): Promise<A> =>
    Effect.runPromise(Effect.scoped(effect).pipe(Effect.provide(pgDatabase(Redacted.make(postgres().url)))) as Effect.Effect<A>)

  it("given a holder whose session the server ends, when it asks to write, then its right is lost, its checkpoint does not land and the next holder waits out its fence", async () => {
    const job = jobOf("2025-01-01")
    const seen = await withPg(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const first = yield* Scope.make()
        const a = held(yield* Scope.extend(holdSlice(OUT_DIR, job, FENCE_MS), first))
        const beforeCut = yield* Effect.promise(() => a.fence.deadline(10))

        yield* cut(job.slice.id)
        const lost = yield* lostReason(a.fence)
        const confirmed = yield* a.fence.confirm
        const state = { dataset: job.dataset, slice: job.slice.id, lastSeq: 3 } as unknown as CheckpointState
        const saved = yield* Effect.either(a.execute(...checkpointUpsert(OUTPUT, state)))
        yield* Scope.close(first, Exit.void)

        const b = held(yield* holdSlice(OUT_DIR, job, FENCE_MS))
        const checkpoints = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM chainetl_checkpoints WHERE output_id = ${OUTPUT}`
        return { beforeCut, lost, confirmed, saved, waitMs: b.waitMs, checkpoints: checkpoints[0]!.n }
      })
    )
    expect(seen.beforeCut).toBeGreaterThan(performance.now() - 60_000)
    expect(isFenceLost(seen.lost)).toBe(true)
    expect(String((seen.lost as Error).message)).toMatch(/lost the slice's lock \(its PostgreSQL session failed/)
    expect(seen.confirmed).toBe(false)
    expect(Either.isLeft(seen.saved)).toBe(true)
    expect(seen.checkpoints).toBe(0)
    // 1.25 × the fence from the cut holder's confirmation, which is at most a few seconds old
    expect(seen.waitMs).toBeGreaterThan(FENCE_MS * 1.25 - 3_000)
    expect(seen.waitMs).toBeLessThanOrEqual(FENCE_MS * 1.25)
  }, 60_000)

  it("given a holder that let go cleanly, or one whose last confirmation is older than the fence, when another takes the slice, then it waits for nothing", async () => {
    const waits = await withPg(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const clean = jobOf("2025-01-02")
        yield* Effect.scoped(holdSlice(OUT_DIR, clean, FENCE_MS))
        const afterClean = held(yield* Effect.scoped(holdSlice(OUT_DIR, clean, FENCE_MS))).waitMs

        const stale = jobOf("2025-01-03")
        const first = yield* Scope.make()
        const a = held(yield* Scope.extend(holdSlice(OUT_DIR, stale, FENCE_MS), first))
        yield* sql`UPDATE chainetl_slice_holders SET confirmed_at = now() - interval '1 hour' WHERE output_id = ${OUTPUT} AND slice = ${stale.slice.id}`
        yield* cut(stale.slice.id)
        // the holder learns of it, as a worker does before letting go (its dead client then leaves the pool)
        expect(yield* a.fence.confirm).toBe(false)
        yield* Scope.close(first, Exit.void)
        // the cut holder's row is still there: it did not let go cleanly
        const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM chainetl_slice_holders WHERE output_id = ${OUTPUT} AND slice = ${stale.slice.id}`
        expect(rows[0]!.n).toBe(1)
        const afterStale = held(yield* Effect.scoped(holdSlice(OUT_DIR, stale, FENCE_MS))).waitMs
        return { afterClean, afterStale }
      })
    )
    expect(waits).toEqual({ afterClean: 0, afterStale: 0 })
  }, 60_000)

  it("given a confirmation the server does not answer within half the fence, when the holder asks to write, then its right is lost and stays lost once the server answers", async () => {
    const job = jobOf("2025-01-04")
    const seen = await withPg(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const a = held(yield* holdSlice(OUT_DIR, job, FENCE_MS))
        // another session holds the row, so the holder's confirming UPDATE waits
        const lost = yield* sql.withTransaction(
          Effect.zipRight(
            sql`SELECT 1 FROM chainetl_slice_holders WHERE output_id = ${OUTPUT} AND slice = ${job.slice.id} FOR UPDATE`,
            lostReason(a.fence)
          )
        )
        const later = yield* lostReason(a.fence)
        return { lost, later }
      })
    )
    expect(isFenceLost(seen.lost)).toBe(true)
    expect(String((seen.lost as Error).message)).toContain(`PostgreSQL did not confirm it within ${FENCE_MS / 2000} s`)
    expect(seen.later).toBe(seen.lost)
  }, 60_000)
})
