/**
 * A dataset whose schema gains a column: parts written before and after read through one view
 * (union_by_name; the old files' rows read the new column as NULL), and the catalog records both
 * schema versions with the files holding each.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { amount, defineSchema, int64, lineage, str, type Row } from "../../schemas/common.ts"
import { type CatalogDataset, buildCatalog } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { SCHEMA_DIR, schemaColumns, schemaHash } from "../../src/sink/SchemaVersions.ts"
import { query } from "../support/spine.ts"

const v1 = defineSchema([int64("height", "Block height", { nullable: false }), amount("fee", "Fee in nAVAX")], "Blocks of the test chain")
const v2 = defineSchema(
  [int64("height", "Block height", { nullable: false }), amount("fee", "Fee in nAVAX"), str("proposer", "Node that proposed the block (added in v2)")],
  "Blocks of the test chain"
)
const partitionKeys = [{ key: "network", type: "VARCHAR" as const }]
const dataset = (schema: typeof v1): CatalogDataset => ({ name: "blocks", schema, partitionKeys, latest: { key: ["network", "height"] } })

const write = (schema: typeof v1, seq: number, rows: ReadonlyArray<Row>) =>
  Effect.flatMap(ParquetSink, (sink) =>
    sink.writePart({ dataset: "blocks", slice: "s", seq, schema, rows: rows.map((r) => ({ ...r, ...lineage(`run-${seq}`, new Date(seq * 1000)) })), partitionBy: [{ key: "network", value: () => "mainnet" }] })
  )

describe("schema evolution", () => {
  it("given parts of schema v1 then parts with a new column, when the catalog is rebuilt after each, then one view reads both and the catalog lists both versions", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sink = yield* ParquetSink
          yield* write(v1, 0, [{ height: 1n, fee: 10n }, { height: 2n, fee: 20n }])
          const first = yield* buildCatalog(sink.outDir, [dataset(v1)])
          const before = yield* Effect.promise(() => query(first.databasePath, "SELECT version, files, is_current FROM chainetl_schema_versions"))
          yield* write(v2, 1, [{ height: 3n, fee: 30n, proposer: "NodeID-A" }])
          yield* buildCatalog(sink.outDir, [dataset(v2)])
          // a rebuild with the same schema adds no version
          const built = yield* buildCatalog(sink.outDir, [dataset(v2)])
          const rows = yield* Effect.promise(() => query(built.databasePath, "SELECT height::INTEGER AS h, fee::VARCHAR AS fee, proposer FROM blocks ORDER BY h"))
          const versions = yield* Effect.promise(() =>
            query(built.databasePath, "SELECT dataset, version, schema_hash, columns, files, is_current FROM chainetl_schema_versions ORDER BY version")
          )
          const history = JSON.parse(yield* Effect.promise(() => fs.readFile(path.join(sink.outDir, SCHEMA_DIR, "blocks.json"), "utf8"))) as { versions: unknown[] }
          return { before, rows, versions, history }
        })
      ).pipe(Effect.provide(ParquetSink.layerTest))
    )
    expect(result.before).toEqual([{ version: 1, files: 1, is_current: true }])
    expect(result.rows).toEqual([
      { h: 1, fee: "10", proposer: null },
      { h: 2, fee: "20", proposer: null },
      { h: 3, fee: "30", proposer: "NodeID-A" }
    ])
    const hash1 = schemaHash(schemaColumns(v1, "blocks"))
    const hash2 = schemaHash(schemaColumns(v2, "blocks"))
    expect(hash1).not.toBe(hash2)
    expect(result.versions).toEqual([
      { dataset: "blocks", version: 1, schema_hash: hash1, columns: ["height BIGINT", "fee DECIMAL(38,0)", "run_id VARCHAR", "ingested_at TIMESTAMP WITH TIME ZONE"], files: 1, is_current: false },
      {
        dataset: "blocks",
        version: 2,
        schema_hash: hash2,
        columns: ["height BIGINT", "fee DECIMAL(38,0)", "proposer VARCHAR", "run_id VARCHAR", "ingested_at TIMESTAMP WITH TIME ZONE"],
        files: 1,
        is_current: true
      }
    ])
    expect(result.history.versions).toHaveLength(2)
  })
})
