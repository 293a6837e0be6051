/**
 * Views of a dataset built from its files, in a DuckDB of its own: what OutputReader queries when
 * there is no catalog to read (inside a run, where the catalog lags the parts, or an output whose
 * catalog lacks a dataset). Loaded only then: it needs the catalog's SQL and, through it, Arrow.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api"
import { Effect } from "effect"
import { SinkError } from "../Errors.ts"
import { datasetFiles, layoutOnDisk } from "../sink/Catalog.ts"
import { type CatalogDataset, datasetStatements } from "../sink/CatalogSql.ts"
import type { SqlParam } from "./OutputReader.ts"

export const queryFiles = (
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
