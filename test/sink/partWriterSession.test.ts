/**
 * A session of the PartWriter fills its parts one after the other with the data chunk of its last
 * part's schema (reset between batches and parts, made anew for another schema), and a part of one partition group is written by a plain COPY
 * to one file: a part written after others on the same session holds its own rows only.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, list, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { CHUNK_ROWS, makePartWriter } from "../../src/sink/PartWriter.ts"
import { compileRows } from "../../src/sink/RowEncoder.ts"

const schema = defineSchema(
  [
    int64("height", "Block height", { nullable: false }),
    str("label", "Free text"),
    list("tags", str("item", "Tag"), "Tags")
  ],
  "Rows with long strings and lists"
)

const narrow = defineSchema([int64("height", "Block height", { nullable: false })], "Another schema on the same connection")

/** Row i: a label long enough to live outside DuckDB's inline strings, and i % 3 tags. */
const rowsFrom = (first: number, count: number, word: string): Row[] =>
  Array.from({ length: count }, (_, k) => {
    const i = first + k
    return {
      height: BigInt(i),
      label: `${word}-${i}-${"x".repeat(i % 40)}`,
      tags: Array.from({ length: i % 3 }, (_, t) => `${word}-tag-${i}-${t}`),
      ...lineage("run-t", new Date(0))
    }
  })

const read = async (db: DuckDBInstance, file: string): Promise<Row[]> => {
  const connection = await db.connect()
  const reader = await connection.runAndReadAll(`SELECT height, label, tags FROM read_parquet('${file}', hive_partitioning = false) ORDER BY height`)
  connection.closeSync()
  return reader.getRowObjectsJS().map((r) => ({ height: r["height"] as bigint, label: r["label"] as string, tags: (r["tags"] as { items: string[] }).items ?? r["tags"] }))
}

const asWritten = (rows: ReadonlyArray<Row>) => rows.map((r) => ({ height: r["height"], label: r["label"], tags: [...(r["tags"] as string[])] }))

describe("PartWriter session", () => {
  it("given a large part, a one-row part, a two-group part, a part of another schema and one of the first again written one after the other on one connection, when read back, then each file holds exactly its own rows", async () => {
    const db = await DuckDBInstance.create(":memory:", { threads: "1" })
    const writer = makePartWriter(db)
    const compiled = compileRows(schema, new Set())
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-pw-session-"))
    try {
      // given: more rows than a chunk holds, so the chunk is reset between batches, then parts after it
      const large = rowsFrom(0, CHUNK_ROWS + 100, "large")
      const one = rowsFrom(5_000, 1, "one")
      const two = rowsFrom(6_000, 5, "two")
      const groupsOfTwo = Int32Array.from(two, (_, k) => k % 2)

      for (const area of ["a", "b", "c", "d", "e"]) await fs.mkdir(path.join(dir, area))

      // when: each written on the pool's one idle connection in turn
      const [largeFile] = await writer.write(compiled, large, { groupOf: new Int32Array(large.length), groupCount: 1 }, path.join(dir, "a"))
      const [oneFile] = await writer.write(compiled, one, { groupOf: new Int32Array(1), groupCount: 1 }, path.join(dir, "b"))
      const twoFiles = await writer.write(compiled, two, { groupOf: groupsOfTwo, groupCount: 2 }, path.join(dir, "c"))
      const other = [{ height: 7n, ...lineage("run-t", new Date(0)) }]
      const [otherFile] = await writer.write(compileRows(narrow, new Set()), other, { groupOf: new Int32Array(1), groupCount: 1 }, path.join(dir, "d"))
      const again = rowsFrom(7_000, 3, "again")
      const [againFile] = await writer.write(compiled, again, { groupOf: new Int32Array(3), groupCount: 1 }, path.join(dir, "e"))

      // then: one file a group, each with its rows and none of the parts before it
      expect(writer.inUse()).toBe(0)
      expect(twoFiles).toHaveLength(2)
      expect(await read(db, largeFile!)).toEqual(asWritten(large))
      expect(await read(db, oneFile!)).toEqual(asWritten(one))
      expect(await read(db, twoFiles[0]!)).toEqual(asWritten(two.filter((_, k) => k % 2 === 0)))
      expect(await read(db, twoFiles[1]!)).toEqual(asWritten(two.filter((_, k) => k % 2 === 1)))
      const connection = await db.connect()
      const otherRows = (await connection.runAndReadAll(`SELECT height FROM read_parquet('${otherFile!}')`)).getRowsJS()
      connection.closeSync()
      expect(otherRows).toEqual([[7n]])
      expect(await read(db, againFile!)).toEqual(asWritten(again))
    } finally {
      writer.close()
      db.closeSync()
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
