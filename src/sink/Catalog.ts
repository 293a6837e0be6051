/**
 * Builds `<outDir>/catalog.duckdb` (open it with `duckdb output/catalog.duckdb`, or ATTACH it from a
 * notebook) and `<outDir>/catalog.sql` (the same statements: `duckdb -init output/catalog.sql`, or
 * `.read output/catalog.sql`, from any working directory).
 *
 * Views read the parts through absolute paths, so both files work from anywhere but only where
 * the output folder is now: after moving or copying it, run `chainetl catalog` again. Views also
 * reflect which columns the files held when built: rebuild after a run (the runner does).
 *
 * Comments come from the Arrow metadata: `COMMENT ON VIEW` and `COMMENT ON COLUMN` on a view both
 * work on DuckDB 1.5 (see `duckdb_views()` / `duckdb_columns()`); nested fields cannot carry their
 * own, so theirs are appended to the column's.
 *
 * The database is built under a temporary name, closed, then renamed over the old one: a notebook
 * that has the old catalog open keeps reading the old file, and never sees a half-built one.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { type CatalogDataset, type DatasetFiles, datasetStatements, latestStatements, readParquetSql } from "./CatalogSql.ts"
import { fsyncPath } from "./Durable.ts"
import { grainOnDisk } from "./Layout.ts"
import { fileSet } from "./Manifest.ts"

export type { CatalogDataset, CatalogPartitionKey, LatestSpec, PartitionKeyType } from "./CatalogSql.ts"

export const CATALOG_FILE = "catalog.duckdb"
export const CATALOG_SQL_FILE = "catalog.sql"

export interface CatalogBuilt {
  readonly databasePath: string
  readonly sqlPath: string
  /** Datasets that had no part yet and got an empty view. */
  readonly empty: ReadonlyArray<string>
}

const hasParquet = async (dir: string): Promise<boolean> => {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  return entries.some((e) => e.isFile() && e.name.endsWith(".parquet"))
}

/** The dataset's layout at the grain its folder holds (its default while it has no folder). */
export const layoutOnDisk = async (outDir: string, dataset: CatalogDataset): Promise<CatalogDataset> => {
  if (dataset.byGrain === undefined) return dataset
  const grain = await grainOnDisk(outDir, dataset.name)
  return grain === undefined ? dataset : dataset.byGrain[grain]
}

/**
 * What a dataset's parts hold, for its view: the glob and the columns present in any file;
 * undefined while it has no part (read_parquet errors on a glob that matches nothing).
 */
export const datasetFiles = async (connection: DuckDBConnection, outDir: string, dataset: CatalogDataset): Promise<DatasetFiles | undefined> => {
  if (!(await hasParquet(path.join(outDir, dataset.name)))) return undefined
  const glob = path.join(outDir, dataset.name, "**", "*.parquet")
  const { compacted, replaced } = await fileSet(outDir, dataset.name)
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${readParquetSql(dataset, glob)}`)
  return { glob, columns: new Set(described.getRowObjectsJS().map((r) => String(r["column_name"]))), compacted, replaced }
}

const writeAtomically = async (file: string, text: string): Promise<void> => {
  const tmp = `${file}.tmp-${process.pid}`
  await fs.writeFile(tmp, text)
  await fsyncPath(tmp)
  await fs.rename(tmp, file)
}

const removeDatabase = (file: string) =>
  Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.wal`, { force: true })])

const build = async (outDirInput: string, datasets: ReadonlyArray<CatalogDataset>): Promise<CatalogBuilt> => {
  const outDir = path.resolve(outDirInput)
  const databasePath = path.join(outDir, CATALOG_FILE)
  const sqlPath = path.join(outDir, CATALOG_SQL_FILE)
  const tmp = `${databasePath}.tmp-${process.pid}`
  await fs.mkdir(outDir, { recursive: true })
  await removeDatabase(tmp)
  const statements: string[] = []
  const empty: string[] = []
  const db = await DuckDBInstance.create(tmp)
  try {
    const connection = await db.connect()
    try {
      for (const declared of datasets) {
        const dataset = await layoutOnDisk(outDir, declared)
        const files = await datasetFiles(connection, outDir, dataset)
        if (files === undefined) empty.push(dataset.name)
        for (const statement of [...datasetStatements(dataset, files), ...latestStatements(dataset)]) {
          await connection.run(statement)
          statements.push(statement)
        }
      }
    } finally {
      connection.closeSync()
    }
  } finally {
    db.closeSync()
  }
  await fs.rm(`${tmp}.wal`, { force: true })
  await fsyncPath(tmp)
  await fs.rename(tmp, databasePath)
  const header = [
    "-- chainetl catalog: one view per dataset over its Parquet parts.",
    `-- Paths are absolute (${outDir}): after moving the output folder, run \`chainetl catalog\` again.`,
    "-- Use: duckdb -init catalog.sql   or, in a duckdb shell: .read catalog.sql",
    ""
  ]
  await writeAtomically(sqlPath, `${header.join("\n")}\n${statements.join("\n")}\n`)
  await fsyncPath(outDir)
  return { databasePath, sqlPath, empty }
}

/** Rebuilds the catalog of `outDir` for these datasets (the list is the whole catalog). */
export const buildCatalog = (
  outDir: string,
  datasets: ReadonlyArray<CatalogDataset>
): Effect.Effect<CatalogBuilt, SinkError> =>
  Effect.tryPromise({
    try: () => build(outDir, datasets),
    catch: (e) =>
      new SinkError({
        reason: "Catalog",
        path: path.join(path.resolve(outDir), CATALOG_FILE),
        detail: e instanceof Error ? e.message : String(e)
      })
  }).pipe(
    Effect.tapError(() =>
      Effect.promise(() => removeDatabase(path.join(path.resolve(outDir), `${CATALOG_FILE}.tmp-${process.pid}`)))
    )
  )
