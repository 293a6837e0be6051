/**
 * The ladder of memory limits a merge runs within (src/compact/MergeMemory.ts), on a connection
 * that fails like DuckDB when a statement needs more than the limit set.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { describe, expect, it } from "vitest"
import { machineLimit, runWithinMemory, setMemoryLimit } from "../../src/compact/MergeMemory.ts"

/** A statement needing `need` MB; records every statement run. */
const connection = (need: number, otherError?: string) => {
  const seen: string[] = []
  let limit = Infinity
  const conn = {
    run: async (sql: string) => {
      seen.push(sql)
      const set = /^SET memory_limit = '(\d+)MB'$/.exec(sql)
      if (set !== null) {
        limit = Number(set[1])
        return
      }
      if (otherError !== undefined) throw new Error(otherError)
      if (need > limit) throw new Error(`Out of Memory Error: could not allocate block of size 256.0 KiB (${limit} MiB used)`)
    }
  }
  return { conn: conn as unknown as DuckDBConnection, seen }
}

describe("runWithinMemory", () => {
  it("given a merge needing 100 MB and the ladder 64MB, 192MB, when run, then it fails within 64MB, runs within 192MB and the first limit is set back", async () => {
    const { conn, seen } = connection(100)
    await runWithinMemory(conn, "COPY merge", ["64MB", "192MB"])
    expect(seen).toEqual(["SET memory_limit = '64MB'", "COPY merge", "SET memory_limit = '192MB'", "COPY merge", "SET memory_limit = '64MB'"])
  })

  it("given a merge needing more than every rung, when run, then it is run last within the machine's default and succeeds there", async () => {
    const { conn, seen } = connection(Number.parseInt(machineLimit()) - 1)
    await runWithinMemory(conn, "COPY merge", ["64MB", "192MB"])
    expect(seen.filter((s) => s.startsWith("SET"))).toEqual(["SET memory_limit = '64MB'", "SET memory_limit = '192MB'", `SET memory_limit = '${machineLimit()}'`, "SET memory_limit = '64MB'"])
    expect(seen.filter((s) => s === "COPY merge")).toHaveLength(3)
  })

  it("given a merge needing more than the machine's default, when run, then its out-of-memory error is the caller's and the first limit is set back", async () => {
    const { conn, seen } = connection(Number.parseInt(machineLimit()) + 1)
    await expect(runWithinMemory(conn, "COPY merge", ["64MB"])).rejects.toThrow(/Out of Memory/)
    expect(seen.at(-1)).toBe("SET memory_limit = '64MB'")
  })

  it("given an error other than memory, when run, then no further limit is tried (and the first, still set, is not set again)", async () => {
    const { conn, seen } = connection(1, "IO Error: disk full")
    await expect(runWithinMemory(conn, "COPY merge", ["64MB", "192MB"])).rejects.toThrow(/disk full/)
    expect(seen).toEqual(["SET memory_limit = '64MB'", "COPY merge"])
  })
})

describe("setMemoryLimit", () => {
  it("given a limit already set through a connection, when set again, then no statement runs; another limit, or another connection, is set", async () => {
    const a = connection(1)
    const b = connection(1)
    await setMemoryLimit(a.conn, "64MB")
    await setMemoryLimit(a.conn, "64MB")
    await setMemoryLimit(b.conn, "64MB")
    await setMemoryLimit(a.conn, "192MB")
    await setMemoryLimit(a.conn, "64MB")
    expect(a.seen).toEqual(["SET memory_limit = '64MB'", "SET memory_limit = '192MB'", "SET memory_limit = '64MB'"])
    expect(b.seen).toEqual(["SET memory_limit = '64MB'"])
  })

  it("given a SET that fails, when the same limit is set again, then it is tried again", async () => {
    let calls = 0
    const conn = {
      run: async () => {
        calls++
        if (calls === 1) throw new Error("Invalid Input Error: not now")
      }
    } as unknown as DuckDBConnection
    await expect(setMemoryLimit(conn, "64MB")).rejects.toThrow(/not now/)
    await setMemoryLimit(conn, "64MB")
    expect(calls).toBe(2)
  })
})
