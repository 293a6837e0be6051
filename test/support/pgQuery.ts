/** SQL against a test's PostgreSQL from the test itself, on a client of its own (not the product's). */
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
