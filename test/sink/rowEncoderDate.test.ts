/**
 * The DATE writer keeps the last text's day (a part's rows repeat their date row after row): a
 * repeat must read back as its day, and a text after it is still checked, not taken for the last.
 */
import { DuckDBDataChunk, DuckDBInstance, INTEGER } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { date, defineSchema, int64 } from "../../schemas/common.ts"
import { CHUNK_ROWS } from "../../src/sink/PartWriter.ts"
import { compileRows, EncodeIssue } from "../../src/sink/RowEncoder.ts"

const schema = defineSchema([int64("n", "Row number", { nullable: false }), date("day", "Day")], "Days")
const compiled = compileRows(schema, new Set(["run_id", "ingested_at"]))

/** Fills a fresh chunk with `days` and reads the DATE vector back as ISO days (null: NULL). */
const written = async (days: ReadonlyArray<unknown>): Promise<Array<string | null>> => {
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  try {
    await connection.run("CREATE TABLE t (n BIGINT, day DATE, g INTEGER)")
    const appender = await connection.createAppender("t")
    const chunk = DuckDBDataChunk.create([...compiled.wires.map((w) => w.type), INTEGER], CHUNK_ROWS)
    compiled.fill(chunk, days.map((day, i) => ({ n: BigInt(i), day })), 0, days.length, new Int32Array(days.length))
    appender.appendDataChunk(chunk)
    appender.closeSync()
    const rows = (await connection.runAndReadAll("SELECT strftime(day, '%Y-%m-%d') FROM t ORDER BY n")).getRows()
    return rows.map(([d]) => (d === null ? null : String(d)))
  } finally {
    connection.closeSync()
    db.closeSync()
  }
}

describe("the DATE writer", () => {
  it("given a day's text repeated, another, a Date and a NULL between them, when written, then each row reads back as its own day", async () => {
    const days = ["2024-01-11", "2024-01-11", "2024-01-11", "2024-01-12", null, "2024-01-12", new Date("2024-03-01T23:59:59Z"), "2024-01-11"]
    expect(await written(days)).toEqual(["2024-01-11", "2024-01-11", "2024-01-11", "2024-01-12", null, "2024-01-12", "2024-03-01", "2024-01-11"])
  })

  it("given a valid day then a day that does not exist, when written, then the second is refused naming its row", async () => {
    await expect(written(["2024-02-28", "2024-02-28", "2024-02-30"])).rejects.toThrow(EncodeIssue)
    await expect(written(["2024-02-28", "2024-02-30"])).rejects.toThrow(/row 1, column day: expected an existing calendar day, got "2024-02-30"/)
    await expect(written(["2024-02-28", 20240228])).rejects.toThrow(/row 1, column day: expected a Date or "YYYY-MM-DD", got number 20240228/)
  })
})
