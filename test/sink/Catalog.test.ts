import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { amount, defineSchema, int64, lineage, str, ts } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { type CatalogDataset, buildCatalog, datasetFiles } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"

const schema = defineSchema(
  [int64("height", "Block height", { nullable: false }), amount("fee", "Fee in nAVAX"), ts("block_time", "Block time")],
  "Blocks of the test chain"
)
const dataset: CatalogDataset = {
  name: "blocks",
  schema,
  partitionKeys: [{ key: "network", type: "VARCHAR", comment: "mainnet or fuji" }]
}
const rows = (heights: ReadonlyArray<bigint>): Row[] =>
  heights.map((height) => ({ height, fee: height, block_time: new Date(0), ...lineage("r", new Date(0)) }))

const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.provide(effect, ParquetSink.layerTest)))

const write = (heights: ReadonlyArray<bigint>, seq: number) =>
  Effect.flatMap(ParquetSink, (sink) =>
    sink.writePart({ dataset: "blocks", slice: "s", seq, schema, rows: rows(heights), partitionBy: [{ key: "network", value: () => "mainnet" }] })
  )

const openCatalog = async (file: string) => {
  const db = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" })
  return { db, connection: await db.connect() }
}

const duckdbModule = createRequire(import.meta.url).resolve("@duckdb/node-api")

/** Runs SQL in a separate node process whose working directory is not the output folder. */
const queryElsewhere = (database: string, setup: string, sql: string): unknown =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        "-e",
        `const { DuckDBInstance } = require(${JSON.stringify(duckdbModule)});
         (async () => {
           const db = await DuckDBInstance.create(${JSON.stringify(database)});
           const c = await db.connect();
           for (const s of ${JSON.stringify(setup)}.split(";\\n").filter((s) => s.trim() !== "" )) await c.run(s);
           const r = await c.runAndReadAll(${JSON.stringify(sql)});
           process.stdout.write(JSON.stringify(r.getRowsJson()));
         })();`
      ],
      { cwd: os.tmpdir() }
    ).toString()
  )

describe("buildCatalog", () => {
  it("given a dataset with no part when the catalog is built then its view is empty with the declared types and comments", async () => {
    const { types, count, comments, built } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        const built = yield* buildCatalog(sink.outDir, [dataset])
        const { db, connection } = yield* Effect.promise(() => openCatalog(built.databasePath))
        const types = (yield* Effect.promise(() => connection.runAndReadAll("DESCRIBE blocks"))).getRowsJson()
        const count = (yield* Effect.promise(() => connection.runAndReadAll("SELECT count(*) FROM blocks"))).getRowsJson()
        const comments = (yield* Effect.promise(() =>
          connection.runAndReadAll(
            "SELECT column_name, comment FROM duckdb_columns() WHERE table_name = 'blocks' UNION ALL SELECT 'view', comment FROM duckdb_views() WHERE view_name = 'blocks'"
          )
        )).getRowsJson()
        connection.closeSync()
        db.closeSync()
        return { types, count, comments, built }
      })
    )

    expect(built.empty).toEqual(["blocks"])
    expect(types.map((t) => [t[0], t[1]])).toEqual([
      ["height", "BIGINT"],
      ["fee", "DECIMAL(38,0)"],
      ["block_time", "TIMESTAMP WITH TIME ZONE"],
      ["run_id", "VARCHAR"],
      ["ingested_at", "TIMESTAMP WITH TIME ZONE"],
      ["network", "VARCHAR"]
    ])
    expect(count).toEqual([["0"]])
    expect(Object.fromEntries(comments)).toMatchObject({
      view: "Blocks of the test chain",
      height: "Block height",
      fee: "Fee in nAVAX",
      network: "mainnet or fuji"
    })
  })

  it("given a reader holding the old catalog open when the catalog is rebuilt then both old reader and a new one work", async () => {
    const { before, oldAfter, fresh } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write([1n, 2n], 1)
        const first = yield* buildCatalog(sink.outDir, [dataset])
        const reader = yield* Effect.promise(() => openCatalog(first.databasePath))
        const count = () =>
          Effect.promise(() => reader.connection.runAndReadAll("SELECT count(*) FROM blocks")).pipe(Effect.map((r) => r.getRowsJson()))
        const before = yield* count()
        yield* write([3n], 2)
        const second = yield* buildCatalog(sink.outDir, [dataset])
        const oldAfter = yield* count()
        reader.connection.closeSync()
        reader.db.closeSync()
        const renewed = yield* Effect.promise(() => openCatalog(second.databasePath))
        const fresh = (yield* Effect.promise(() => renewed.connection.runAndReadAll("SELECT count(*) FROM blocks"))).getRowsJson()
        renewed.connection.closeSync()
        renewed.db.closeSync()
        return { before, oldAfter, fresh }
      })
    )

    expect(before).toEqual([["2"]])
    // the old view reads the same glob, so it sees the new part too; what matters is that it still works
    expect(oldAfter).toEqual([["3"]])
    expect(fresh).toEqual([["3"]])
  })

  it("given a built catalog when used from another working directory then catalog.duckdb and catalog.sql both read the parts", async () => {
    const { viaDatabase, viaSql, leftovers } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write([5n, 6n], 1)
        const built = yield* buildCatalog(sink.outDir, [dataset])
        const sql = yield* Effect.promise(() => fs.readFile(built.sqlPath, "utf8"))
        const body = sql
          .split("\n")
          .filter((line) => !line.startsWith("--"))
          .join("\n")
        const viaDatabase = queryElsewhere(built.databasePath, "", "SELECT sum(fee)::VARCHAR, typeof(any_value(fee)), typeof(any_value(block_time)), any_value(network) FROM blocks")
        const viaSql = queryElsewhere(":memory:", body, "SELECT sum(fee)::VARCHAR, typeof(any_value(fee)), typeof(any_value(block_time)), any_value(network) FROM blocks")
        const leftovers = (yield* Effect.promise(() => fs.readdir(sink.outDir))).filter((f) => f.includes(".tmp-") || f.endsWith(".wal"))
        return { viaDatabase, viaSql, leftovers }
      })
    )

    const expected = [["11", "DECIMAL(38,0)", "TIMESTAMP WITH TIME ZONE", "mainnet"]]
    expect(viaDatabase).toEqual(expected)
    expect(viaSql).toEqual(expected)
    expect(leftovers).toEqual([])
  })

  it("given a field added to the schema after parts were written when the catalog is built then old rows read it as NULL", async () => {
    const grown = defineSchema([...schema.fields.slice(0, 3), str("miner", "Block producer")], "Blocks of the test chain")
    const result = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write([1n], 1)
        const built = yield* buildCatalog(sink.outDir, [{ ...dataset, schema: grown }])
        const { db, connection } = yield* Effect.promise(() => openCatalog(built.databasePath))
        const r = (yield* Effect.promise(() => connection.runAndReadAll("SELECT height, miner, typeof(miner) FROM blocks"))).getRowsJson()
        connection.closeSync()
        db.closeSync()
        return r
      })
    )

    expect(result).toEqual([["1", null, "VARCHAR"]])
  })
})

