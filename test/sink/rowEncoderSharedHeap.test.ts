/**
 * A vector's long ASCII strings are handed to DuckDB as one text, each entry pointing into it
 * (RowEncoder's assignShared). What DuckDB reads through those entries must be each string whole:
 * read back from the Parquet file, compared by the file's min/max statistics (DuckDB's comparisons
 * start with an entry's 4-byte prefix), and found by an equality filter; a chunk that holds a
 * non-ASCII long string takes the one-call-a-string path and is read back the same.
 */
import { DuckDBDataChunk, DuckDBInstance, INTEGER, VARCHAR } from "@duckdb/node-api"
import duckdb from "@duckdb/node-bindings"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, list, type Row, str } from "../../schemas/common.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { CHUNK_ROWS } from "../../src/sink/PartWriter.ts"
import { compileRows } from "../../src/sink/RowEncoder.ts"

const schema = defineSchema(
  [int64("n", "Row number", { nullable: false }), str("id", "A long id"), list("refs", str("item", "Ref"), "Refs")],
  "Long ASCII strings"
)
const INGESTED = new Date("2025-01-01T00:00:00.000Z")

/** A deterministic ASCII id of 13 to 300 characters: its first 4 bytes (the entry's prefix) and the rest differ between ids. */
const idOf = (i: number): string => {
  const body = `${(i * 2_654_435_761) % 1_000_003}`.padStart(7, "0")
  return `${String.fromCharCode(65 + ((i * 7) % 26))}${body}-`.padEnd(13 + ((i * 37) % 288), String.fromCharCode(97 + (i % 26)))
}

const query = async (sql: string): Promise<Array<Record<string, unknown>>> => {
  const db = await DuckDBInstance.create(":memory:")
  try {
    const connection = await db.connect()
    const reader = await connection.runAndReadAll(sql)
    connection.closeSync()
    return reader.getRowObjectsJS() as Array<Record<string, unknown>>
  } finally {
    db.closeSync()
  }
}

/** Writes `rows` as one part and runs `check` on its file while the sink's folder is still there. */
const withWritten = <A>(rows: ReadonlyArray<Row>, check: (file: string) => Promise<A>): Promise<A> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.provide(
        Effect.gen(function* () {
          const sink = yield* ParquetSink
          const parts = yield* sink.writePart({ dataset: "ids", slice: "s1", seq: 1, schema, rows, partitionBy: [{ key: "network", value: () => "mainnet" }] })
          return yield* Effect.promise(() => check(parts[0]!.path))
        }),
        ParquetSink.layerTest
      )
    )
  )

describe("long ASCII strings handed over as one text", () => {
  it("given two chunks of long ids with repeats, nulls and short ones between, when written, then every id reads back whole, the statistics and a filter see them", async () => {
    // given: ids of 13-300 characters, every 5th a repeat of an earlier one in its chunk, every 11th null,
    // every 7th short (inline); refs lists of long ids; two chunks and a partial third
    const rows: Row[] = Array.from({ length: 2 * CHUNK_ROWS + 100 }, (_, i) => ({
      n: BigInt(i),
      id: i % 11 === 0 ? null : i % 7 === 0 ? `s${i}` : i % 5 === 0 ? idOf(i - 3) : idOf(i),
      refs: i % 13 === 0 ? null : [idOf(i + 1), idOf(i + 2), idOf(i + 1)],
      ...lineage("run-1", INGESTED)
    }))

    // when they are written as one part
    await withWritten(rows, async (file) => {
      // then every value reads back as written
      const read = await query(`SELECT n, id, refs FROM read_parquet('${file}') ORDER BY n`)
      expect(read.map((r) => r["id"])).toEqual(rows.map((r) => r["id"]))
      expect(read.map((r) => r["refs"])).toEqual(rows.map((r) => r["refs"]))
      // and the file's statistics (DuckDB's comparisons of the entries) are the true min and max
      const ids = rows.map((r) => r["id"]).filter((v): v is string => v !== null).sort()
      const stats = await query(`SELECT stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata('${file}') WHERE path_in_schema = 'id'`)
      expect(stats.map((s) => s["lo"]).sort()[0]).toBe(ids[0])
      expect(stats.map((s) => s["hi"]).sort().at(-1)).toBe(ids.at(-1))
      // and an equality filter finds a long id wherever it stands
      const wanted = idOf(CHUNK_ROWS + 1)
      const found = await query(`SELECT n FROM read_parquet('${file}') WHERE id = '${wanted}' ORDER BY n`)
      expect(found.map((r) => r["n"])).toEqual(rows.filter((r) => r["id"] === wanted).map((r) => r["n"]))
      expect(found.length).toBeGreaterThan(0)
    })
  })

  it("given a chunk whose long strings include a non-ASCII one, when written, then they read back whole too", async () => {
    // given: long ids, one of them with a character beyond ASCII (two bytes in UTF-8) and one with an emoji
    const rows: Row[] = Array.from({ length: 40 }, (_, i) => ({
      n: BigInt(i),
      id: i === 17 ? `${idOf(i)}é` : i === 30 ? `P-chain 😀 ${idOf(i)}` : idOf(i),
      refs: [idOf(i + 1)],
      ...lineage("run-1", INGESTED)
    }))
    // when written
    await withWritten(rows, async (file) => {
      // then they read back as written
      const read = await query(`SELECT id, refs FROM read_parquet('${file}') ORDER BY n`)
      expect(read.map((r) => r["id"])).toEqual(rows.map((r) => r["id"]))
      expect(read[17]!["id"]).toMatch(/é$/)
      expect(read.map((r) => r["refs"])).toEqual(rows.map((r) => r["refs"]))
    })
  })

  it("given a chunk of long ids, when filled, then each entry's length and 4-byte prefix are those DuckDB writes when it assigns the id itself", () => {
    // given 300 rows of long ids (and one short), a chunk filled by the encoder
    const rows: Row[] = Array.from({ length: 300 }, (_, i) => ({ n: BigInt(i), id: i === 5 ? "short" : idOf(i), refs: null, ...lineage("run-1", INGESTED) }))
    const compiled = compileRows(schema, new Set())
    const chunk = DuckDBDataChunk.create([...compiled.wires.map((w) => w.type), INTEGER], CHUNK_ROWS)
    compiled.fill(chunk, rows, 0, rows.length, new Int32Array(rows.length))
    // and DuckDB's own entries for the same ids, one assignment each
    const reference = DuckDBDataChunk.create([VARCHAR], CHUNK_ROWS)
    const referenceVector = duckdb.data_chunk_get_vector(reference.chunk, 0)
    rows.forEach((r, i) => duckdb.vector_assign_string_element(referenceVector, i, r["id"] as string))
    // when both vectors' entries are read
    const ours = Buffer.from(duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, 1), rows.length * 16))
    const theirs = Buffer.from(duckdb.vector_get_data(referenceVector, rows.length * 16))
    // then every entry's first 8 bytes (length, prefix; an inline id's first 8 bytes) agree; the pointers differ
    for (let i = 0; i < rows.length; i++) expect(ours.subarray(i * 16, i * 16 + 8).toString("hex"), `row ${i}`).toBe(theirs.subarray(i * 16, i * 16 + 8).toString("hex"))
    expect(ours.readUInt32LE(16)).toBe((rows[1]!["id"] as string).length)
  })
})
