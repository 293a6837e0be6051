import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { Row } from "../../schemas/common.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { canonicalFromDuck, canonicalRow } from "../../src/sink/ReadBack.ts"
import { dayOf, everyType, everyTypeRows } from "./fixtures.ts"

const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.provide(effect, ParquetSink.layerTest)))

const query = async (database: string, sql: string): Promise<Array<Record<string, unknown>>> => {
  const db = await DuckDBInstance.create(database, { access_mode: "READ_ONLY" })
  try {
    const connection = await db.connect()
    const reader = await connection.runAndReadAll(sql)
    connection.closeSync()
    return reader.getRowObjects().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, canonicalFromDuck(v)])))
  } finally {
    db.closeSync()
  }
}

const writeAndCatalog = Effect.gen(function* () {
  const sink = yield* ParquetSink
  const parts = yield* sink.writePart({
    dataset: "every_type",
    slice: "s1",
    seq: 1,
    schema: everyType,
    rows: everyTypeRows,
    partitionBy: [
      { key: "chain_id", value: (row: Row) => String(row["chain_id"]) },
      { key: "day", value: dayOf }
    ]
  })
  const catalog = yield* buildCatalog(sink.outDir, [
    {
      name: "every_type",
      schema: everyType,
      partitionKeys: [
        { key: "chain_id", type: "BIGINT" },
        { key: "day", type: "DATE", comment: "UTC day of block_time" }
      ]
    }
  ])
  const rows = yield* Effect.promise(() => query(catalog.databasePath, "SELECT * FROM every_type ORDER BY block_number"))
  const types = yield* Effect.promise(() => query(catalog.databasePath, "DESCRIBE every_type"))
  const stats = yield* Effect.promise(() =>
    query(
      catalog.databasePath,
      `SELECT path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata('${parts[0]!.path}')`
    )
  )
  return { outDir: sink.outDir, parts, rows, types, stats }
})

describe("writePart then the catalog view", () => {
  it("given rows of every type when written and read through the catalog then every value comes back equal", async () => {
    const { rows } = await run(writeAndCatalog)

    const expected = [...everyTypeRows]
      .sort((a, b) => ((a["block_number"] as bigint) < (b["block_number"] as bigint) ? -1 : 1))
      .map((row) => ({ ...canonicalRow(everyType.fields, row), day: dayOf(row) }))
    expect(rows).toEqual(expected)
    expect(rows[2]!["block_number"]).toBe((1n << 63n) - 1n)
    expect(rows[2]!["value"]).toBe(10n ** 38n - 1n)
    expect(rows[2]!["balance"]).toBe(((1n << 256n) - 1n).toString())
    expect(rows[2]!["meta"]).toEqual({ kind: "call", nonce: ((1n << 64n) - 1n) >> 1n, seen_at: 1_717_199_999_123_456n })
  })

  it("given the catalog view when described then column types are exactly the declared DuckDB types", async () => {
    const { types } = await run(writeAndCatalog)

    expect(Object.fromEntries(types.map((t) => [t["column_name"], t["column_type"]]))).toEqual({
      chain_id: "BIGINT",
      block_number: "BIGINT",
      tx_hash: "VARCHAR",
      from_address: "VARCHAR",
      label: "VARCHAR",
      log_index: "INTEGER",
      gas_price_gwei: "DOUBLE",
      success: "BOOLEAN",
      value: "DECIMAL(38,0)",
      balance: "VARCHAR",
      balance_double: "DOUBLE",
      block_time: "TIMESTAMP WITH TIME ZONE",
      block_date: "DATE",
      input: "BLOB",
      transfers: 'STRUCT("to" VARCHAR, amount DECIMAL(38,0), tags VARCHAR[])[]',
      meta: "STRUCT(kind VARCHAR, nonce BIGINT, seen_at TIMESTAMP WITH TIME ZONE)",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      day: "DATE"
    })
  })

  it("given two partitions when written then files land at their hive paths without the partition columns", async () => {
    const { outDir, parts, stats } = await run(writeAndCatalog)

    expect(parts.map((p) => [path.relative(outDir, p.path), p.rows, p.partition])).toEqual([
      ["every_type/chain_id=43114/day=2024-05-31/part-s1-000001.parquet", 1, [["chain_id", "43114"], ["day", "2024-05-31"]]],
      ["every_type/chain_id=43114/day=2023-11-14/part-s1-000001.parquet", 1, [["chain_id", "43114"], ["day", "2023-11-14"]]],
      ["every_type/chain_id=1/day=2015-07-30/part-s1-000001.parquet", 1, [["chain_id", "1"], ["day", "2015-07-30"]]]
    ])
    expect(parts.every((p) => p.bytes > 0)).toBe(true)
    const columns = stats.map((s) => s["path_in_schema"])
    expect(columns).not.toContain("chain_id")
    expect(columns).toContain("block_number")
  })

  it("given a written part when its parquet metadata is read then min/max statistics are present", async () => {
    const { stats } = await run(writeAndCatalog)

    const byColumn = Object.fromEntries(stats.map((s) => [s["path_in_schema"], [s["stats_min_value"], s["stats_max_value"]]]))
    expect(byColumn["block_number"]).toEqual([String((1n << 63n) - 1n), String((1n << 63n) - 1n)])
    expect(byColumn["value"]).toEqual([String(10n ** 38n - 1n), String(10n ** 38n - 1n)])
    expect(byColumn["block_time"]![0]).toMatch(/^2024-05-31 23:59:59\.999/)
  })
})
