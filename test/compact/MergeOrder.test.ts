/**
 * Which merges concatenate their files instead of sorting them (src/compact/MergeOrder.ts), seen
 * from the merged file a compaction writes: its rows and their stored order. A concatenation keeps
 * the direction its inputs share (a newest-first listing's parts: descending); a sort is ascending.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { type CompactTable, DEFAULT_SETTINGS, compactTable } from "../../src/compact/Compactor.ts"
import { planMerge } from "../../src/compact/MergeOrder.ts"
import { dataset as staking } from "../../pipelines/staking_transactions.ts"
import { checkpoint, withConn } from "./fixtures.ts"
import { mergeableParts } from "../../src/CompactionPolicy.ts"
import { readManifest } from "../../src/compact/Manifest.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"

const schema = defineSchema([int64("height", "Block height", { nullable: false }), str("tag", "Second key column")], "Blocks for merge order tests")

type Key = readonly [height: number, tag: string]

const part = (slice: string, seq: number, keys: ReadonlyArray<Key>) =>
  Effect.flatMap(ParquetSink, (sink) => {
    const rows: Row[] = keys.map(([h, tag]) => ({ height: BigInt(h), tag, ...lineage("run-m", new Date(0)) }))
    return sink.writePart({ dataset: "blocks", slice, seq, schema, rows, partitionBy: [{ key: "chain", value: () => "c" }] })
  })

const down = (from: number, to: number, tag = "t"): Key[] => Array.from({ length: from - to + 1 }, (_, i) => [from - i, tag] as const)
const up = (from: number, to: number, tag = "t"): Key[] => Array.from({ length: to - from + 1 }, (_, i) => [from + i, tag] as const)

type Parts = ReadonlyArray<readonly [slice: string, seq: number, keys: ReadonlyArray<Key>]>

/**
 * Per round, writes its parts (slice, seq, keys) and compacts; then reads the one compacted file's
 * keys in stored order. The last round's merge is the one measured (`filesIn`).
 */
const mergedOver = (rounds: ReadonlyArray<Parts>, sortBy: ReadonlyArray<string> = ["height"], tieBreak?: ReadonlyArray<string>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.provide(
        Effect.gen(function* () {
          const sink = yield* ParquetSink
          const table: CompactTable = { name: "blocks", sortBy, ...(tieBreak === undefined ? {} : { tieBreak }), ownerOf: () => "blocks" }
          let filesIn = 0
          for (const parts of rounds) {
            for (const [slice, seq, keys] of parts) yield* part(slice, seq, keys)
            const slices = [...new Set(parts.map(([s]) => s))]
            const result = yield* Effect.promise(() =>
              withConn((conn) => compactTable(sink.outDir, table, DEFAULT_SETTINGS, { conn: async () => conn, mayMerge: async () => mergeableParts(new Map(slices.map((s) => [s, checkpoint(s, { lastSeq: 9 })])), { rerun: "never", excludesCommitted: false }) }))
            )
            filesIn = result.filesIn
          }
          return yield* Effect.promise(() =>
            withConn(async (conn) => {
              const files = (await readManifest(sink.outDir, "blocks")).files
              const file = path.join(sink.outDir, "blocks", files[0]!.file)
              const keys = (await conn.runAndReadAll(`SELECT height, tag FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`))
                .getRowsJS()
                .map(([h, t]) => [Number(h), String(t)] as const)
              return { filesIn, compacted: files.length, keys }
            })
          )
        }),
        ParquetSink.layerTest
      )
    )
  )

const merged = (parts: Parts, sortBy?: ReadonlyArray<string>, tieBreak?: ReadonlyArray<string>) => mergedOver([parts], sortBy, tieBreak)

