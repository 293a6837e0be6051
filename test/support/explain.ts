/**
 * What DuckDB's profiler says a query read: the Parquet scans of `EXPLAIN (ANALYZE, FORMAT JSON)`,
 * each with the files it scanned out of the files its glob matched.
 */
import { DuckDBInstance } from "@duckdb/node-api"

export interface ScanProfile {
  /** Files read (`Total Files Read`). */
  readonly filesRead: number
  /** `Scanning Files: a/b`: files left after the Hive-key filters, and files the glob matched. */
  readonly scanning: number
  readonly matched: number
  readonly fileFilters: string
}

type Node = { readonly operator_name?: string; readonly extra_info?: Record<string, unknown>; readonly children?: ReadonlyArray<Node> }

const scans = (node: Node): ScanProfile[] => {
  const info = node.extra_info ?? {}
  const here: ScanProfile[] = []
  if (info["Function"] === "READ_PARQUET" || info["Total Files Read"] !== undefined) {
    const [scanning, matched] = String(info["Scanning Files"] ?? "0/0").split("/").map(Number)
    here.push({ filesRead: Number(info["Total Files Read"] ?? 0), scanning: scanning!, matched: matched!, fileFilters: String(info["File Filters"] ?? "") })
  }
  return [...here, ...(node.children ?? []).flatMap(scans)]
}

/** The Parquet scans of `sql` run against the catalog (read-only), as the profiler counted them. */
export const parquetScans = async (catalog: string, sql: string): Promise<ScanProfile[]> => {
  const db = await DuckDBInstance.create(catalog, { access_mode: "READ_ONLY" })
  const conn = await db.connect()
  try {
    // one row: (explain_key, explain_value) with the profile as JSON in the value
    const rows = (await conn.runAndReadAll(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`)).getRows()
    const plan = JSON.parse(String(rows[0]![1])) as Node
    return scans(plan)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}
