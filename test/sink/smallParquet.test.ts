/**
 * The small parts' own Parquet writer (src/sink/SmallParquet.ts) against DuckDB's: for every
 * dataset's table (and `_rejects`), random rows with NULLs and empty lists at every level are
 * written by both; DuckDB reads both back alike, the schemas are the same bytes (compaction merges
 * files only then), and a row either path refuses is refused by the other with the same words.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as arrow from "../../src/ArrowTypes.ts"
import { datasets } from "../../pipelines/index.ts"
import type { Row } from "../../schemas/common.ts"
import { readFooter } from "../../src/compact/ParquetConcat.ts"
import { canonicalFromDuck } from "../../src/sink/ReadBack.ts"
import { makePartWriter, type PartWriter } from "../../src/sink/PartWriter.ts"
import { makeTemplate } from "../../src/sink/ParquetTemplate.ts"
import { compileRows, type CompiledRows } from "../../src/sink/RowEncoder.ts"
import { smallParquetWriter } from "../../src/sink/SmallParquet.ts"
import { rejectsDataset } from "../../src/transform/Rejects.ts"
import { tempFolders } from "../support/fixtures.ts"

const tempDir = tempFolders("small-parquet")

/** A seeded generator (mulberry32), so a failure names rows that can be made again. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const TEXTS = ["", "AVAX", "exactly12chr", "thirteen-char", "ünï", "P-chain 😀", "0x".padEnd(90, "ab")]

const valueOf = (type: arrow.DataType, next: () => number, depth: number): unknown => {
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(next() * xs.length)]!
  if (arrow.DataType.isList(type)) {
    const n = pick([0, 1, 2, 3])
    return Array.from({ length: n }, () => fieldValue(type.children[0]!, next, depth + 1))
  }
  if (arrow.DataType.isStruct(type)) return Object.fromEntries(type.children.map((f) => [f.name, fieldValue(f, next, depth + 1)]))
  switch (type.typeId) {
    case arrow.Type.Bool:
      return next() < 0.5
    case arrow.Type.Int:
      return (type as arrow.Int).bitWidth === 64 ? pick([0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), BigInt(Math.floor(next() * 1e9))]) : pick([0, -1, 2 ** 31 - 1, -(2 ** 31), Math.floor(next() * 1e6)])
    case arrow.Type.Float:
      return pick([0, -1.5, 1e300, Math.PI, next()])
    case arrow.Type.Utf8:
      return pick(TEXTS)
    case arrow.Type.Binary:
      return Uint8Array.from({ length: pick([0, 1, 20, 33]) }, () => Math.floor(next() * 256))
    case arrow.Type.Timestamp:
      return pick<unknown>([new Date("2024-01-11T08:48:20.123Z"), new Date(0), new Date("2300-01-01T00:00:00.001Z"), 1_700_000_000_123_456n])
    case arrow.Type.Date:
      return pick<unknown>(["2024-02-29", "1970-01-01", new Date("2031-05-06T12:00:00Z")])
    case arrow.Type.Decimal: {
      const max = 10n ** BigInt((type as arrow.Decimal).precision) - 1n
      return pick([0n, max, -max, 1n, max / 3n])
    }
    default:
      throw new Error(`no values of ${String(type)}`)
  }
}

const fieldValue = (f: arrow.Field, next: () => number, depth: number): unknown =>
  f.nullable && next() < 0.2 ? pick2(next) : valueOf(f.type, next, depth)
/** A NULL as the rows have it: null or a missing value. */
const pick2 = (next: () => number) => (next() < 0.5 ? null : undefined)

const rowsOf = (fields: ReadonlyArray<arrow.Field>, seed: number, n: number): Row[] => {
  const next = random(seed)
  return Array.from({ length: n }, () => Object.fromEntries(fields.map((f) => [f.name, fieldValue(f, next, 0)])) as Row)
}

let db: DuckDBInstance
let writer: PartWriter
beforeAll(async () => {
  db = await DuckDBInstance.create(":memory:")
  writer = makePartWriter(db)
})
afterAll(() => {
  writer.close()
  db.closeSync()
})

const readBack = async (file: string): Promise<unknown[]> => {
  const connection = await db.connect()
  try {
    const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${file}', hive_partitioning = false)`)
    return reader.getRowObjects().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, canonicalFromDuck(v)])))
  } finally {
    connection.closeSync()
  }
}

const bothWriters = async (compiled: CompiledRows, dir: string) => {
  const template = await makeTemplate(dir, "template", (file) => writer.template(compiled, file))
  return { template, small: smallParquetWriter(compiled.fields, template.root, template.schemaBytes, new Set()) }
}

const tables = [...datasets.flatMap((d) => [d, ...(d.children ?? [])]), rejectsDataset]

