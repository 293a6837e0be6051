/** What a method left on disk: its Parquet files under one folder, their sizes and their rows. */
import { DuckDBInstance, quotedString } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"
import { median } from "../median.ts"

export interface OutputStats {
  readonly rows: number
  readonly files: number
  readonly bytes: number
  readonly medianFileBytes: number
}

const parquetFiles = (dir: string): string[] =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((e) => e.isFile() && e.name.endsWith(".parquet"))
        .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    : []

export { median } from "../median.ts"

/** Rows are counted from the Parquet footers by DuckDB, the same way for every method. */
export const outputStats = async (dir: string): Promise<OutputStats> => {
  const files = parquetFiles(dir)
  const sizes = files.map((f) => fs.statSync(f).size)
  let rows = 0
  if (files.length > 0) {
    const db = await DuckDBInstance.create(":memory:")
    const connection = await db.connect()
    const list = `[${files.map(quotedString).join(", ")}]`
    const result = await connection.runAndReadAll(`SELECT sum(num_rows)::BIGINT AS n FROM (SELECT DISTINCT file_name, row_group_id, row_group_num_rows AS num_rows FROM parquet_metadata(${list}))`)
    rows = Number(result.getRowObjectsJS()[0]?.["n"] ?? 0)
    connection.closeSync()
    db.closeSync()
  }
  return { rows, files: files.length, bytes: sizes.reduce((a, b) => a + b, 0), medianFileBytes: median(sizes) }
}
