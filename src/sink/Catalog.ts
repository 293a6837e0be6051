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
 * that has the old catalog open keeps reading the old file, and never sees a half-built one. It
 * starts as a copy of the cached catalog of empty datasets (CatalogTemplate.ts), so only the
 * views of datasets with files are built each time.
 */
import { type DuckDBConnection, quotedIdentifier, quotedString } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { type CatalogDataset, type DatasetFiles, datasetStatements, FILE_COLUMN, latestStatements } from "./CatalogSql.ts"
import { type CatalogBatch, catalogTemplate, databaseContent, runBatches, withDatabase } from "./CatalogTemplate.ts"
import { replaceFile } from "../files/Durable.ts"
import { grainOnDisk } from "./Layout.ts"
import { fileSet } from "../compact/Manifest.ts"
import { recordSchema, SCHEMA_TABLE, type SchemaHistory } from "./SchemaVersions.ts"

export type { CatalogDataset, CatalogPartitionKey, LatestSpec, PartitionKeyType } from "./CatalogSql.ts"

export const CATALOG_FILE = "catalog.duckdb"
export const CATALOG_SQL_FILE = "catalog.sql"

export interface CatalogBuilt {
  readonly databasePath: string
  readonly sqlPath: string
  /** Datasets that had no part yet and got an empty view. */
  readonly empty: ReadonlyArray<string>
}

