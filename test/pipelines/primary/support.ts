/** What the primary REST dataset tests share: reading the catalog's types, comments and rejects. */
import { Effect } from "effect"
import { RestClient } from "../../../src/source/RestClient.ts"
import { query } from "../../support/spine.ts"

export const NETWORKS = ["mainnet", "fuji"] as const

/** DuckDB's type of each column of a view. */
export const columnTypes = async (catalog: string, view: string): Promise<Record<string, string>> =>
  Object.fromEntries((await query(catalog, `DESCRIBE ${view}`)).map((r) => [String(r["column_name"]), String(r["column_type"])]))

/** Columns of a view whose comment is empty (every column must say what it holds). */
export const uncommentedColumns = async (catalog: string, view: string): Promise<string[]> =>
  (await query(catalog, `SELECT column_name, comment FROM duckdb_columns() WHERE table_name = '${view}'`))
    .filter((r) => typeof r["comment"] !== "string" || (r["comment"] as string).trim() === "")
    .map((r) => String(r["column_name"]))

/** Reasons of the rejects a dataset wrote. */
export const rejectReasons = async (catalog: string, dataset: string): Promise<string[]> =>
  (await query(catalog, `SELECT reason FROM _rejects WHERE dataset = '${dataset}' ORDER BY reason`)).map((r) => String(r["reason"]))

/** Orders rows by a text key so expected and actual compare as lists. */
export const byKey =
  <T extends Record<string, unknown>>(...keys: ReadonlyArray<keyof T>) =>
  (a: T, b: T): number => {
    const k = (r: T) => keys.map((key) => String(r[key])).join("|")
    return k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0
  }

/**
 * A runSpine `wrap` that puts a test-only layer over the real RestClient (count, reshape or fail
 * some requests). The run already needs RestClient, so its requirement is unchanged.
 */
export const overRestClient =
  (f: (real: RestClient["Type"]) => RestClient["Type"]) =>
  <A, E, R>(e: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.updateService(e, RestClient, f) as Effect.Effect<A, E, R>