describe("datasetFiles", () => {
  it("given files with nested struct, list and map columns under hive folders, when read, then each file's top-level columns, the union and the path's keys come out", async () => {
    const outDir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-files-"))
    const a = path.join(outDir, "nested", "network=mainnet", "month=2024-01")
    const b = path.join(outDir, "nested", "network=fuji", "month=2024-02")
    await fs.mkdir(a, { recursive: true })
    await fs.mkdir(b, { recursive: true })
    const db = await DuckDBInstance.create(":memory:")
    const conn = await db.connect()
    try {
      // the first file nests structs in lists in structs; the second has one more column
      await conn.run(
        `COPY (SELECT 1 AS id, {'x': [{'y': 1, 'z': {'w': 'a'}}], 'v': 2} AS deep, [1, 2] AS nums, MAP {'k': 1} AS m) TO '${a}/part-s-000000.parquet' (FORMAT parquet)`
      )
      await conn.run(`COPY (SELECT 2 AS id, NULL::STRUCT(x STRUCT(y INT)[], v INT) AS deep, [3] AS nums, MAP {'k': 2} AS m, 'new' AS added) TO '${b}/part-s-000001.parquet' (FORMAT parquet)`)
      const files = await datasetFiles(conn, outDir, { name: "nested", schema, partitionKeys: [] })
      expect(files?.fileColumns.slice().sort()).toEqual(["added,deep,id,m,nums", "deep,id,m,nums"])
      expect([...(files?.columns ?? [])].sort()).toEqual(["__file", "added", "deep", "id", "m", "month", "network", "nums"])
      // the same union as DuckDB's own reading of the glob
      const described = await conn.runAndReadAll(
        `DESCRIBE SELECT * FROM read_parquet('${path.join(outDir, "nested", "**", "*.parquet")}', hive_partitioning = true, union_by_name = true, filename = '__file')`
      )
      expect(described.getRowObjectsJS().map((r) => String(r["column_name"])).sort()).toEqual([...(files?.columns ?? [])].sort())
    } finally {
      conn.closeSync()
      db.closeSync()
      await fs.rm(outDir, { recursive: true, force: true })
    }
  })
})