/** Whether any Parquet file lies below `dir` (read_parquet errors on a glob matching none). */
export const hasParquet = async (dir: string): Promise<boolean> => {
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

/** What a dataset's parts hold: for its view, and each file's top-level columns for the schema table. */
export interface FilesOnDisk extends DatasetFiles {
  /** Per file, its top-level columns sorted and joined by "," (partition keys are in the path, not the file). */
  readonly fileColumns: ReadonlyArray<string>
}

/**
 * What a dataset's parts hold, for its view: the glob and the columns present in any file or path;
 * undefined while it has no part (read_parquet errors on a glob that matches nothing).
 *
 * One read of each footer's schema gives both the view's columns and each file's: a DESCRIBE of
 * the glob and a parquet_metadata() of it read every footer twice, a cost growing with the files
 * (measured: docs/performance.md#catalog).
 */
export const datasetFiles = async (connection: DuckDBConnection, outDir: string, dataset: CatalogDataset): Promise<FilesOnDisk | undefined> => {
  if (!(await hasParquet(path.join(outDir, dataset.name)))) return undefined
  const root = path.join(outDir, dataset.name)
  const glob = path.join(root, "**", "*.parquet")
  const { compacted, replaced } = await fileSet(outDir, dataset.name)
  const byFile = await topLevelColumns(connection, glob)
  const columns = new Set<string>([FILE_COLUMN])
  for (const [file, names] of byFile) {
    for (const name of names) columns.add(name)
    // hive_partitioning reads a column from every `key=value` folder of the path
    for (const segment of path.relative(root, path.dirname(file)).split(path.sep)) {
      const eq = segment.indexOf("=")
      if (eq > 0) columns.add(segment.slice(0, eq))
    }
  }
  const fileColumns = [...byFile.values()].map((names) => [...names].sort().join(","))
  return { glob, columns, compacted, replaced, fileColumns }
}

/**
 * The top-level column names of each file of a glob, from parquet_schema(): its rows are each
 * file's schema tree depth first (column_id 0 the root), so the top-level columns are the
 * elements reached from the root's first child by skipping each one's subtree. A file's elements
 * come back as one string ("children US name RS …"): converting thousands of values one by one
 * cost a run more on this once-per-run (cold) path (docs/performance.md#catalog).
 */
const topLevelColumns = async (connection: DuckDBConnection, glob: string): Promise<ReadonlyMap<string, ReadonlyArray<string>>> => {
  const reader = await connection.runAndReadAll(
    `SELECT file_name, string_agg(coalesce(num_children, 0) || chr(31) || name, chr(30) ORDER BY column_id) FROM parquet_schema(${quotedString(glob)}) GROUP BY file_name`
  )
  const byFile = new Map<string, ReadonlyArray<string>>()
  for (const [file, tree] of reader.getRowsJS() as Array<[string, string]>) {
    const elements = tree.split("\x1e").map((e) => {
      const us = e.indexOf("\x1f")
      return { children: Number(e.slice(0, us)), name: e.slice(us + 1) }
    })
    const skip = (i: number): number => {
      let next = i + 1
      for (let c = elements[i]!.children; c > 0; c--) next = skip(next)
      return next
    }
    const top: string[] = []
    for (let c = elements[0]!.children, next = 1; c > 0; c--) {
      top.push(elements[next]!.name)
      next = skip(next)
    }
    byFile.set(file, top)
  }
  return byFile
}

/**
 * The `chainetl_schema_versions` table: per dataset with files, every version of its history, the
 * current one marked, and how many files hold exactly that version's columns (partition keys are
 * in the path, not the file).
 */
const schemaTableStatements = (
  entries: ReadonlyArray<{ readonly dataset: CatalogDataset; readonly history: SchemaHistory; readonly files: ReadonlyArray<string> }>
): ReadonlyArray<string> => {
  const values = entries.flatMap(({ dataset, history, files }) => {
    const inPath = new Set(dataset.partitionKeys.map((k) => k.key))
    return history.versions.map((v, i) => {
      const stored = v.columns.map((c) => c.name).filter((n) => !inPath.has(n)).sort().join(",")
      const count = files.filter((f) => f === stored).length
      const columns = `[${v.columns.map((c) => quotedString(`${c.name} ${c.type}`)).join(", ")}]`
      return `(${quotedString(dataset.name)}, ${v.version}, ${quotedString(v.hash)}, ${columns}, ${quotedString(v.firstSeen)}::TIMESTAMPTZ, ${i === history.versions.length - 1}, ${count})`
    })
  })
  const table = quotedIdentifier(SCHEMA_TABLE)
  return [
    `CREATE OR REPLACE TABLE ${table} (dataset VARCHAR, version INTEGER, schema_hash VARCHAR, columns VARCHAR[], first_seen TIMESTAMPTZ, is_current BOOLEAN, files INTEGER);`,
    ...(values.length === 0 ? [] : [`INSERT INTO ${table} VALUES\n${values.join(",\n")};`]),
    `COMMENT ON TABLE ${table} IS ${quotedString("Schema versions of each dataset with files: version (1, 2, … in the order catalog builds met them), SHA-256 prefix of its columns and types, its columns, whether it is the current one, and how many files on disk hold exactly its columns")};`
  ]
}

const sameStatements = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => a.length === b.length && a.every((s, i) => s === b[i])

const build = async (outDirInput: string, datasets: ReadonlyArray<CatalogDataset>): Promise<CatalogBuilt> => {
  const outDir = path.resolve(outDirInput)
  const databasePath = path.join(outDir, CATALOG_FILE)
  const sqlPath = path.join(outDir, CATALOG_SQL_FILE)
  const statements: string[] = []
  const empty: string[] = []
  const versions: Array<Parameters<typeof schemaTableStatements>[0][number]> = []
  const now = new Date()
  // what every dataset's view is with no files: from the cached template, only the datasets
  // whose view differs are built here (CatalogTemplate.ts)
  const emptyBatches = datasets.map((d): CatalogBatch => ({ dataset: d.name, statements: [...datasetStatements(d, undefined), ...latestStatements(d)] }))
  const template = await catalogTemplate(emptyBatches)
  const fill = async (tmp: string) => {
    if (template !== undefined) await fs.copyFile(template, tmp)
    await withDatabase(tmp, async (connection) => {
      // a dataset's footers are read by its schema pass, then by its view and its latest view: once
      // with the cache (this instance's only, gone with it; a setting, not stored in the file)
      await connection.run("SET parquet_metadata_cache = true")
      // first what the files hold (footers read in parallel), then the DDL in a few batches
      const batches: CatalogBatch[] = []
      for (const [i, declared] of datasets.entries()) {
        const dataset = await layoutOnDisk(outDir, declared)
        const files = await datasetFiles(connection, outDir, dataset)
        if (files === undefined) empty.push(dataset.name)
        else versions.push({ dataset, history: await recordSchema(outDir, dataset.name, dataset.schema, now), files: files.fileColumns })
        const batch = { dataset: dataset.name, statements: [...datasetStatements(dataset, files), ...latestStatements(dataset)] }
        statements.push(...batch.statements)
        const inTemplate = template !== undefined && sameStatements(batch.statements, emptyBatches[i]!.statements)
        if (!inTemplate) batches.push(batch)
      }
      const schemaTable = { dataset: SCHEMA_TABLE, statements: schemaTableStatements(versions) }
      statements.push(...schemaTable.statements)
      await runBatches(connection, [...batches, schemaTable])
    })
  }
  await replaceFile(databasePath, databaseContent(fill))
  const header = [
    "-- chainetl catalog: one view per dataset over its Parquet parts.",
    `-- Paths are absolute (${outDir}): after moving the output folder, run \`chainetl catalog\` again.`,
    "-- Use: duckdb -init catalog.sql   or, in a duckdb shell: .read catalog.sql",
    ""
  ]
  await replaceFile(sqlPath, `${header.join("\n")}\n${statements.join("\n")}\n`)
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
  })