describe("the small parts' Parquet writer", () => {
  it.each(tables.map((t) => [t.name, t] as const))(
    "given random rows of %s with NULLs and empty lists at every level, when written by it and by DuckDB, then DuckDB reads the same rows from both and the schemas are the same bytes",
    async (name, table) => {
      const dir = await tempDir()
      const compiled = compileRows(table.schema, new Set(table.partitionBy.map((p) => p.key)))
      const { template, small } = await bothWriters(compiled, dir)
      const rows = rowsOf(compiled.fields, name.length * 7919, 9)

      const ours = path.join(dir, "ours.parquet")
      await fs.writeFile(ours, small.write(rows))
      const staged = path.join(dir, "duck")
      await fs.mkdir(staged)
      const [theirs] = await writer.write(compiled, rows, { groupOf: new Int32Array(rows.length), groupCount: 1 }, staged)

      expect(await readBack(ours)).toEqual(await readBack(theirs!))
      expect(Buffer.from((await readFooter(theirs!)).schema).equals(Buffer.from(template.schemaBytes))).toBe(true)
      expect(Buffer.from((await readFooter(ours)).schema).equals(Buffer.from(template.schemaBytes))).toBe(true)
    }
  )

  it("given rows at the picked indices, when written, then the file holds those rows alone, in that order", async () => {
    const dir = await tempDir()
    const table = tables.find((t) => t.name === "staking_transactions")!
    const compiled = compileRows(table.schema, new Set(table.partitionBy.map((p) => p.key)))
    const { small } = await bothWriters(compiled, dir)
    const rows = rowsOf(compiled.fields, 11, 5)
    const file = path.join(dir, "picked.parquet")
    await fs.writeFile(file, small.write(rows, [3, 1]))

    const read = await readBack(file)
    const all = path.join(dir, "all.parquet")
    await fs.writeFile(all, small.write(rows))
    const every = await readBack(all)
    expect(read).toEqual([every[3], every[1]])
  })

  it("given a column with NULLs, when written, then its statistics hold its least and greatest value and filters on NULL and on values find the rows", async () => {
    const dir = await tempDir()
    const { defineSchema, int64, lineage, str } = await import("../../schemas/common.ts")
    const schema = defineSchema([int64("n", "N", { nullable: false }), str("label", "Label")], "Statistics")
    const compiled = compileRows(schema, new Set())
    const { small } = await bothWriters(compiled, dir)
    const file = path.join(dir, "stats.parquet")
    await fs.writeFile(file, small.write([{ n: 5n, label: "b" }, { n: -2n, label: null }, { n: 9n, label: "ä" }, { n: 0n, label: "a" }].map((r) => ({ ...r, ...lineage("run-1", new Date(0)) }))))

    const connection = await db.connect()
    const one = async (sql: string) => (await connection.runAndReadAll(sql.replaceAll("$F", `'${file}'`))).getRowsJS()
    try {
      expect(await one("SELECT path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata($F) ORDER BY column_id")).toEqual([
        ["n", "-2", "9"],
        ["label", "a", "ä"],
        ["run_id", "run-1", "run-1"],
        ["ingested_at", "1970-01-01 00:00:00+00", "1970-01-01 00:00:00+00"]
      ])
      expect(await one("SELECT n FROM read_parquet($F) WHERE label IS NULL")).toEqual([[-2n]])
      expect(await one("SELECT count(*) FROM read_parquet($F) WHERE n > 8")).toEqual([[1n]])
      expect(await one("SELECT count(*) FROM read_parquet($F) WHERE label >= 'b'")).toEqual([[2n]])
    } finally {
      connection.closeSync()
    }
  })

  it.each([
    ["a JS number in an int64 column", { n: 5 }, "column n: expected a bigint within int64"],
    ["a NULL in a field that is not nullable", { n: null }, "column n: is null"],
    ["a decimal past its precision", { n: 1n, value: 10n ** 38n }, "column value: expected a bigint with at most 38 digits"],
    ["a key that is not a field", { n: 1n, valeu: 3n }, "column valeu: is not a field"],
    ["a struct's unknown key", { n: 1n, meta: { kind: "x", typo: 1 } }, "column meta.typo: is not a field"],
    ["a list that is not an array", { n: 1n, items: "a" }, "column items: expected an array"],
    ["an impossible day", { n: 1n, day: "2023-02-29" }, "column day: expected an existing calendar day"]
  ] as const)("given %s, when written, then both writers refuse it with the same words", async (_, bad, words) => {
    const dir = await tempDir()
    const { defineSchema, int64, amount, struct, str, list, date, lineage } = await import("../../schemas/common.ts")
    const schema = defineSchema(
      [int64("n", "N", { nullable: false }), amount("value", "Amount"), struct("meta", [str("kind", "Kind")], "Meta"), list("items", str("item", "Item"), "Items"), date("day", "Day")],
      "Refusals"
    )
    const compiled = compileRows(schema, new Set())
    const { small } = await bothWriters(compiled, dir)
    const rows = [{ ...lineage("run-1", new Date(0)), ...bad } as unknown as Row]
    let ours: unknown
    let theirs: unknown
    try {
      small.write(rows)
    } catch (e) {
      ours = e
    }
    const staged = path.join(dir, "duck")
    await fs.mkdir(staged)
    await writer.write(compiled, rows, { groupOf: new Int32Array(1), groupCount: 1 }, staged).catch((e: unknown) => {
      theirs = e
    })
    expect(theirs).toBeInstanceOf(Error)
    expect(ours).toBeInstanceOf(Error)
    expect((ours as Error).message).toBe((theirs as Error).message)
    expect((ours as Error).message).toContain(words)
  })
})
