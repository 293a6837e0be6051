/**
 * `chainetl query` over a small catalog (parts written by the sink, no crawl): an aligned table,
 * CSV, JSON and Parquet with exact amounts, a bad statement named with exit code 2, and no write
 * reaching the catalog.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { amount, defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { runCli } from "../reliability/cli.ts"
import { tempFolders } from "../support/fixtures.ts"
import { query } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("query")

const schema = defineSchema([int64("height", "Block height", { nullable: false }), amount("fee", "Fee"), str("note", "Note")], "Blocks")
const BIG = 12345678901234567890123456789012345678n

describe("chainetl query", () => {
  let out: string
  beforeAll(async () => {
    out = await tempOut()
    await Effect.runPromise(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart({
          dataset: "blocks",
          slice: "s",
          seq: 0,
          schema,
          rows: [
            { height: 1n, fee: BIG, note: "a, b", ...lineage("r", new Date(0)) },
            { height: 2n, fee: 5n, note: null, ...lineage("r", new Date(0)) }
          ],
          partitionBy: [{ key: "network", value: () => "mainnet" }]
        })
        yield* buildCatalog(out, [{ name: "blocks", schema, partitionKeys: [{ key: "network", type: "VARCHAR" }] }])
      }).pipe(Effect.scoped, Effect.provide(ParquetSink.layer(out)))
    )
  }, 60_000)

  const sql = "SELECT height, fee, note FROM blocks ORDER BY height"

  it("given a catalog, when a SELECT is asked, then an aligned table with every digit of the amounts is printed", async () => {
    const r = await runCli(["query", sql, "--out", out])
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split("\n")
    expect(lines[0]!.split(/\s+/)).toEqual(["height", "fee", "note"])
    expect(lines[2]!.split(/\s{2,}/)).toEqual(["1", BIG.toString(), "a, b"])
    expect(lines[3]!.split(/\s{2,}/)).toEqual(["2", "5", "NULL"])
    // columns line up: each value starts where its header does
    expect(lines[2]!.indexOf(BIG.toString())).toBe(lines[0]!.indexOf("fee"))
    expect(lines.at(-1)).toBe("(2 rows)")
  })

  it("given --format csv, json and parquet, when the same SELECT is asked, then each holds the same rows exactly", async () => {
    const csv = await runCli(["query", sql, "--out", out, "--format", "csv"])
    expect(csv.stdout).toBe(`height,fee,note\n1,${BIG},"a, b"\n2,5,\n`)
    const json = await runCli(["query", sql, "--out", out, "--format", "json"])
    expect(JSON.parse(json.stdout)).toEqual([
      { height: "1", fee: BIG.toString(), note: "a, b" },
      { height: "2", fee: "5", note: null }
    ])
    const file = path.join(out, "result.parquet")
    const parquet = await runCli(["query", sql, "--out", out, "--format", "parquet", "--output", file])
    expect(parquet.code).toBe(0)
    expect(await query(path.join(out, "catalog.duckdb"), `SELECT height::VARCHAR AS h, fee::VARCHAR AS fee, typeof(fee) AS t FROM '${file}' ORDER BY h`)).toEqual([
      { h: "1", fee: BIG.toString(), t: "DECIMAL(38,0)" },
      { h: "2", fee: "5", t: "DECIMAL(38,0)" }
    ])
  }, 60_000)

  it("given a SQL file with comments, when --file names it, then its statement runs as if passed inline", async () => {
    const file = path.join(out, "analysis.sql")
    await fs.writeFile(file, `-- Blocks and fees.\n-- Reads: blocks.\n${sql}\n-- (a trailing comment)\n`)
    const r = await runCli(["query", "--file", file, "--out", out, "--format", "csv"])
    expect([r.code, r.stderr]).toEqual([0, ""])
    expect(r.stdout).toBe(`height,fee,note\n1,${BIG},"a, b"\n2,5,\n`)
  }, 60_000)

  it("given both a statement and --file, or neither, or a missing file, when asked, then exit code 2 says what to pass", async () => {
    const cases: Array<[ReadonlyArray<string>, RegExp]> = [
      [["query", sql, "--file", path.join(out, "analysis.sql")], /both a statement and --file given/],
      [["query"], /no statement given/],
      [["query", "--file", path.join(out, "absent.sql")], /--file: cannot read .*absent\.sql/]
    ]
    for (const [args, message] of cases) {
      const r = await runCli([...args, "--out", out])
      expect([args, r.code]).toEqual([args, 2])
      expect(r.stderr).toMatch(message)
    }
  }, 60_000)

  it("given bad SQL or a write, when asked, then exit code 2 names the problem and the catalog is unchanged", async () => {
    const before = await fs.readFile(path.join(out, "catalog.duckdb"))
    const cases: Array<[string, RegExp]> = [
      ["SELEC 1", /SQL: Parser Error: syntax error at or near "SELEC"/],
      ["SELECT nope FROM blocks", /SQL: Binder Error: .*"nope" not found/],
      ["SELECT * FROM blokcs", /SQL: Catalog Error: .*blokcs.*Did you mean "blocks"/],
      ["DROP VIEW blocks", /SQL: .*read-only/]
    ]
    for (const [statement, message] of cases) {
      const r = await runCli(["query", statement, "--out", out])
      expect([statement, r.code]).toEqual([statement, 2])
      expect(r.stderr).toMatch(message)
      expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1)
    }
    expect((await fs.readFile(path.join(out, "catalog.duckdb"))).equals(before)).toBe(true)
  }, 60_000)
})
