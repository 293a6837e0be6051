/**
 * Rows per row group of a merged file, from how wide its inputs' rows are. DuckDB's Parquet writer
 * holds a whole row group in memory until it is complete and cannot spill it, so a fixed row count
 * bounds nothing for wide rows: 16,384 nested `staking_transactions` rows (~2.2 KB each as
 * uncompressed Parquet, ~5.7 KB in DuckDB's vectors) are ~90 MB held at once. Concatenating a
 * month of them, 16,384-row groups took more CPU and a higher peak than 4,096-row ones, and did
 * not fit in 128 MB (measured: docs/performance.md#compaction-row-groups; docs/compaction.md).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { quotedString } from "@duckdb/node-api"

/**
 * The most rows a merged row group holds: narrow rows get this many. At DuckDB's 122,880 a
 * `primary_blocks` row group outgrew the compaction's memory limit; 16,384 writes slightly more
 * bytes and gives min/max statistics a finer grain to skip by
 * (docs/performance.md#compaction-row-groups).
 */
export const MERGED_ROW_GROUP_ROWS = 16_384

/** The fewest: DuckDB's vector size. Below it a row group costs its metadata for little data. */
export const MIN_ROW_GROUP_ROWS = 2_048

/**
 * Uncompressed Parquet bytes a row group aims at. `primary_blocks` (~680 bytes a row) and
 * `evm_blocks` stay at 16,384 rows; `staking_transactions` (~2.2 KB) gets 4,096.
 */
export const ROW_GROUP_BYTES = 16 * 2 ** 20

/**
 * The row count for rows of `bytesPerRow` uncompressed bytes: the largest power of two whose row
 * group stays within ROW_GROUP_BYTES, between the two bounds (powers of two, so the inputs' width
 * moving a little does not move the files' row groups).
 */
export const rowGroupRows = (bytesPerRow: number): number => {
  if (!(bytesPerRow > 0)) return MERGED_ROW_GROUP_ROWS
  let rows = MERGED_ROW_GROUP_ROWS
  while (rows > MIN_ROW_GROUP_ROWS && rows * bytesPerRow > ROW_GROUP_BYTES) rows /= 2
  return rows
}

/** The uncompressed bytes of `files`' column chunks, from their footers (the rows' count is the caller's). */
export const uncompressedBytes = async (conn: DuckDBConnection, files: ReadonlyArray<string>): Promise<number> => {
  const read = await conn.runAndReadAll(`SELECT sum(total_uncompressed_size) FROM parquet_metadata([${files.map(quotedString).join(", ")}])`)
  return Number(read.getRowsJS()[0]?.[0] ?? 0)
}

/** The largest row group a merge keeps as it is: a reader holds up to this much of one uncompressed. */
export const KEPT_GROUP_MAX_BYTES = 64 * 2 ** 20

/**
 * Whether a merge may keep its inputs' row groups as they are (ParquetConcat.ts), from their
 * uncompressed bytes (the footers' total_byte_size): none past KEPT_GROUP_MAX_BYTES, and on average
 * at least an eighth of ROW_GROUP_BYTES (2 MB), so the footer stays small for the rows it lists. (A
 * quarter sent the 1M `primary_blocks` folders of ~5,000-row parts back to DuckDB, for more CPU.)
 * So the sink's 10,000-row parts are kept, and the X-chain's parts of a few thousand rows are
 * merged by DuckDB into full row groups (their sizes: docs/performance.md#compaction-row-groups).
 * Nothing is held to write a kept row group, so wide rows need no smaller ones here, unlike a
 * merge DuckDB writes.
 */
export const keepsRowGroups = (groups: ReadonlyArray<{ readonly bytes: bigint }>): boolean => {
  if (groups.length === 0) return false
  const total = groups.reduce((n, g) => n + g.bytes, 0n)
  return groups.every((g) => g.bytes <= BigInt(KEPT_GROUP_MAX_BYTES)) && total * 8n >= BigInt(ROW_GROUP_BYTES) * BigInt(groups.length)
}
