/**
 * The SQL of the DuckDB catalog: one view per dataset over its Parquet parts, typed and commented
 * from the dataset's Arrow schema. Pure text, so the same statements go into `catalog.duckdb` and
 * `catalog.sql`.
 */
import { quotedIdentifier, quotedString } from "@duckdb/node-api"
import * as arrow from "../ArrowTypes.ts"
import { COMMENT_KEY, commentOf } from "../../schemas/common.ts"
import { sqlTypeOf } from "./DuckTypes.ts"
import { assertDatasetName, assertSnakeCase } from "./HivePath.ts"

/** Types a Hive path value can be read as; DuckDB would guess BIGINT for "43114" and DATE for days. */
export type PartitionKeyType = "VARCHAR" | "DATE" | "BIGINT" | "INTEGER" | "BOOLEAN"

export interface CatalogPartitionKey {
  readonly key: string
  readonly type: PartitionKeyType
  /** Used when the schema has no field of that name (a key derived from other columns). */
  readonly comment?: string
}

export interface CatalogDataset {
  readonly name: string
  readonly schema: arrow.Schema
  readonly partitionKeys: ReadonlyArray<CatalogPartitionKey>
  /**
   * A time-partitioned dataset's layout at each grain (src/transform/Grain.ts): the catalog reads the
   * one its folder was written at, whatever the job in hand says.
   */
  readonly byGrain?: Readonly<Record<"day" | "month", CatalogDataset>>
  /** How the `<name>_latest` view picks one row per entity; no such view when absent. */
  readonly latest?: LatestSpec
}

/**
 * One row per entity of a dataset, for its `<name>_latest` view. `key` names an entity across
 * the whole dataset (a dataset's own `key` is only unique within a slice, so the slice's
 * identifying columns join it); the newest ingestion of a key wins (`ingested_at`, then `run_id`).
 * Snapshot datasets set `snapshotScope`, the columns naming one listing that is snapshotted
 * (e.g. `network`, or `chain_id` + `contract_address`): the view keeps each listing's latest
 * `snapshot_date` only, so an entity gone from the newest snapshot (a spent UTXO, a finished
 * delegation no longer listed) is gone from the view too, as it is from the service.
 */
export interface LatestSpec {
  readonly key: ReadonlyArray<string>
  readonly snapshotScope?: ReadonlyArray<string>
}

/** The name of a dataset's de-duplicated view. */
export const latestViewName = (dataset: string): string => `${dataset}_latest`

/** What the files of a dataset hold, found by the builder; `undefined` when it has no part yet. */
export interface DatasetFiles {
  readonly glob: string
  /** Columns present in at least one file or path (union_by_name), so a new field can read as NULL. */
  readonly columns: ReadonlySet<string>
  /** Absolute paths of the live compacted files (the dataset's manifest). */
  readonly compacted?: ReadonlyArray<string>
  /** Absolute paths of parts a compacted file replaces that are still on disk: never read. */
  readonly replaced?: ReadonlyArray<string>
}

/** The file-name column the views filter on; not snake_case, so no schema field takes it. */
export const FILE_COLUMN = "__file"

interface ViewColumn {
  readonly name: string
  readonly sqlType: string
  readonly comment: string
}

/** Nested fields cannot carry a COMMENT in DuckDB, so their comments join the column's. */
const nestedComments = (type: arrow.DataType): string => {
  const children = arrow.DataType.isStruct(type)
    ? type.children
    : arrow.DataType.isList(type)
      ? arrow.DataType.isStruct(type.children[0]!.type)
        ? (type.children[0]!.type as arrow.Struct).children
        : []
      : []
  const described = children.filter((c) => commentOf(c) !== "")
  return described.length === 0 ? "" : ` (fields: ${described.map((c) => `${c.name}: ${commentOf(c)}`).join("; ")})`
}

export const viewColumns = (dataset: CatalogDataset): ReadonlyArray<ViewColumn> => {
  assertDatasetName(dataset.name)
  const fromSchema = dataset.schema.fields.map((f) => ({
    name: f.name,
    sqlType: sqlTypeOf(f.type, f.name),
    comment: `${commentOf(f)}${nestedComments(f.type)}`
  }))
  const extraKeys = dataset.partitionKeys
    .filter((k) => !dataset.schema.fields.some((f) => f.name === k.key))
    .map((k) => {
      assertSnakeCase(k.key, "partition key")
      return { name: k.key, sqlType: k.type, comment: k.comment ?? `Hive partition key ${k.key}` }
    })
  return [...fromSchema, ...extraKeys]
}

/** The table function reading a dataset's parts with its declared partition types. */
export const readParquetSql = (dataset: CatalogDataset, glob: string): string => {
  const hiveTypes = dataset.partitionKeys.map((k) => `${quotedString(k.key)}: ${quotedString(k.type)}`).join(", ")
  return `read_parquet(${quotedString(glob)}, hive_partitioning = true, ${
    hiveTypes === "" ? "" : `hive_types = {${hiveTypes}}, `
  }union_by_name = true, filename = ${quotedString(FILE_COLUMN)})`
}

