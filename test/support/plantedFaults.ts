/**
 * Faults planted in an output for the verify --repair and backfill --refetch tests: a Parquet file
 * rewritten with what a query makes of its rows (a link broken, a row twice), and the re-crawl
 * command verify printed, taken from its output to be run by hand.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { promises as fs } from "node:fs"

/** Rewrites a Parquet file with what `select` makes of its rows (read without its folders' Hive keys). */
export const rewriteParquet = async (file: string, select: (rows: string) => string): Promise<void> => {
  const db = await DuckDBInstance.create(":memory:", { threads: "1" })
  const conn = await db.connect()
  try {
    const tmp = `${file}.planted`
    await conn.run(`COPY (${select(`read_parquet('${file}', hive_partitioning = false)`)}) TO '${tmp}' (FORMAT parquet)`)
    await fs.rename(tmp, file)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** The arguments of each `re-crawl: chainetl …` line verify printed, in order, without the program name. */
export const printedRecrawls = (stdout: string): ReadonlyArray<ReadonlyArray<string>> =>
  [...stdout.matchAll(/^ {5}re-crawl: chainetl (.+)$/gm)].map((m) => m[1]!.split(" "))
