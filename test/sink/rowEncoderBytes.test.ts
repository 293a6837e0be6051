/**
 * What a part holds, as the row encoder counts it (`fill`'s return): the bytes handed to DuckDB,
 * which bound a part beside its rows (`--part-mb`, src/crawl/PartSize.ts). Fixed widths per row,
 * 16 bytes per string or list entry, the characters of a string too long to sit inline (once per
 * chunk when it repeats: DuckDB then holds it once), and the partition group's 4 bytes.
 */
import { DuckDBDataChunk, INTEGER } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, list, type Row, str } from "../../schemas/common.ts"
import { compileRows } from "../../src/sink/RowEncoder.ts"

const schema = defineSchema([int64("n", "Row number", { nullable: false }), str("label", "Text"), list("tags", str("item", "Tag"), "Tags")], "Byte counting")
const LONG = "thirteen-char" // 13 characters: one past what DuckDB holds inline
const at = lineage("run-1", new Date("2025-01-01T00:00:00Z")) // an inline string and a timestamp

const fill = (rows: ReadonlyArray<Row>): number => {
  const compiled = compileRows(schema, new Set())
  const chunk = DuckDBDataChunk.create([...compiled.wires.map((w) => w.type), INTEGER], rows.length)
  return compiled.fill(chunk, rows, 0, rows.length, new Int32Array(rows.length))
}

describe("the row encoder's byte count", () => {
  it("given short, long, repeated and null values, when a chunk is filled, then it counts what DuckDB is handed", () => {
    // given three rows: an inline label, a long one, the same long one again; a list of two, an empty one, a null
    const rows = [
      { n: 1n, label: "short", tags: ["a", LONG], ...at },
      { n: 2n, label: LONG, tags: [], ...at },
      { n: 3n, label: LONG, tags: null, ...at }
    ]
    // when they fill a chunk
    const bytes = fill(rows)
    // then: n 3×8; label 3×16 + 13 once; tags 3×16 + two items 2×16 + 13; run_id 3×16; ingested_at 3×8; group 3×4
    expect(bytes).toBe(24 + (48 + 13) + (48 + 32 + 13) + 48 + 24 + 12)
  })

  it("given rows whose strings grow, when each fills a chunk, then the count grows by their characters", () => {
    // given the same row with a label of 100 and of 1,000 characters
    const row = (label: string): Row => ({ n: 1n, label, tags: null, ...at })
    // when each fills a chunk, then the second holds 900 more bytes
    expect(fill([row("x".repeat(1000))]) - fill([row("x".repeat(100))])).toBe(900)
  })
})
