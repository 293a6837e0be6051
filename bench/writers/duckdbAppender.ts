/**
 * The writer ParquetSink uses (appender fed 2,048-row data chunks, then COPY … zstd), run through
 * the sink itself, in three shapes: one part; the same rows as 20 parts on the sink's long-lived
 * DuckDB instance; 20 parts with a fresh instance each (what "one DuckDB per part" would cost).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { makeParquetSink } from "../../src/sink/ParquetSink.ts"
import type { Row } from "../../schemas/common.ts"
import type { Writer } from "./types.ts"

const PARTS = 20

const split = (rows: ReadonlyArray<Row>, parts: number): ReadonlyArray<ReadonlyArray<Row>> => {
  const size = Math.ceil(rows.length / parts)
  return Array.from({ length: parts }, (_, i) => rows.slice(i * size, (i + 1) * size))
}

const writeParts = async (
  dir: string,
  schema: Parameters<Writer["write"]>[0],
  batches: ReadonlyArray<ReadonlyArray<Row>>,
  freshInstance: boolean
): Promise<string[]> => {
  const files: string[] = []
  let shared: DuckDBInstance | undefined
  for (let seq = 0; seq < batches.length; seq++) {
    const db = freshInstance || shared === undefined ? await DuckDBInstance.create(":memory:") : shared
    if (!freshInstance) shared = db
    const sink = makeParquetSink(dir, db)
    const written = await Effect.runPromise(
      sink.writePart({ dataset: "bench", slice: "b", seq, schema, rows: batches[seq]!, partitionBy: [] })
    )
    files.push(...written.map((w) => w.path))
    if (freshInstance) db.closeSync()
  }
  shared?.closeSync()
  return files
}

export const duckdbAppender: Writer = {
  name: "duckdb appender + COPY",
  write: (schema, rows, dir) => writeParts(dir, schema, [rows], false)
}

export const duckdbAppenderPartsShared: Writer = {
  name: `  same, ${PARTS} parts, one instance`,
  write: (schema, rows, dir) => writeParts(dir, schema, split(rows, PARTS), false)
}

export const duckdbAppenderPartsFresh: Writer = {
  name: `  same, ${PARTS} parts, instance per part`,
  write: (schema, rows, dir) => writeParts(dir, schema, split(rows, PARTS), true)
}
