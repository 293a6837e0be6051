/**
 * The SQL of the report's figures, over the catalog's views (pure text). Each dataset's rows are
 * counted per listing (its Hive keys but the time ones) and per day, by the first of: its `date`
 * column (the day of the record's own time), its `snapshot_date` (the day of the snapshot), or the
 * UTC day its rows were ingested (datasets with neither: metrics months, metadata, fan-outs).
 */
import { quotedIdentifier, quotedString } from "@duckdb/node-api"
import type { CatalogDataset, DatasetFiles } from "../sink/CatalogSql.ts"
import { liveFilesSql } from "../sink/CatalogSql.ts"
import type { DayColumn } from "./model.ts"

const TIME_KEYS: ReadonlySet<string> = new Set(["date", "month", "snapshot_date"])

/**
 * Block datasets: every height between a listing's lowest and highest is a block of its chain, so
 * a height in between that is absent is missing data. Sparse height-ordered datasets (transfers of
 * a few contracts) are not here. A new block dataset adds its height column.
 */
export const HEIGHT_COLUMNS: Readonly<Record<string, string>> = {
  primary_blocks: "block_number",
  evm_blocks: "block_number",
  node_x_blocks: "height",
  node_p_blocks: "height"
}

/** The Hive keys naming a listing: all but the time keys, in folder order. */
export const listingKeys = (d: CatalogDataset): ReadonlyArray<string> => d.partitionKeys.map((k) => k.key).filter((k) => !TIME_KEYS.has(k))

/** The dataset's time Hive key (`date`, `month`, `snapshot_date`), if it has one. */
export const timeKey = (d: CatalogDataset): string | undefined => d.partitionKeys.map((k) => k.key).find((k) => TIME_KEYS.has(k))

/** `date` is a column at month grain and a Hive key at day grain: either way the view has it. */
export const dayColumnOf = (d: CatalogDataset): DayColumn => {
  const has = (name: string) => d.schema.fields.some((f) => f.name === name) || d.partitionKeys.some((k) => k.key === name)
  return has("date") ? "date" : has("snapshot_date") ? "snapshot_date" : "ingested_at"
}

const listingSql = (keys: ReadonlyArray<string>): string =>
  keys.length === 0 ? "''" : `concat_ws('/', ${keys.map((k) => `coalesce(CAST(${quotedIdentifier(k)} AS VARCHAR), 'NULL')`).join(", ")})`

const daySql = (c: DayColumn): string =>
  c === "ingested_at" ? `CAST(timezone('UTC', ${quotedIdentifier(c)}) AS DATE)` : quotedIdentifier(c)

/** Rows of the view and its newest ingestion (UTC, ISO). */
export const totalsSql = (d: CatalogDataset): string =>
  `SELECT count(*)::VARCHAR AS rows, strftime(timezone('UTC', max(ingested_at)), '%Y-%m-%dT%H:%M:%SZ') AS newest_ingest FROM ${quotedIdentifier(d.name)}`

/** Rows per listing and day; rows without a day (a NULL date) are left out. */
export const rowsPerDaySql = (d: CatalogDataset, c: DayColumn): string =>
  `SELECT ${listingSql(listingKeys(d))} AS listing, strftime(${daySql(c)}, '%Y-%m-%d') AS day, count(*)::VARCHAR AS rows
FROM ${quotedIdentifier(d.name)} WHERE ${daySql(c)} IS NOT NULL GROUP BY ALL ORDER BY listing, day`

/**
 * Runs of consecutive heights per listing (gaps and islands: within a run, height minus its rank
 * is constant), as exact decimal strings.
 */
export const heightIslandsSql = (d: CatalogDataset, column: string): string => {
  const h = quotedIdentifier(column)
  return `SELECT listing, min(h)::VARCHAR AS "from", max(h)::VARCHAR AS "to" FROM (
  SELECT listing, h, h - row_number() OVER (PARTITION BY listing ORDER BY h) AS island
  FROM (SELECT DISTINCT ${listingSql(listingKeys(d))} AS listing, ${h} AS h FROM ${quotedIdentifier(d.name)} WHERE ${h} IS NOT NULL)
) GROUP BY listing, island ORDER BY listing, min(h)`
}

/**
 * The files the dataset's view reads (the same filter as the view: parts no compacted file
 * replaces, and the manifest's compacted files), with rows and bytes from their footers.
 */
export const liveFilesMetadataSql = (files: Pick<DatasetFiles, "glob" | "compacted" | "replaced">): string =>
  `SELECT "__file" AS file, num_rows::VARCHAR AS rows, file_size_bytes::VARCHAR AS bytes
FROM (SELECT file_name AS "__file", num_rows, file_size_bytes FROM parquet_file_metadata(${quotedString(files.glob)}))
WHERE ${liveFilesSql(files)} ORDER BY file`
