/**
 * The catalog as the report reads it: `catalog.duckdb` opened read-only for the whole report, so
 * every figure comes from one state of the views (a run rebuilding the catalog meanwhile renames a
 * new file over it; this reader keeps the old one).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Context, Effect, Layer } from "effect"
import { ReportError } from "../Errors.ts"

export interface Table {
  readonly columns: ReadonlyArray<string>
  /** Values as DuckDB's JSON conversion gives them: BIGINT and DECIMAL as strings, DOUBLE as numbers. */
  readonly rows: ReadonlyArray<ReadonlyArray<unknown>>
}

export class CatalogReader extends Context.Tag("chainetl/CatalogReader")<
  CatalogReader,
  {
    /** Rows as objects; `what` names the figure in an error. */
    readonly rows: (sql: string, what: string) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, ReportError>
    /** Rows as arrays with the column names, in the statement's order. */
    readonly table: (sql: string, what: string) => Effect.Effect<Table, ReportError>
  }
>() {
  static readonly layer = (catalogFile: string) =>
    Layer.scoped(
      CatalogReader,
      Effect.gen(function* () {
        const fail = (what: string) => (e: unknown) =>
          new ReportError({ reason: "Read", what, detail: (e instanceof Error ? e.message : String(e)).split("\n").filter((l) => l.trim() !== "").slice(0, 3).join(" ") })
        const db = yield* Effect.acquireRelease(
          Effect.tryPromise({ try: () => DuckDBInstance.create(catalogFile, { access_mode: "READ_ONLY" }), catch: fail(catalogFile) }),
          (d) => Effect.sync(() => d.closeSync())
        )
        const conn = yield* Effect.acquireRelease(
          Effect.tryPromise({ try: () => db.connect(), catch: fail(catalogFile) }),
          (c) => Effect.sync(() => c.closeSync())
        )
        return {
          rows: (sql, what) =>
            Effect.tryPromise({ try: async () => (await conn.runAndReadAll(sql)).getRowObjectsJson() as ReadonlyArray<Record<string, unknown>>, catch: fail(what) }),
          table: (sql, what) =>
            Effect.tryPromise({
              try: async () => {
                const r = await conn.runAndReadAll(sql)
                return { columns: r.columnNames(), rows: r.getRowsJson() as ReadonlyArray<ReadonlyArray<unknown>> }
              },
              catch: fail(what)
            })
        }
      })
    )
}