describe("a merge concatenates files already in order, and sorts the rest", () => {
  it("given parts of a newest-first listing (each descending, each below the one before), when compacted, then the merged file holds every row descending", async () => {
    const out = await merged([
      ["s", 0, down(30, 21)],
      ["s", 1, down(20, 11)],
      ["s", 2, down(10, 1)]
    ])
    expect(out.filesIn).toBe(3)
    expect(out.keys).toEqual(down(30, 1))
  })

  it("given ascending parts whose names do not follow their ranges, when compacted, then the files are put in range order, ascending", async () => {
    const out = await merged([
      ["a", 0, up(11, 20)],
      ["b", 0, up(1, 10)],
      ["c", 0, up(21, 25)]
    ])
    expect(out.keys).toEqual(up(1, 25))
  })

  it("given descending parts whose ranges overlap, when compacted, then the rows are sorted, descending like the parts", async () => {
    const out = await merged([
      ["s", 0, down(20, 8)],
      ["s", 1, down(10, 1)]
    ])
    expect(out.keys.map(([h]) => h)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 10, 9, 9, 8, 8, 7, 6, 5, 4, 3, 2, 1])
  })

  it("given an ascending compacted file (sorted before) and newer descending parts, when compacted twice more, then the rows end descending, all of them once", async () => {
    const out = await mergedOver([
      [
        ["s", 0, up(1, 5)],
        ["s", 1, [[6, "t"], [7, "t"], [9, "t"]]]
      ],
      [
        ["s", 2, down(20, 16)],
        ["s", 3, down(15, 10)]
      ],
      [
        ["s", 4, down(30, 26)],
        ["s", 5, down(25, 21)]
      ]
    ])
    // the second merge sorted (one ascending file, two descending) the way most files went; the
    // third found every file descending and its ranges apart, and concatenated
    expect(out.compacted).toBe(1)
    expect(out.filesIn).toBe(3)
    expect(out.keys).toEqual([...down(30, 10), [9, "t"], [7, "t"], [6, "t"], ...down(5, 1)])
  })

  it("given one ascending and one descending part, when compacted, then the rows are sorted ascending", async () => {
    const out = await merged([
      ["s", 0, up(1, 5)],
      ["s", 1, down(10, 6)]
    ])
    expect(out.keys).toEqual(up(1, 10))
  })

  it("given a two-column key whose second column goes against the first within a file, when compacted, then the rows are sorted by both", async () => {
    const out = await merged(
      [
        ["s", 0, [[4, "a"], [4, "b"], [3, "a"], [3, "b"]]],
        ["s", 1, [[1, "a"], [2, "b"], [2, "c"]]]
      ],
      ["height", "tag"]
    )
    expect(out.keys).toEqual([[1, "a"], [2, "b"], [2, "c"], [3, "a"], [3, "b"], [4, "a"], [4, "b"]])
  })

  it("given a two-column key that every file follows descending, when compacted, then the rows stay descending by both", async () => {
    const out = await merged(
      [
        ["s", 0, [[4, "b"], [4, "a"], [3, "a"]]],
        ["s", 1, [[2, "b"], [2, "a"], [1, "a"]]]
      ],
      ["height", "tag"]
    )
    expect(out.keys).toEqual([[4, "b"], [4, "a"], [3, "a"], [2, "b"], [2, "a"], [1, "a"]])
  })

  it("given parts in height order whose rows within a height are not in tag order, when compacted on height alone, then they concatenate and keep their order", async () => {
    const out = await merged(
      [
        ["s", 0, [[1, "c"], [1, "a"], [2, "b"], [2, "a"]]],
        ["s", 1, [[2, "z"], [3, "b"], [3, "a"]]]
      ],
      ["height"],
      ["tag"]
    )
    // a sort would have put [1, "a"] first (the tie-break); the concatenation keeps the parts' order
    expect(out.keys).toEqual([[1, "c"], [1, "a"], [2, "b"], [2, "a"], [2, "z"], [3, "b"], [3, "a"]])
  })

  it("given overlapping parts with rows tied on the sort key, when compacted, then the sort orders the ties by the tie-break", async () => {
    const out = await merged(
      [
        ["s", 0, [[1, "b"], [3, "c"], [3, "a"]]],
        ["s", 1, [[2, "y"], [3, "b"]]]
      ],
      ["height"],
      ["tag"]
    )
    expect(out.keys).toEqual([[1, "b"], [2, "y"], [3, "a"], [3, "b"], [3, "c"]])
  })
})

