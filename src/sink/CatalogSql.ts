/**
 * The SQL of the DuckDB catalog: one view per dataset over its Parquet parts, typed and commented
 * from the dataset's Arrow schema. Pure text, so the same statements go into `catalog.duckdb` and
 * `catalog.sql`.
 */
import { quotedIdentifier, quotedString } from "@duckdb/node-api"
import * as arrow from "apache-arrow"
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
   * A time-partitioned dataset's layout at each grain (src/crawl/Grain.ts): the catalog reads the
   * one its folder was written at, whatever the job in hand says.
   */
  readonly byGrain?: Readonly<Record<"day" | "month", CatalogDataset>>
}

/** What the files of a dataset hold, found by the builder; `undefined` when it has no part yet. */
export interface DatasetFiles {
  readonly glob: string
  /** Columns present in at least one file or path (union_by_name), so a new field can read as NULL. */
  readonly columns: ReadonlySet<string>
}

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
  }union_by_name = true)`
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
  const from = files === undefined ? "WHERE false" : `FROM ${readParquetSql(dataset, files.glob)}`
  const datasetComment = dataset.schema.metadata.get(COMMENT_KEY) ?? ""
  return [
    `CREATE OR REPLACE VIEW ${view} AS SELECT\n${select}\n${from};`,
    `COMMENT ON VIEW ${view} IS ${quotedString(datasetComment)};`,
    ...columns.map((c) => `COMMENT ON COLUMN ${view}.${quotedIdentifier(c.name)} IS ${quotedString(c.comment)};`)
  ]
}
