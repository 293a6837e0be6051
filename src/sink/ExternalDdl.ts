/**
 * External-table DDL for the same Parquet folders, for engines that read Hive layouts: Spark
 * (datasource table), Trino (Hive connector) and Athena (Hive DDL). Pure text from each dataset's
 * Arrow schema and Hive keys, like the DuckDB catalog.
 *
 * Types: Utf8 → STRING / varchar; Int32 → INT / integer; Int64 → BIGINT; Float64 → DOUBLE;
 * Bool → BOOLEAN; Binary → BINARY / varbinary; Decimal(38,0) → DECIMAL(38,0); Date → DATE;
 * Timestamp(µs, UTC) → TIMESTAMP (the Parquet column is UTC-adjusted; Trino's Hive connector keeps
 * microseconds with `hive.timestamp-precision=MICROSECONDS`); List → ARRAY<…> / array(…);
 * Struct → STRUCT<name: …> / row(name …). Hive keys are partition columns of their declared type.
 *
 * What these engines read differs from the DuckDB views in one way: they read every Parquet file
 * of a table folder, whereas the views skip the parts a compacted file replaced. Those exist only
 * inside a compaction (between its manifest commit and its deletions, which the same run or
 * `chainetl compact` does right after rebuilding the catalog) or after one was killed (the next
 * run or compaction deletes them), so read with these engines between runs, not during one.
 */
import * as arrow from "../ArrowTypes.ts"
import { COMMENT_KEY, commentOf } from "../../schemas/common.ts"
import type { CatalogDataset, PartitionKeyType } from "./CatalogSql.ts"

export const ENGINES = ["spark", "trino", "athena"] as const
export type Engine = (typeof ENGINES)[number]

interface Dialect {
  readonly id: (name: string) => string
  readonly str: (text: string) => string
  readonly list: (child: string) => string
  readonly struct: (fields: ReadonlyArray<readonly [string, string]>) => string
  readonly scalar: Readonly<Record<"utf8" | "bool" | "binary" | "int32" | "int64" | "double" | "date" | "timestamp", string>>
  readonly decimal: (precision: number, scale: number) => string
}

const hiveString = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`

/** Spark SQL and Hive (Athena) spell types alike; Athena's DDL is Hive's. */
const hiveLike = (upper: boolean): Dialect => {
  const t = (s: string) => (upper ? s.toUpperCase() : s)
  return {
    id: (name) => `\`${name.replaceAll("`", "``")}\``,
    str: hiveString,
    list: (child) => `${t("array")}<${child}>`,
    // Hive's struct field names are bare: chainetl's are snake_case, never needing quotes
    struct: (fields) => `${t("struct")}<${fields.map(([n, ty]) => `${n}:${ty}`).join(",")}>`,
    scalar: { utf8: t("string"), bool: t("boolean"), binary: t("binary"), int32: t("int"), int64: t("bigint"), double: t("double"), date: t("date"), timestamp: t("timestamp") },
    decimal: (p, s) => `${t("decimal")}(${p},${s})`
  }
}

const trino: Dialect = {
  id: (name) => `"${name.replaceAll('"', '""')}"`,
  str: (text) => `'${text.replaceAll("'", "''")}'`,
  list: (child) => `array(${child})`,
  struct: (fields) => `row(${fields.map(([n, ty]) => `"${n}" ${ty}`).join(", ")})`,
  scalar: { utf8: "varchar", bool: "boolean", binary: "varbinary", int32: "integer", int64: "bigint", double: "double", date: "date", timestamp: "timestamp" },
  decimal: (p, s) => `decimal(${p},${s})`
}

const dialects: Readonly<Record<Engine, Dialect>> = { spark: hiveLike(true), athena: hiveLike(false), trino }

/** The engine's spelling of an Arrow type chainetl writes; throws for any other. */
export const engineType = (engine: Engine, type: arrow.DataType): string => {
  const d = dialects[engine]
  switch (type.typeId) {
    case arrow.Type.Utf8:
      return d.scalar.utf8
    case arrow.Type.Bool:
      return d.scalar.bool
    case arrow.Type.Binary:
      return d.scalar.binary
    case arrow.Type.Int:
      if ((type as arrow.Int).bitWidth === 32) return d.scalar.int32
      if ((type as arrow.Int).bitWidth === 64) return d.scalar.int64
      break
    case arrow.Type.Float:
      return d.scalar.double
    case arrow.Type.Decimal:
      return d.decimal((type as arrow.Decimal).precision, (type as arrow.Decimal).scale)
    case arrow.Type.Date:
      return d.scalar.date
    case arrow.Type.Timestamp:
      return d.scalar.timestamp
    case arrow.Type.List:
      return d.list(engineType(engine, (type as arrow.List).children[0]!.type))
    case arrow.Type.Struct:
      return d.struct((type as arrow.Struct).children.map((c) => [c.name, engineType(engine, c.type)] as const))
  }
  throw new Error(`Arrow type ${String(type)} has no ${engine} mapping`)
}

