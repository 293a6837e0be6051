/**
 * The writer's vectors: values written straight into DuckDB's memory come back exactly, across
 * more than one data chunk (the chunk is reused, so a NULL or a list of one chunk must not leak
 * into the next) and at the edges of the inline strings, int128 words and epoch-microseconds.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { amount, defineSchema, int32, int64, lineage, list, type Row, str, struct, ts } from "../../schemas/common.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { CHUNK_ROWS } from "../../src/sink/PartWriter.ts"
import { canonicalFromDuck, canonicalRow } from "../../src/sink/ReadBack.ts"

const schema = defineSchema(
  [
    int64("n", "Row number", { nullable: false }),
    str("label", "Text"),
    amount("value", "Amount", { signed: true }),
    ts("at", "Instant"),
    list(
      "items",
      struct("item", [str("name", "Name"), amount("amount", "Amount"), ts("seen_at", "Seen"), list("tags", str("item", "Tag"), "Tags")], "Item"),
      "Items"
    ),
    struct("meta", [str("kind", "Kind"), int32("k", "K")], "Meta")
  ],
  "Rows at the edges of the writer's vectors"
)

const LABELS = [
  "",
  "AVAX",
  "exactly12chr", // 12 bytes: the longest string DuckDB holds inline
  "thirteen-char", // 13: the shortest it does not
  "ünï", // short, not ASCII
  "a\u0000b",
  "0x".padEnd(300, "ab"),
  "P-chain 😀 emoji"
]
const VALUES = [0n, -5n, 2n ** 63n, -(2n ** 63n) - 1n, 10n ** 38n - 1n, -(10n ** 38n - 1n), 25_309_230_931n]
const INSTANTS = [
  new Date("1969-12-31T23:59:59.999Z"),
  new Date("2024-01-11T08:48:20.000Z"),
  new Date("2300-01-01T00:00:00.001Z"), // past 2^53 µs: written through a bigint
  1_700_000_000_123_456n
]
const INGESTED = new Date("2025-01-01T00:00:00.000Z")

/** Row i: in the first chunk with NULLs at every level, in the second with none. */
const rowAt = (i: number): Row => {
  const first = i < CHUNK_ROWS
  return {
    n: BigInt(i),
    label: first && i % 3 === 0 ? null : LABELS[i % LABELS.length]!,
    value: first && i % 5 === 0 ? null : VALUES[i % VALUES.length]!,
    at: INSTANTS[i % INSTANTS.length]!,
    items:
      first && i % 4 === 0
        ? null
        : Array.from({ length: i % 3 }, (_, k) => ({
            name: first && k === 1 ? null : LABELS[(i + k) % LABELS.length]!,
            amount: first && i % 7 === 0 ? null : BigInt(i * 10 + k),
            seen_at: INSTANTS[(i + k) % INSTANTS.length]!,
            tags: first && k === 0 && i % 2 === 0 ? null : ["t", LABELS[(i + 3) % LABELS.length]!]
          })),
    meta: first && i % 6 === 0 ? null : { kind: first && i % 4 === 1 ? null : "call", k: first ? -i : i },
    ...lineage("run-1", INGESTED)
  }
}

const readBack = async (file: string): Promise<Array<Record<string, unknown>>> => {
  const db = await DuckDBInstance.create(":memory:")
  try {
    const connection = await db.connect()
    const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${file}', hive_partitioning = false) ORDER BY n`)
    connection.closeSync()
    return reader.getRowObjects().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, canonicalFromDuck(v)])))
  } finally {
    db.closeSync()
  }
}

describe("the writer's vectors", () => {
  it("given two chunks of rows, NULLs at every level in the first and none in the second, when written and read back, then every value is the one written", async () => {
    const rows = Array.from({ length: CHUNK_ROWS + 300 }, (_, i) => rowAt(i))

    const read = await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.gen(function* () {
            const sink = yield* ParquetSink
            const parts = yield* sink.writePart({ dataset: "edges", slice: "s1", seq: 1, schema, rows, partitionBy: [{ key: "network", value: () => "mainnet" }] })
            return yield* Effect.promise(() => readBack(parts[0]!.path))
          }),
          ParquetSink.layerTest
        )
      )
    )

    expect(read).toEqual(rows.map((row) => canonicalRow(schema.fields, row)))
    expect(read[2]!["label"]).toBe("exactly12chr")
    expect(read[CHUNK_ROWS + 3]!["label"]).toBe("thirteen-char")
    expect(read[CHUNK_ROWS + 6]!["value"]).toBe(-(2n ** 63n) - 1n)
    expect(read[0]!["at"]).toBe(-1000n)
    expect(read[2]!["at"]).toBe(BigInt(Date.parse("2300-01-01T00:00:00.001Z")) * 1000n)
    expect(read[CHUNK_ROWS]!["meta"]).toEqual({ kind: "call", k: CHUNK_ROWS })
  })
})
