/**
 * Reads committed output with SQL, for fan-outs whose keys come from other datasets (transaction
 * hashes found in token_transfers, node ids found in delegators…). Queries name datasets as
 * views: `SELECT DISTINCT tx_hash FROM token_transfers WHERE chain_id = $chain`. A dataset with no
 * parts yet reads as an empty view of the right columns.
 */
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from "@duckdb/node-api"
import { Context, Effect, Layer, Scope } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { SinkError } from "../Errors.ts"
import type { CatalogDataset } from "../sink/CatalogSql.ts"

export type SqlParam = string | number | bigint | boolean | null

type Query = (sql: string, params: Readonly<Record<string, SqlParam>>, datasets: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, SinkError>

export class OutputReader extends Context.Tag("chainetl/OutputReader")<
  OutputReader,
  {
    /** Runs `sql` over views of the named datasets; rows as JS values (DECIMAL → string). */
    readonly query: Query
  }
>() {
  static readonly layer = (outDir: string, catalog: ReadonlyArray<CatalogDataset>) =>
    Layer.succeed(OutputReader, { query: (sql, params, datasets) => queryFiles(outDir, Effect.succeed(catalog), sql, params, datasets) })

  /**
   * For readers outside a run (`status`): the views of `catalog.duckdb` when it has every dataset
   * asked for, else views built from the files as `layer` does (`catalog`, asked for only then,
   * so a reader of the catalog loads no schema). The catalog is opened once, at the first query,
   * and closed with the layer's scope: opening it costs a small fraction of building the views
   * from every file's footer (docs/performance.md#catalog). Inside a run the catalog lags the
   * parts, so the crawl keeps `layer`.
   */
  static readonly layerPreferringCatalog = (outDir: string, catalog: Effect.Effect<ReadonlyArray<CatalogDataset>>) =>
    Layer.scoped(
      OutputReader,
      Effect.gen(function* () {
        const scope = yield* Effect.scope
        const opened = yield* Effect.cached(Scope.extend(openCatalog(path.join(outDir, "catalog.duckdb")), scope))
        const query: Query = (sql, params, datasets) =>
          Effect.orElse(Effect.flatMap(opened, (c) => queryCatalog(c, sql, params, datasets)), () => queryFiles(outDir, catalog, sql, params, datasets))
        return { query }
      })
    )
}

/** The catalog read-only, with the names of its views; undefined when there is none to open. */
interface OpenCatalog {
  readonly instance: DuckDBInstance
  readonly connection: DuckDBConnection
  readonly views: ReadonlySet<string>
}

const openCatalog = (file: string) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<OpenCatalog | undefined> => {
      if (!(await fs.access(file).then(() => true, () => false))) return undefined
      const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" }).catch(() => undefined)
      if (instance === undefined) return undefined
      try {
        const connection = await instance.connect()
        const rows = (await connection.runAndReadAll("SELECT view_name FROM duckdb_views() WHERE NOT internal")).getRowObjectsJS()
        return { instance, connection, views: new Set(rows.map((r) => String(r["view_name"]))) }
      } catch {
        instance.closeSync()
        return undefined
      }
    }),
    (c) =>
      Effect.sync(() => {
        c?.connection.closeSync()
        c?.instance.closeSync()
      })
  )

const queryCatalog = (catalog: OpenCatalog | undefined, sql: string, params: Readonly<Record<string, SqlParam>>, names: ReadonlyArray<string>) =>
  Effect.tryPromise(async () => {
    if (catalog === undefined) throw new Error("no catalog.duckdb to read")
    const missing = names.filter((n) => !catalog.views.has(n))
    if (missing.length > 0) throw new Error(`the catalog lacks ${missing.join(", ")}`)
    const reader = await catalog.connection.runAndReadAll(sql, params as Record<string, DuckDBValue>)
    return reader.getRowObjectsJson() as ReadonlyArray<Record<string, unknown>>
  })

/** Views built from the files (./OutputViews.ts, which loads the catalog's SQL and Arrow, so only when needed). */
const queryFiles = (
  outDir: string,
  catalog: Effect.Effect<ReadonlyArray<CatalogDataset>>,
  sql: string,
  params: Readonly<Record<string, SqlParam>>,
  names: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<Record<string, unknown>>, SinkError> =>
  Effect.flatMap(Effect.zip(Effect.promise(() => import("./OutputViews.ts")), catalog), ([views, entries]) => views.queryFiles(outDir, entries, sql, params, names))
