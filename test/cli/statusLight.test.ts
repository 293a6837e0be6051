/**
 * `chainetl status` starts light: it reads the registry's metadata (derived from the pipelines,
 * written by the build) instead of the pipelines, and its static imports reach none of the
 * pipelines' decoders, schemas or HTTP clients (they cost most of its start-up; --live and views
 * built from files load them on demand).
 */
import { describe, expect, it } from "vitest"
import { datasets } from "../../pipelines/index.ts"
import { metaOf } from "../../src/crawl/DatasetMeta.ts"
import { reachable } from "../support/staticImports.ts"

describe("status's start-up", () => {
  it("given the registry, when its metadata is derived, then it names every dataset in order, its windows and height columns, and survives JSON", () => {
    const meta = metaOf(datasets)
    expect(meta.map((m) => m.name)).toEqual(datasets.map((d) => d.name))
    expect(meta.filter((m) => m.windowed).map((m) => m.name)).toEqual(datasets.filter((d) => d.windows !== undefined).map((d) => d.name))
    expect(meta.filter((m) => m.heights !== undefined).map((m) => m.name)).toEqual(["node_x_blocks", "node_p_blocks", "evm_blocks", "token_transfers"])
    expect(meta.find((m) => m.name === "token_transfers")?.heights).toEqual({ listing: ["chain_id", "token_address"], column: "block_number", reach: { chain_id: "chain_id", token_address: "address" } })
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta)
  })

  it("given status's sources, when their static imports are followed, then no pipeline, schema, Arrow, avalanchejs or HTTP client is among them", () => {
    const { files, packages } = reachable("src/cli/statusCommand.ts")
    expect([...files].filter((f) => f.startsWith("pipelines/") || f.startsWith("schemas/"))).toEqual([])
    expect([...packages].sort()).toEqual(["@duckdb/node-api", "effect"])
  })
})
