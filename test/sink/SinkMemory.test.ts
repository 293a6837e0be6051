/**
 * CHAINETL_SINK_MEMORY (src/sink/SinkMemory.ts): how the sink's DuckDB gives memory back, read
 * from the environment, and the DuckDB option each value sets on a real instance.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { ConfigError } from "../../src/Errors.ts"
import { duckdbOptionsOf, parseSinkMemory } from "../../src/sink/SinkMemory.ts"

describe("parseSinkMemory", () => {
  it.each([
    ["unset", undefined, "fast"],
    ["empty", "", "fast"],
    ["fast", "fast", "fast"],
    ["lean, any case and spaces", " Lean ", "lean"]
  ] as const)("given %s, then the sink is %s", (_what, raw, expected) => {
    expect(parseSinkMemory(raw)).toBe(expected)
  })

  it("given a value that is neither, then a ConfigError names the variable, the value and both choices", () => {
    const e = parseSinkMemory("small")
    expect(e).toBeInstanceOf(ConfigError)
    expect((e as ConfigError).message).toBe(
      'CHAINETL_SINK_MEMORY: "small" is not fast or lean. Fix: export CHAINETL_SINK_MEMORY=fast (less CPU) or CHAINETL_SINK_MEMORY=lean (less peak memory), or unset it'
    )
  })
})

describe("duckdbOptionsOf", () => {
  const flushThreshold = async (memory: "fast" | "lean") => {
    const db = await DuckDBInstance.create(":memory:", { threads: "1", ...duckdbOptionsOf(memory) })
    const conn = await db.connect()
    try {
      return (await conn.runAndReadAll("SELECT current_setting('allocator_bulk_deallocation_flush_threshold')")).getRowsJS()[0]![0]
    } finally {
      conn.closeSync()
      db.closeSync()
    }
  }

  it("given lean, when an instance opens with its options, then releases of 2 MB are given back; given fast, then DuckDB's own default (512 MiB)", async () => {
    expect(await flushThreshold("lean")).toBe("1.9 MiB") // DuckDB spells 2 MB (10^6 bytes) so
    expect(await flushThreshold("fast")).toBe("512.0 MiB")
  })
})
