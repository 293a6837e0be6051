/**
 * Whether a merge can concatenate its files instead of sorting their rows. A sort holds every row
 * of the merge (up to a million) in DuckDB's memory or spills it; a concatenation streams them
 * through one row group at a time: a `primary_blocks` month concatenated peaks far lower than
 * sorted, for less CPU, probe and check included (measured: docs/performance.md#compaction-memory;
 * docs/compaction.md).
 *
 * Concatenating is exact when every file is already in the sort order, or every file in its
 * reverse (a newest-first listing writes its parts so), and the files' key ranges do not
 * interleave: the files, put in order of their ranges, then hold the rows in order, ascending or
 * descending. The probe reads the sort columns alone; what it cannot show in order is sorted.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { quotedIdentifier } from "@duckdb/node-api"

export type Direction = "asc" | "desc"

export interface MergePlan {
  /** The order of the merged rows. */
  readonly direction: Direction
  /** Set when the inputs concatenate: in the order that keeps the rows in `direction`; else they are sorted. */
  readonly files?: ReadonlyArray<string>
}

/** Columns the probe adds to the rows it reads: a table holding one of them is always sorted. */
export const PROBE_COLUMNS: ReadonlyArray<string> = ["filename", "file_row_number"]

/** The sort key as one value: DuckDB compares STRUCTs field by field, NULLs last, like ORDER BY. */
const keyOf = (sortBy: ReadonlyArray<string>) => `struct_pack(${sortBy.map(quotedIdentifier).join(", ")})`

/**
 * How to merge `source` (a `read_parquet` of the files, with `filename` and `file_row_number`; its
 * virtual `file_index` is read too): the order in which the files concatenate sorted, when they
 * do; else a sort, in the direction most of the files already follow. Per file: its lowest and
 * highest key and how many steps between consecutive rows go up or down; then whether the files'
 * ranges follow each other without overlap, in either direction. (A sort's direction matters for
 * the next merge: ascending files compacted before parts came descending would otherwise be
 * sorted again every time.)
 */
export const planMerge = async (conn: DuckDBConnection, source: string, sortBy: ReadonlyArray<string>): Promise<MergePlan> => {
  const key = keyOf(sortBy)
  // one window over all rows in file order, a step counted only within a file: partitioning by
  // the file's name, or carrying it through the window, moved a path per row and cost several
  // times the CPU; the names come from a cheap scan of the file columns alone
  // (docs/performance.md#compaction-memory)
  const read = await conn.runAndReadAll(
    `WITH r AS (SELECT file_index AS i, ${key} AS k, lag(${key}) OVER w AS p, lag(file_index) OVER w AS pi FROM ${source} WINDOW w AS (ORDER BY file_index, file_row_number)),
     s AS (SELECT i, min(k) AS lo, max(k) AS hi, count(*) FILTER (WHERE pi = i AND k > p) AS up, count(*) FILTER (WHERE pi = i AND k < p) AS down FROM r GROUP BY i)
     SELECT i, up, down,
       row_number() OVER (ORDER BY lo, hi) AS asc_rank, coalesce(hi <= lead(lo) OVER (ORDER BY lo, hi), true) AS asc_ok,
       row_number() OVER (ORDER BY hi DESC, lo DESC) AS desc_rank, coalesce(lo >= lead(hi) OVER (ORDER BY hi DESC, lo DESC), true) AS desc_ok
     FROM s`
  )
  const names = new Map(
    (await conn.runAndReadAll(`SELECT file_index, any_value(filename) FROM ${source} GROUP BY file_index`)).getRowsJS().map(([i, f]) => [Number(i), String(f)])
  )
  const files = read.getRowsJS().map(([i, up, down, ascRank, ascOk, descRank, descOk]) => {
    const file = names.get(Number(i))
    if (file === undefined) throw new Error(`merge probe: no file name for file_index ${i}`)
    return { file, up: Number(up), down: Number(down), ascRank: Number(ascRank), ascOk: ascOk === true, descRank: Number(descRank), descOk: descOk === true }
  })
  if (files.every((f) => f.down === 0 && f.ascOk)) {
    return { direction: "asc", files: files.sort((a, b) => a.ascRank - b.ascRank).map((f) => f.file) }
  }
  if (files.every((f) => f.up === 0 && f.descOk)) {
    return { direction: "desc", files: files.sort((a, b) => a.descRank - b.descRank).map((f) => f.file) }
  }
  const descending = files.filter((f) => f.down > 0 && f.up === 0).length
  const ascending = files.filter((f) => f.up > 0 && f.down === 0).length
  return { direction: descending > ascending ? "desc" : "asc" }
}

/**
 * The ORDER BY of a sort in `direction`: descending puts NULLs first, the exact reverse of
 * ascending with NULLs last, which is how the probe's STRUCT comparison orders keys.
 */
export const orderBy = (sortBy: ReadonlyArray<string>, direction: Direction): string =>
  sortBy.map((c) => `${quotedIdentifier(c)}${direction === "asc" ? "" : " DESC NULLS FIRST"}`).join(", ")

/** Whether a written file's rows follow `direction` on the sort key (its row order as stored). */
export const inOrder = async (conn: DuckDBConnection, source: string, sortBy: ReadonlyArray<string>, direction: Direction): Promise<boolean> => {
  const key = keyOf(sortBy)
  const read = await conn.runAndReadAll(
    `SELECT count(*) FILTER (WHERE k ${direction === "asc" ? "<" : ">"} p) FROM (SELECT ${key} AS k, lag(${key}) OVER (ORDER BY file_row_number) AS p FROM ${source})`
  )
  return Number(read.getRowsJS()[0]?.[0]) === 0
}