const keyType = (engine: Engine, type: PartitionKeyType): string => {
  const s = dialects[engine].scalar
  const byKey: Record<PartitionKeyType, string> = { VARCHAR: s.utf8, DATE: s.date, BIGINT: s.int64, INTEGER: s.int32, BOOLEAN: s.bool }
  return byKey[type]
}

export interface DdlOptions {
  /** Where the output folder is for the engine: `s3://bucket/prefix`, `file:///data/chainetl`… */
  readonly location: string
  /** Database (Spark, Athena) or schema (Trino) the tables go in. */
  readonly database: string
  /** Trino: the Hive catalog's name. */
  readonly trinoCatalog?: string
}

interface Column {
  readonly name: string
  readonly type: string
  readonly comment: string
}

/** The DDL statements of one dataset: create the external table, then find its partitions. */
export const datasetDdl = (engine: Engine, dataset: CatalogDataset, options: DdlOptions): ReadonlyArray<string> => {
  const d = dialects[engine]
  const keys = new Set(dataset.partitionKeys.map((k) => k.key))
  const data: Column[] = dataset.schema.fields
    .filter((f) => !keys.has(f.name))
    .map((f) => ({ name: f.name, type: engineType(engine, f.type), comment: commentOf(f) }))
  const partitions: Column[] = dataset.partitionKeys.map((k) => {
    const field = dataset.schema.fields.find((f) => f.name === k.key)
    return { name: k.key, type: keyType(engine, k.type), comment: k.comment ?? (field === undefined ? `Hive partition key ${k.key}` : commentOf(field)) }
  })
  const def = (c: Column) => `  ${d.id(c.name)} ${c.type}${c.comment === "" ? "" : ` COMMENT ${d.str(c.comment)}`}`
  const location = `${options.location.replace(/\/+$/, "")}/${dataset.name}`
  const comment = dataset.schema.metadata.get(COMMENT_KEY) ?? ""
  const tableComment = comment === "" ? [] : [`COMMENT ${d.str(comment)}`]
  switch (engine) {
    case "spark": {
      const table = `${d.id(options.database)}.${d.id(dataset.name)}`
      return [
        [
          `CREATE TABLE IF NOT EXISTS ${table} (`,
          [...data, ...partitions].map(def).join(",\n"),
          ")",
          "USING PARQUET",
          ...(partitions.length === 0 ? [] : [`PARTITIONED BY (${partitions.map((p) => d.id(p.name)).join(", ")})`]),
          ...tableComment,
          `LOCATION ${d.str(location)};`
        ].join("\n"),
        ...(partitions.length === 0 ? [] : [`MSCK REPAIR TABLE ${table};`])
      ]
    }
    case "athena": {
      const table = `${d.id(options.database)}.${d.id(dataset.name)}`
      return [
        [
          `CREATE EXTERNAL TABLE IF NOT EXISTS ${table} (`,
          data.map(def).join(",\n"),
          ")",
          ...tableComment,
          ...(partitions.length === 0 ? [] : [`PARTITIONED BY (\n${partitions.map(def).join(",\n")}\n)`]),
          "STORED AS PARQUET",
          `LOCATION ${d.str(`${location}/`)};`
        ].join("\n"),
        ...(partitions.length === 0 ? [] : [`MSCK REPAIR TABLE ${table};`])
      ]
    }
    case "trino": {
      const catalog = options.trinoCatalog ?? "hive"
      const table = `${d.id(catalog)}.${d.id(options.database)}.${d.id(dataset.name)}`
      const props = [
        `external_location = ${d.str(location)}`,
        "format = 'PARQUET'",
        ...(partitions.length === 0 ? [] : [`partitioned_by = ARRAY[${partitions.map((p) => d.str(p.name)).join(", ")}]`])
      ]
      return [
        // the Hive connector wants partition columns last, in partitioned_by's order
        [`CREATE TABLE IF NOT EXISTS ${table} (`, [...data, ...partitions].map(def).join(",\n"), ")", ...tableComment, `WITH (${props.join(", ")});`].join("\n"),
        ...(partitions.length === 0 ? [] : [`CALL ${d.id(catalog)}.system.sync_partition_metadata(${d.str(options.database)}, ${d.str(dataset.name)}, 'ADD');`])
      ]
    }
  }
}

/** The whole script: the database, then every dataset's table. */
export const ddlScript = (engine: Engine, datasets: ReadonlyArray<CatalogDataset>, options: DdlOptions): string => {
  const d = dialects[engine]
  const header =
    engine === "trino"
      ? `CREATE SCHEMA IF NOT EXISTS ${d.id(options.trinoCatalog ?? "hive")}.${d.id(options.database)};`
      : `CREATE DATABASE IF NOT EXISTS ${d.id(options.database)};`
  return `${[header, ...datasets.flatMap((ds) => datasetDdl(engine, ds, options))].join("\n\n")}\n`
}
