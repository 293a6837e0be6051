/**
 * `chainetl status` starts light: it reads the registry's metadata (derived from the pipelines,
 * written by the build) instead of the pipelines, and its static imports reach none of the
 * pipelines' decoders, schemas or HTTP clients (they cost most of its start-up; --live and views
 * built from files load them on demand).
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { datasets } from "../../pipelines/index.ts"
import { metaOf } from "../../src/crawl/DatasetMeta.ts"

const REPO = fileURLToPath(new URL("../../", import.meta.url))

/** `import type …` or `import { type A, type B }`: erased, loads nothing. */
const typeOnly = (clause: string): boolean => /^type\s/.test(clause) || /^\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)*\s*\}$/s.test(clause)

/** Modules a source file loads when evaluated: its imports that are not type-only (dynamic ones excluded). */
const staticImports = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(/^import\s+([^'";]*?)\s+from\s+["']([^"']+)["']|^import\s+["']([^"']+)["']/gms)].flatMap(([, clause, from, bare]) =>
    bare !== undefined ? [bare] : clause !== undefined && from !== undefined && !typeOnly(clause.trim()) ? [from] : []
  )

/** Every module reachable by static imports from `entry`: repository files (relative) and packages. */
const reachable = (entry: string): { readonly files: ReadonlySet<string>; readonly packages: ReadonlySet<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of staticImports(file)) {
      if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec))
      else if (!spec.startsWith("node:")) packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? spec))
    }
  }
  visit(path.join(REPO, entry))
  return { files: new Set([...files].map((f) => path.relative(REPO, f))), packages }
}

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