describe("planMerge", () => {
  it("given staking_transactions' own sort order and parts in block order whose txs within a block are not in hash order (its listing's order), then they concatenate", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-mergeorder-"))
    const plan = await withConn(async (conn) => {
      const file = async (name: string, rows: ReadonlyArray<readonly [number, string]>) => {
        const f = path.join(dir, `${name}.parquet`)
        await conn.run(`COPY (SELECT unnest([${rows.map(([b, h]) => `{'block_number': ${b}::BIGINT, 'tx_hash': '${h}'}`).join(",")}], recursive := true)) TO '${f}'`)
        return f
      }
      const a = await file("a", [[10, "9f"], [10, "1a"], [11, "c0"]])
      const b = await file("b", [[11, "0b"], [12, "ee"], [12, "01"]])
      const plan = await planMerge(conn, `read_parquet(['${b}', '${a}'], filename = true, file_row_number = true)`, staking.sortBy ?? staking.key)
      return { plan, a, b }
    }).finally(() => fs.rm(dir, { recursive: true, force: true }))
    expect(plan.plan).toEqual({ direction: "asc", files: [plan.a, plan.b] })
  })


  it("given files whose ranges touch at one key, then they still concatenate; given one key in both files' insides, then they are sorted", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-mergeorder-"))
    const plans = await withConn(async (conn) => {
      const file = async (name: string, heights: ReadonlyArray<number>) => {
        const f = path.join(dir, `${name}.parquet`)
        await conn.run(`COPY (SELECT unnest([${heights.join(",")}]) AS height) TO '${f}'`)
        return f
      }
      const [a, b, c] = [await file("a", [1, 2, 3]), await file("b", [3, 4, 5]), await file("c", [2, 6])]
      const source = (fs: ReadonlyArray<string>) => `read_parquet([${fs.map((f) => `'${f}'`).join(",")}], filename = true, file_row_number = true)`
      const touching = await planMerge(conn, source([b, a]), ["height"])
      const inside = await planMerge(conn, source([a, c]), ["height"])
      return { touching, inside, a, b }
    }).finally(() => fs.rm(dir, { recursive: true, force: true }))
    expect(plans.touching).toEqual({ direction: "asc", files: [plans.a, plans.b] })
    expect(plans.inside).toEqual({ direction: "asc" })
  })

  it("given a one-column key with NULLs (ordered last, like ORDER BY), then a file with a NULL between two keys is sorted, and one ending in a NULL still concatenates after the others", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-mergeorder-"))
    const plans = await withConn(async (conn) => {
      const file = async (name: string, heights: ReadonlyArray<number | null>) => {
        const f = path.join(dir, `${name}.parquet`)
        await conn.run(`COPY (SELECT unnest([${heights.map((h) => (h === null ? "NULL" : String(h))).join(",")}]::BIGINT[]) AS height) TO '${f}'`)
        return f
      }
      const [gap, high, last] = [await file("gap", [1, null, 2]), await file("high", [5, 6]), await file("last", [7, null])]
      const source = (fs: ReadonlyArray<string>) => `read_parquet([${fs.map((f) => `'${f}'`).join(",")}], filename = true, file_row_number = true)`
      // a NULL compared as a plain value counts neither up nor down: `gap` would pass as ascending
      return { gapped: await planMerge(conn, source([high, gap]), ["height"]), ending: await planMerge(conn, source([last, high]), ["height"]), high, last }
    }).finally(() => fs.rm(dir, { recursive: true, force: true }))
    expect(plans.gapped).toEqual({ direction: "asc" })
    expect(plans.ending).toEqual({ direction: "asc", files: [plans.high, plans.last] })
  })
})
