/**
 * The second half of the pragmatic script, and all of `duckdb-only`: DuckDB reads the saved
 * NDJSON (types detected) and writes Hive-partitioned Parquet in one COPY.
 */
import { DuckDBInstance, quotedIdentifier, quotedString } from "@duckdb/node-api"
import type { ReferenceSpec } from "./spec.ts"

export const convert = async (spec: ReferenceSpec, ndjson: string, out: string): Promise<void> => {
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  const partitions = spec.partitionBy.map(quotedIdentifier).join(", ")
  await connection.run(
    `COPY (SELECT ${spec.select} FROM read_json(${quotedString(ndjson)}, format = 'newline_delimited'${spec.readJson})) ` +
      `TO ${quotedString(out)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${partitions}))`
  )
  connection.closeSync()
  db.closeSync()
}
