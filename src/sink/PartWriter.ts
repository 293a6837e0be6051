/**
 * Writes rows to one Parquet file through DuckDB: a table typed from the Arrow schema, filled by
 * the appender one 2,048-row data chunk at a time, then `COPY … (FORMAT parquet, COMPRESSION zstd)`.
 * Chosen by measurement (bench/parquet-writers.ts, 200k rows): lossless for int64 and
 * DECIMAL(38,0), writes TIMESTAMPTZ, lists and structs natively with min/max statistics, and
 * spends the least CPU per row of the lossless candidates (≈2× NDJSON + read_json on flat rows,
 * ≈1.2× on nested ones; parquetjs-lite rounds int64 and is 8× slower). The sink keeps one DuckDB
 * instance because a fresh one per part cost 25% more CPU. A part's rows are held in DuckDB until
 * COPY, so memory grows with part size: 10k-row parts stayed within a few hundred MB.
 * DuckDB has no Arrow ingestion in @duckdb/node-api, hence the row encoder.
 */
import {
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBValue,
  quotedIdentifier,
  quotedString
} from "@duckdb/node-api"
import type { Row } from "../../schemas/common.ts"
import { duckTypeOf, sqlTypeOf } from "./DuckTypes.ts"
import type { CompiledRows } from "./RowEncoder.ts"

/** DuckDB's vector size: the most a data chunk holds. */
export const CHUNK_ROWS = 2048

export const createTableSql = (table: string, compiled: CompiledRows): string =>
  `CREATE TABLE ${quotedIdentifier(table)} (${compiled.fields
    .map((f) => `${quotedIdentifier(f.name)} ${sqlTypeOf(f.type, f.name)}${f.nullable ? "" : " NOT NULL"}`)
    .join(", ")})`

/**
 * Writes `rows` to `file` (overwritten). `table` must be a name unused on this connection's
 * database; it is dropped afterwards, written or not.
 */
export const writeParquetFile = async (
  connection: DuckDBConnection,
  table: string,
  compiled: CompiledRows,
  rows: ReadonlyArray<Row>,
  file: string
): Promise<void> => {
  await connection.run(createTableSql(table, compiled))
  try {
    const types = compiled.fields.map((f) => duckTypeOf(f.type, f.name))
    const appender = await connection.createAppender(table)
    try {
      for (let from = 0; from < rows.length; from += CHUNK_ROWS) {
        const to = Math.min(rows.length, from + CHUNK_ROWS)
        const columns: DuckDBValue[][] = types.map(() => new Array<DuckDBValue>(to - from))
        compiled.encode(rows, from, to, columns)
        const chunk = DuckDBDataChunk.create(types, to - from)
        chunk.setColumns(columns)
        appender.appendDataChunk(chunk)
      }
      appender.flushSync()
    } finally {
      appender.closeSync()
    }
    await connection.run(
      `COPY ${quotedIdentifier(table)} TO ${quotedString(file)} (FORMAT parquet, COMPRESSION zstd)`
    )
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${quotedIdentifier(table)}`)
  }
}
