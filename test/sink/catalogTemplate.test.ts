/**
 * The catalog built from the cached template of empty datasets (src/sink/CatalogTemplate.ts) is
 * the catalog built whole: the same views, columns, comments and rows, and the same catalog.sql.
 * The template is made once per set of statements, and an unusable cache only means a whole build.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { type CatalogDataset, buildCatalog } from "../../src/sink/Catalog.ts"
import { CACHE_DIR_ENV } from "../../src/sink/CatalogTemplate.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"

const blocks: CatalogDataset = {
  name: "blocks",
  schema: defineSchema([int64("height", "Block height", { nullable: false }), str("hash", "Block hash")], "Blocks of the test chain"),
  partitionKeys: [{ key: "network", type: "VARCHAR", comment: "mainnet or fuji" }],
  latest: { key: ["height"] }
}
const transfers: CatalogDataset = {
  name: "transfers",
  schema: defineSchema([int64("block", "Block height", { nullable: false }), str("token", "Token address")], "Transfers of the test chain"),
  partitionKeys: [{ key: "network", type: "VARCHAR", comment: "mainnet or fuji" }]
}
const datasets = [blocks, transfers]

/** Everything a reader of the catalog sees: views with their SQL and comments, columns with their types and comments, rows. */
const describeCatalog = async (file: string) => {
  const db = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" })
  const c = await db.connect()
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowsJson()
  const seen = {
    views: await rows("SELECT view_name, sql, comment FROM duckdb_views() WHERE NOT internal ORDER BY view_name"),
    columns: await rows("SELECT table_name, column_name, data_type, comment FROM duckdb_columns() WHERE NOT internal ORDER BY table_name, column_index"),
    tables: await rows("SELECT table_name, comment FROM duckdb_tables() WHERE NOT internal ORDER BY table_name"),
    blocks: await rows("SELECT height, hash, network FROM blocks ORDER BY height"),
    transfers: await rows("SELECT count(*) FROM transfers")
  }
  c.closeSync()
  db.closeSync()
  return seen
}

describe("a catalog built from the cached template", () => {
  let dir: string
  let saved: string | undefined
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-template-"))
    saved = process.env[CACHE_DIR_ENV]
  })
  afterEach(async () => {
    if (saved === undefined) delete process.env[CACHE_DIR_ENV]
    else process.env[CACHE_DIR_ENV] = saved
    await fs.rm(dir, { recursive: true, force: true })
  })

  const outputWithBlocks = async (name: string) => {
    const out = path.join(dir, name)
    const rows: Row[] = [1n, 2n].map((height) => ({ height, hash: `0x${height}`, ...lineage("r", new Date(0)) }))
    await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.flatMap(ParquetSink, (sink) =>
            sink.writePart({ dataset: "blocks", slice: "s", seq: 0, schema: blocks.schema, rows, partitionBy: [{ key: "network", value: () => "mainnet" }] })
          ),
          ParquetSink.layer(out)
        )
      )
    )
    return out
  }

  it("given one dataset with files and one without, when the catalog is built from the template and whole, then readers see the same catalog and catalog.sql is the same", async () => {
    // given
    const cache = path.join(dir, "cache")
    const fromTemplate = await outputWithBlocks("a")
    const whole = await outputWithBlocks("b")
    // when: a cache folder that is a file cannot hold the template, so the build is whole
    process.env[CACHE_DIR_ENV] = path.join(dir, "not-a-folder")
    await fs.writeFile(path.join(dir, "not-a-folder"), "")
    await Effect.runPromise(buildCatalog(whole, datasets))
    process.env[CACHE_DIR_ENV] = cache
    await Effect.runPromise(buildCatalog(fromTemplate, datasets))
    await Effect.runPromise(buildCatalog(fromTemplate, datasets))
    // then
    const templates = (await fs.readdir(cache)).filter((f) => f.startsWith("catalog-template-") && f.endsWith(".duckdb"))
    expect(templates).toHaveLength(1)
    const a = await describeCatalog(path.join(fromTemplate, "catalog.duckdb"))
    const b = await describeCatalog(path.join(whole, "catalog.duckdb"))
    const paths = (x: unknown) => JSON.stringify(x).replaceAll(fromTemplate, "<out>").replaceAll(whole, "<out>")
    expect(paths(a)).toEqual(paths(b))
    expect(a.blocks).toEqual([["1", "0x1", "mainnet"], ["2", "0x2", "mainnet"]])
    expect(a.views.map((v) => v[0])).toEqual(["blocks", "blocks_latest", "transfers"])
    const sqlA = await fs.readFile(path.join(fromTemplate, "catalog.sql"), "utf8")
    const sqlB = await fs.readFile(path.join(whole, "catalog.sql"), "utf8")
    // each output met its schema at its own instant (chainetl_schema_versions.first_seen)
    const firstSeen = (sql: string) => paths(sql).replace(/'\d{4}-\d\d-\d\dT[\d:.]+Z'::TIMESTAMPTZ/g, "<first seen>")
    expect(firstSeen(sqlA)).toEqual(firstSeen(sqlB))
  })

  it("given a dataset whose declaration changed, when the catalog is built, then a new template is made and the change shows", async () => {
    const cache = path.join(dir, "cache")
    process.env[CACHE_DIR_ENV] = cache
    const out = path.join(dir, "c")
    await Effect.runPromise(buildCatalog(out, datasets))
    const renamed: CatalogDataset = { ...transfers, schema: defineSchema([int64("block", "Block number", { nullable: false }), str("token", "Token address")], "Transfers of the test chain") }
    await Effect.runPromise(buildCatalog(out, [blocks, renamed]))
    expect((await fs.readdir(cache)).filter((f) => f.endsWith(".duckdb"))).toHaveLength(2)
    // past eight, the least recently used go
    for (let k = 0; k < 8; k++) await Effect.runPromise(buildCatalog(out, [blocks, { ...transfers, name: `transfers_${k}` }]))
    await Effect.runPromise(buildCatalog(out, [blocks, renamed]))
    const kept = (await fs.readdir(cache)).filter((f) => f.endsWith(".duckdb"))
    expect(kept).toHaveLength(8)
    const seen = await describeCatalog(path.join(out, "catalog.duckdb"))
    expect(seen.columns.filter((c) => c[0] === "transfers" && c[1] === "block").map((c) => c[3])).toEqual(["Block number"])
  })
})
