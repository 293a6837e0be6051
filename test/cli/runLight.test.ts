/**
 * `chainetl run` starts without what only some datasets use: the static imports of the command
 * reach Arrow's type and schema modules only (not its index, with its builders, vectors and IPC)
 * and no avalanchejs (the UTXO datasets load it on their first record). Each was compiled and
 * evaluated on every start (measured: docs/performance.md#start-up-costs).
 */
import { describe, expect, it } from "vitest"
import { reachable } from "../support/staticImports.ts"

describe("run's start-up", () => {
  it("given run's sources, when their static imports are followed, then Arrow comes from its type, schema and enum modules and avalanchejs is not among them", () => {
    const { files, packages, specifiers } = reachable("src/cli/runCommand.ts")
    // the premise: run does reach the registry's pipelines and schemas, and Arrow
    expect(files.has("pipelines/staking_transactions.ts")).toBe(true)
    expect(files.has("src/decode/utxo.ts")).toBe(true)
    expect(packages.has("apache-arrow")).toBe(true)
    expect([...specifiers].filter((s) => s.startsWith("apache-arrow")).sort()).toEqual(["apache-arrow/enum", "apache-arrow/schema", "apache-arrow/type"])
    expect([...packages].filter((p) => p.startsWith("@avalabs/"))).toEqual([])
  })
})
