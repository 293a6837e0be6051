/**
 * One DuckDB over an output folder for the length of a verify: each dataset's views built from its
 * files once, as the catalog builds them (its raw view, its `_latest` view, and a view of its live
 * files with each row's file name, to say which slice's part a row came from), and Parquet footers
 * read with parquet_file_metadata. Reads only; the catalog file is not opened (it may lag the files).
 */
import { DuckDBInstance, type DuckDBValue, quotedIdentifier, quotedString } from "@duckdb/node-api"
import { datasetFiles, layoutOnDisk } from "../sink/Catalog.ts"
import { type CatalogDataset, datasetStatements, FILE_COLUMN, latestStatements, liveFilesSql, readParquetSql } from "../sink/CatalogSql.ts"

export interface Session {
  /** Builds the dataset's views (once); false when it has no file. */
  readonly views: (dataset: CatalogDataset) => Promise<{ readonly name: string; readonly hasFiles: boolean; readonly filesView: string; readonly latest?: string }>
  readonly all: (sql: string, params?: Readonly<Record<string, DuckDBValue>>) => Promise<ReadonlyArray<Record<string, unknown>>>
  /** Rows in each file's footer; a file that cannot be read is absent from the map. */
  readonly footerRows: (files: ReadonlyArray<string>) => Promise<ReadonlyMap<string, number>>
  readonly close: () => void
}

export const openSession = async (outDir: string): Promise<Session> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const built = new Map<string, Awaited<ReturnType<Session["views"]>>>()
  return {
    views: async (declared) => {
      const known = built.get(declared.name)
      if (known !== undefined) return known
      const dataset = await layoutOnDisk(outDir, declared)
      const files = await datasetFiles(conn, outDir, dataset)
      for (const s of [...datasetStatements(dataset, files), ...latestStatements(dataset)]) if (!s.startsWith("COMMENT")) await conn.run(s)
      const filesView = quotedIdentifier(`${dataset.name}__verify_files`)
      await conn.run(
        files === undefined
          ? `CREATE OR REPLACE VIEW ${filesView} AS SELECT *, NULL::VARCHAR AS ${quotedIdentifier(FILE_COLUMN)} FROM ${quotedIdentifier(dataset.name)} WHERE false`
          : `CREATE OR REPLACE VIEW ${filesView} AS SELECT * FROM ${readParquetSql(dataset, files.glob)} WHERE ${liveFilesSql(files)}`
      )
      const views = { name: quotedIdentifier(dataset.name), hasFiles: files !== undefined, filesView, ...(dataset.latest === undefined ? {} : { latest: quotedIdentifier(`${dataset.name}_latest`) }) }
      built.set(declared.name, views)
      return views
    },
    all: async (sql, params = {}) => (await conn.runAndReadAll(sql, params as Record<string, DuckDBValue>)).getRowObjectsJson() as ReadonlyArray<Record<string, unknown>>,
    footerRows: async (files) => {
      const rows = new Map<string, number>()
      // one file at a time: a file that is not Parquet fails alone instead of the whole read
      for (const f of files) {
        const r = await conn.runAndReadAll(`SELECT num_rows::BIGINT AS n FROM parquet_file_metadata(${quotedString(f)})`).catch(() => undefined)
        const n = r?.getRowObjectsJson()[0]?.["n"]
        if (n !== undefined && n !== null) rows.set(f, Number(n))
      }
      return rows
    },
    close: () => {
      conn.closeSync()
      db.closeSync()
    }
  }
}
