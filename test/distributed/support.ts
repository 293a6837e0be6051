/** What the distributed tests share: SQL against the test's PostgreSQL, and waiting for a condition. */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { jobId } from "../../src/distributed/SliceJob.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"

/** Runs `f` on a fresh client of the database at `url`. */
export const queryPg =
  (url: () => string) =>
  <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    Effect.runPromise(
      Effect.scoped(Effect.flatMap(SqlClient.SqlClient, f)).pipe(Effect.provide(pgDatabase(Redacted.make(url())))) as Effect.Effect<ReadonlyArray<A>, never>
    )

/** Polls `f` every 100 ms until it gives a value; throws naming `what` after `ms`. */
export const until = async <A>(what: string, f: () => Promise<A | undefined>, ms = 60_000): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const got = await f()
    if (got !== undefined) return got
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** One queued job of `output`: a delegators snapshot slice, with the id the enqueuer would give it. */
export const delegatorsJob = (output: string) => {
  const slice = makeSlice("delegators", { network: "mainnet", snapshot_date: "2025-01-01" })
  const job = { outputId: output, runId: "r1", dataset: "delegators", grain: undefined, slice, asOf: 1_735_689_600, ingestedAt: "2025-01-01T00:00:00.000Z", partRows: 100 }
  return { slice, id: jobId(output, "delegators", slice.id), job }
}
