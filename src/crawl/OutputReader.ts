/**
 * Reads committed output with SQL, for fan-outs whose keys come from other datasets (transaction
 * hashes found in token_transfers, node ids found in delegators…). Queries name datasets as
 * views: `SELECT DISTINCT tx_hash FROM token_transfers WHERE chain_id = $chain`. A dataset with no
 * parts yet reads as an empty view of the right columns.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api"
import { Context, Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { datasetFiles, layoutOnDisk } from "../sink/Catalog.ts"
import { type CatalogDataset, datasetStatements } from "../sink/CatalogSql.ts"

export type SqlParam = string | number | bigint | boolean | null

export class OutputReader extends Context.Tag("chainetl/OutputReader")<
  OutputReader,
  {
    /** Runs `sql` over views of the named datasets; rows as JS values (DECIMAL → string). */
    readonly query: (
      sql: string,
      params: Readonly<Record<string, SqlParam>>,
      datasets: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<Record<string, unknown>>, SinkError>
  }
>() {
  static readonly layer = (outDir: string, catalog: ReadonlyArray<CatalogDataset>) =>
    Layer.succeed(OutputReader, { query: (sql, params, datasets) => runQuery(outDir, catalog, sql, params, datasets) })

  /**
   * For readers outside a run (`status`): the views of `catalog.duckdb` when it has every dataset
   * asked for (opening it is ~0.2 CPU-s, building the views from every file's footer ~1 s on
   * `npm start`'s output), else views built from the files as `layer` does. Inside a run the
   * catalog lags the parts, so the crawl keeps `layer`.
   */
  static readonly layerPreferringCatalog = (outDir: string, catalog: ReadonlyArray<CatalogDataset>) =>
    Layer.succeed(OutputReader, {
      query: (sql, params, datasets) =>
        Effect.orElse(queryCatalog(path.join(outDir, "catalog.duckdb"), sql, params, datasets), () => runQuery(outDir, catalog, sql, params, datasets))
    })
}

const queryCatalog = (file: string, sql: string, params: Readonly<Record<string, SqlParam>>, names: ReadonlyArray<string>) =>
  Effect.tryPromise(async () => {
    await fs.access(file)
    const db = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" })
    const conn = await db.connect()
    try {
      const views = new Set((await conn.runAndReadAll("SELECT view_name FROM duckdb_views() WHERE NOT internal")).getRowObjectsJS().map((r) => String(r["view_name"])))
      const missing = names.filter((n) => !views.has(n))
      if (missing.length > 0) throw new Error(`the catalog lacks ${missing.join(", ")}`)
      const reader = await conn.runAndReadAll(sql, params as Record<string, DuckDBValue>)
      return reader.getRowObjectsJson() as ReadonlyArray<Record<string, unknown>>
    } finally {
      conn.closeSync()
      db.closeSync()
    }
  })

const runQuery = (
  outDir: string,
  catalog: ReadonlyArray<CatalogDataset>,
  sql: string,
  params: Readonly<Record<string, SqlParam>>,
  names: ReadonlyArray<string>
) =>
  Effect.tryPromise({
    try: async () => {
      const db = await DuckDBInstance.create(":memory:")
      const conn = await db.connect()
      try {
        for (const name of names) {
          const declared = catalog.find((d) => d.name === name)
          if (declared === undefined) throw new Error(`unknown dataset ${name}`)
          const dataset = await layoutOnDisk(outDir, declared)
          const files = await datasetFiles(conn, outDir, dataset)
          // the catalog's own view definitions, minus comments: one truth for how a dataset reads
          for (const statement of datasetStatements(dataset, files)) {
            if (!statement.startsWith("COMMENT")) await conn.run(statement)
          }
        }
        const reader = await conn.runAndReadAll(sql, params as Record<string, DuckDBValue>)
        return reader.getRowObjectsJson() as ReadonlyArray<Record<string, unknown>>
      } finally {
        conn.closeSync()
        db.closeSync()
      }
    },
    catch: (e) => new SinkError({ reason: "Io", path: outDir, detail: `reading output (${names.join(", ")}): ${e instanceof Error ? e.message : String(e)}` })
  })
