import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { datasets } from "../../pipelines/index.ts"
import { stagesOf } from "../../src/pace/Order.ts"

const PIPELINES = path.join(import.meta.dirname, "..", "..", "pipelines")

/** Every table a dataset writes (its own and its child tables), to the dataset that writes it. */
const writer = new Map(datasets.flatMap((d) => [[d.name, d.name] as const, ...(d.children ?? []).map((c) => [c.name, d.name] as const)]))

/** The other datasets whose tables a pipeline's source names after FROM or JOIN, or in a fan-out's `reads`. */
const tablesRead = (name: string): ReadonlyArray<string> => {
  const source = fs.readFileSync(path.join(PIPELINES, `${name}.ts`), "utf8")
  const named = [
    ...[...source.matchAll(/\b(?:FROM|JOIN)\s+([a-z_0-9]+)/g)].map((m) => m[1]!),
    ...[...source.matchAll(/reads: \[([^\]]*)\]/g)].flatMap((m) => [...m[1]!.matchAll(/"([a-z_0-9]+)"/g)].map((q) => q[1]!))
  ]
  return [...new Set(named.flatMap((t) => { const w = writer.get(t); return w === undefined || w === name ? [] : [w] }))].sort()
}

describe("datasets that read another's output", () => {
  it("given each pipeline's queries, when the tables they read are listed, then each dataset declares exactly the other datasets whose output it reads", () => {
    const declared = datasets.map((d) => [d.name, [...(d.readsOutputOf ?? [])].sort()])
    expect(declared).toEqual(datasets.map((d) => [d.name, tablesRead(d.name)]))
    // not an empty check: the fan-outs are there
    expect(declared.filter(([, r]) => r!.length > 0).map(([n]) => n)).toEqual(
      expect.arrayContaining(["aggregated_signatures", "assets", "evm_transactions", "nft_tokens", "node_transactions", "validators"])
    )
  })

  it("given the registry, when staged, then no cycle, and each dataset comes after those it reads in the registry (its run order)", () => {
    const stages = stagesOf(datasets)
    const at = new Map(datasets.map((d, i) => [d.name, i]))
    for (const [i, d] of datasets.entries()) {
      for (const r of d.readsOutputOf ?? []) {
        expect(at.get(r), `${d.name} reads ${r}`).toBeLessThan(i)
        expect(stages[i]).toBeGreaterThan(stages[at.get(r)!]!)
      }
    }
  })
})
