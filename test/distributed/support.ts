/** What the distributed tests share: SQL against the test's PostgreSQL, and waiting for a condition. */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
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
