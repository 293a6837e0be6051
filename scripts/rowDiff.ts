/**
 * Two chainetl outputs' catalogs side by side in one DuckDB connection, and a view's rows compared
 * EXCEPT ALL both ways: what `scripts/sameRows.ts` reports and what the reliability tests' oracle
 * (`test/reliability/compare.ts`) asserts on, so both read rows the same way.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as path from "node:path"

/** Lineage: differs between any two runs by design. */
export const LINEAGE = ["run_id", "ingested_at"] as const

export type Side = "a" | "b"

export interface RowCounts {
  readonly rowsA: number
  readonly rowsB: number
  /** Rows of A not in B and of B not in A, counted with multiplicity (EXCEPT ALL). */
  readonly onlyA: number
  readonly onlyB: number
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`
export const ident = (s: string) => `"${s.replaceAll('"', '""')}"`

/** Attaches `outA`'s catalog as `a` and `outB`'s as `b`, read-only. */
export const attachOutputs = async (conn: DuckDBConnection, outA: string, outB: string): Promise<void> => {
  await conn.run(`ATTACH ${quote(path.join(outA, "catalog.duckdb"))} AS a (READ_ONLY)`)
  await conn.run(`ATTACH ${quote(path.join(outB, "catalog.duckdb"))} AS b (READ_ONLY)`)
}

/** The views of one side's catalog, by name. */
export const viewsOf = async (conn: DuckDBConnection, side: Side): Promise<string[]> =>
  (await conn.runAndReadAll(`SELECT view_name FROM duckdb_views() WHERE database_name = ${quote(side)} AND NOT internal ORDER BY 1`))
    .getRows()
    .map(([v]) => String(v))

/** A view's columns on one side, in order. */
export const columnsOf = async (conn: DuckDBConnection, side: Side, view: string): Promise<string[]> =>
  (await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE ${side}.${ident(view)})`)).getRows().map(([c]) => String(c))

/** A view's row count on one side. */
export const rowCount = async (conn: DuckDBConnection, side: Side, view: string): Promise<number> =>
  Number((await conn.runAndReadAll(`SELECT count(*) FROM ${side}.${ident(view)}`)).getRows()[0]![0])

/**
 * `view`'s rows on both sides as the SELECT lists `listA` and `listB` make them, compared EXCEPT
 * ALL both ways. Each side is read once, each row as a 64-bit hash of all its columns: DuckDB
 * compares nested rows (a staking transaction's lists of structs) slowly, reading a view again per
 * count re-reads its files, and materialising rows costs most of all, as JSON text more still, as
 * hashes least (measured: docs/performance.md#the-bench-and-its-scripts). Equal rows hash equal,
 * so every difference the hashes show is real; two different rows of equal hash would hide one,
 * at a chance of ~2^-64 a pair.
 */
export const diffRows = async (conn: DuckDBConnection, view: string, listA: string, listB: string): Promise<RowCounts> => {
  for (const [side, list] of [["a", listA], ["b", listB]] as const) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE side_${side} AS SELECT hash(s) AS r FROM (SELECT ${list} FROM ${side}.${ident(view)}) s`)
  }
  const [rowsA, rowsB, onlyA, onlyB] = (
    await conn.runAndReadAll(
      `SELECT (SELECT count(*) FROM side_a), (SELECT count(*) FROM side_b),
              (SELECT count(*) FROM (SELECT r FROM side_a EXCEPT ALL SELECT r FROM side_b)),
              (SELECT count(*) FROM (SELECT r FROM side_b EXCEPT ALL SELECT r FROM side_a))`
    )
  )
    .getRows()[0]!
    .map(Number) as [number, number, number, number]
  return { rowsA, rowsB, onlyA, onlyB }
}