const sqlList = (paths: ReadonlyArray<string>) => `(${paths.map(quotedString).join(", ")})`

/**
 * Which globbed files a view reads: parts no compacted file replaces, and the compacted files the
 * manifest listed when the view was built. Fixed in the view, so a view built before a compaction
 * never reads its compacted file (nor a later one), and a view built after it never reads the parts
 * it replaced: whatever catalog a reader holds, no row shows twice (docs/compaction.md).
 */
export const liveFilesSql = (files: Pick<DatasetFiles, "compacted" | "replaced">): string => {
  const f = quotedIdentifier(FILE_COLUMN)
  const replaced = files.replaced ?? []
  const compacted = files.compacted ?? []
  const parts = `starts_with(parse_filename(${f}), 'part-')${replaced.length === 0 ? "" : ` AND ${f} NOT IN ${sqlList(replaced)}`}`
  return compacted.length === 0 ? parts : `(${parts}) OR ${f} IN ${sqlList(compacted)}`
}

/** CREATE VIEW and COMMENT statements of one dataset, each ending with `;`. */
export const datasetStatements = (dataset: CatalogDataset, files: DatasetFiles | undefined): ReadonlyArray<string> => {
  const columns = viewColumns(dataset)
  const view = quotedIdentifier(dataset.name)
  const select = columns
    .map((c) => {
      const source = files !== undefined && files.columns.has(c.name) ? quotedIdentifier(c.name) : "NULL"
      return `  CAST(${source} AS ${c.sqlType}) AS ${quotedIdentifier(c.name)}`
    })
    .join(",\n")
  // read_parquet errors on a glob with no file: an empty dataset gets a typed, empty view
  const from = files === undefined ? "WHERE false" : `FROM ${readParquetSql(dataset, files.glob)}\nWHERE ${liveFilesSql(files)}`
  const datasetComment = dataset.schema.metadata.get(COMMENT_KEY) ?? ""
  return [
    `CREATE OR REPLACE VIEW ${view} AS SELECT\n${select}\n${from};`,
    `COMMENT ON VIEW ${view} IS ${quotedString(datasetComment)};`,
    ...columns.map((c) => `COMMENT ON COLUMN ${view}.${quotedIdentifier(c.name)} IS ${quotedString(c.comment)};`)
  ]
}

/** Order of "newest first" among the rows of one key. */
const NEWEST_FIRST = `${quotedIdentifier("ingested_at")} DESC, ${quotedIdentifier("run_id")} DESC`

const idList = (columns: ReadonlyArray<string>) => columns.map(quotedIdentifier).join(", ")

/**
 * The `<name>_latest` view over the raw view (so it reads the same live files) and its comments;
 * nothing when the dataset declares no `latest`. Partition-key filters pass through it to the
 * raw view's scan when the key is a PARTITION BY column of the windows (every partition key
 * but the time key is).
 */
export const latestStatements = (dataset: CatalogDataset): ReadonlyArray<string> => {
  const spec = dataset.latest
  if (spec === undefined) return []
  const columns = viewColumns(dataset)
  const names = new Set(columns.map((c) => c.name))
  const scope = spec.snapshotScope
  for (const c of [...spec.key, ...(scope ?? []), "ingested_at", "run_id", ...(scope === undefined ? [] : ["snapshot_date"])]) {
    if (!names.has(c)) throw new Error(`${dataset.name}: latest view column "${c}" is not a column of the dataset`)
  }
  const raw = quotedIdentifier(dataset.name)
  const view = quotedIdentifier(latestViewName(dataset.name))
  const snap = quotedIdentifier("snapshot_date")
  const newest = `row_number() OVER (PARTITION BY ${idList(spec.key)} ORDER BY ${scope === undefined ? "" : `${snap} DESC, `}${NEWEST_FIRST}) = 1`
  const qualify =
    scope === undefined
      ? newest
      : `${snap} = max(${snap}) OVER (${scope.length === 0 ? "" : `PARTITION BY ${idList(scope)}`}) AND ${newest}`
  const what =
    scope === undefined
      ? `one row per ${spec.key.join(", ")}: the newest ingestion`
      : `the latest snapshot_date of each ${scope.length === 0 ? "run" : scope.join(", ")}, one row per ${spec.key.join(", ")} in it`
  const datasetComment = dataset.schema.metadata.get(COMMENT_KEY) ?? ""
  return [
    `CREATE OR REPLACE VIEW ${view} AS SELECT * FROM ${raw}\nQUALIFY ${qualify};`,
    `COMMENT ON VIEW ${view} IS ${quotedString(`${datasetComment}${datasetComment === "" ? "" : ". "}Latest view of ${dataset.name}: ${what}`)};`,
    ...columns.map((c) => `COMMENT ON COLUMN ${view}.${quotedIdentifier(c.name)} IS ${quotedString(c.comment)};`)
  ]
}
