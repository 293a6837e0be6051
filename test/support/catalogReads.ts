/**
 * Reads of an output folder's catalog, for the tests that compare a crawl with the emulator: the
 * types and comments DuckDB reports for a view, the rejects a dataset wrote, rows in an order
 * that does not depend on how the parts were written.
 */
import * as path from "node:path"
import { query } from "./spine.ts"

export type Rec = Record<string, unknown>

/** The catalog of an output folder. */
export const catalogOf = (out: string) => path.join(out, "catalog.duckdb")

/** Column name → DuckDB type of a view. */
export const columnTypes = async (out: string, view: string): Promise<Record<string, string>> =>
  Object.fromEntries((await query(catalogOf(out), `DESCRIBE ${view}`)).map((r) => [String(r["column_name"]), String(r["column_type"])]))

/** Columns of a view whose comment is empty (every column must say what it holds). */
export const uncommentedColumns = async (out: string, view: string): Promise<string[]> =>
  (await query(catalogOf(out), `SELECT column_name, comment FROM duckdb_columns() WHERE table_name = '${view}'`))
    .filter((r) => typeof r["comment"] !== "string" || (r["comment"] as string).trim() === "")
    .map((r) => String(r["column_name"]))

/** Reasons of the rejects a dataset wrote, sorted. */
export const rejectReasons = async (out: string, dataset: string): Promise<string[]> =>
  (await query(catalogOf(out), `SELECT reason FROM _rejects WHERE dataset = '${dataset}' ORDER BY reason`)).map((r) => String(r["reason"]))

/** Sorts in place by the text of `key` (byte order, as the service's ids compare). */
export const sortBy = <T>(xs: T[], key: (x: T) => string): T[] => xs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))

/** Rows of a query over the folder's catalog; ordered by the text of `key` when given. */
export const rows = async (out: string, sql: string, key?: (r: Rec) => string): Promise<Rec[]> => {
  const got = await query(catalogOf(out), sql)
  return key === undefined ? got : sortBy(got, key)
}

/** A comparator on the text of some columns, so expected and actual rows compare as lists. */
export const byKey =
  <T extends Rec>(...keys: ReadonlyArray<keyof T>) =>
  (a: T, b: T): number => {
    const k = (r: T) => keys.map((key) => String(r[key])).join("|")
    return k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0
  }

/** JSON text with bigints as strings (DuckDB's JS values hold bigints). */
export const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)))
