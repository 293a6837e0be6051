/**
 * The bookkeeping of compaction, on real Parquet parts written by the sink: which parts are
 * merged, what the manifest records, what a view reads at each step (old and new catalogs), what
 * a killed compaction leaves and how recovery and replacing slices are kept from its files.
 */
import { Effect, Either } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { type CompactSettings, type CompactTable, type CompactionEvent, DEFAULT_SETTINGS, binsOf, compactTable, deleteFiles, garbageOf } from "../../src/compact/Compactor.ts"
import { MERGED_ROW_GROUP_ROWS } from "../../src/compact/RowGroups.ts"
import { type Owner, mergeable, mergeableParts } from "../../src/CompactionPolicy.ts"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { checkpoint, withConn } from "./fixtures.ts"
import { type CatalogDataset, buildCatalog } from "../../src/sink/Catalog.ts"
import { holdsPartOf, readManifest, replacedParts, toRuns } from "../../src/compact/Manifest.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"

const schema = defineSchema([int64("height", "Block height", { nullable: false }), str("tag", "Which part wrote it")], "Blocks for compaction tests")
const dataset: CatalogDataset = { name: "blocks", schema, partitionKeys: [{ key: "chain", type: "VARCHAR" }] }

const rows = (tag: string, heights: ReadonlyArray<number>): Row[] => heights.map((h) => ({ height: BigInt(h), tag, ...lineage("run-c", new Date(0)) }))

const NEVER: Owner = { rerun: "never", excludesCommitted: false }
const table: CompactTable = { name: "blocks", sortBy: ["height"], ownerOf: () => "blocks" }

const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink>): Promise<A> => Effect.runPromise(Effect.scoped(Effect.provide(effect, ParquetSink.layerTest)))

const write = (slice: string, seq: number, tag: string, heights: ReadonlyArray<number>, chain = "c") =>
  Effect.flatMap(ParquetSink, (sink) =>
    sink.writePart({ dataset: "blocks", slice, seq, schema, rows: rows(tag, heights), partitionBy: [{ key: "chain", value: () => chain }] })
  )

/** What the slices of these checkpoints may merge, their dataset's listing never rerun. */
const mayMergeOf = (checkpoints: ReadonlyArray<CheckpointState>) => async () => mergeableParts(new Map(checkpoints.map((c) => [c.slice, c])), NEVER)

const compact = (outDir: string, checkpoints: ReadonlyArray<CheckpointState>, t = table, settings: CompactSettings = DEFAULT_SETTINGS, onEvent?: (e: CompactionEvent) => void) =>
  Effect.promise(() =>
    withConn((conn) => compactTable(outDir, t, settings, { conn: async () => conn, mayMerge: mayMergeOf(checkpoints), ...(onEvent === undefined ? {} : { onEvent }) }))
  )

/** Heights read through a catalog file (a reader holding it open), sorted. */
const heightsIn = (catalogFile: string) =>
  Effect.promise(() =>
    withConn(async (conn) => {
      await conn.run(`ATTACH '${catalogFile}' AS cat (READ_ONLY)`)
      return (await conn.runAndReadAll("SELECT height FROM cat.blocks ORDER BY 1")).getRowsJS().map(([h]) => Number(h))
    })
  )

const filesOf = async (root: string): Promise<string[]> =>
  (await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort()

describe("mergeable: only parts no later crawl step needs as files of their own", () => {
  it.each([
    ["a final slice's committed part", 0, checkpoint("s"), NEVER, true],
    ["a part past the checkpoint (recovery deletes it)", 2, checkpoint("s"), NEVER, false],
    ["a part of no known slice", 0, undefined, NEVER, false],
    ["a running 'never' slice (a restart reads its keys back)", 0, checkpoint("s", { status: "running" }), NEVER, false],
    ["a windowed slice not yet final", 0, checkpoint("s", { finalAfter: 200 }), { rerun: "always", excludesCommitted: false }, false],
    ["a windowed slice completed past its finalAfter", 0, checkpoint("s", { finalAfter: 100 }), { rerun: "always", excludesCommitted: false }, true],
    ["a rerunning slice that skips committed keys by itself, even running", 1, checkpoint("s", { status: "running", finalAfter: null }), { rerun: "always", excludesCommitted: true }, true],
    ["an open replacing slice", 1, checkpoint("s", { finalAfter: null, keepFromSeq: 1 }), { rerun: "replace", excludesCommitted: false }, false],
    ["a final replacing slice's kept part", 1, checkpoint("s", { finalAfter: 50, keepFromSeq: 1 }), { rerun: "replace", excludesCommitted: false }, true],
    ["a final replacing slice's superseded part", 0, checkpoint("s", { finalAfter: 50, keepFromSeq: 1 }), { rerun: "replace", excludesCommitted: false }, false],
    ["an older checkpoint without finalAfter, rerunning", 0, checkpoint("s", { finalAfter: undefined }), { rerun: "always", excludesCommitted: false }, false]
  ] as const)("given %s, then mergeable is %s", (_what, seq, c, owner, expected) => {
    expect(mergeable(seq, c, owner)).toBe(expected)
  })
})

describe("manifest spelling", () => {
  it("given parts of two slices, when turned into runs and back, then the same part files come out", () => {
    const runs = toRuns([
      { slice: "b", seq: 4 },
      { slice: "a", seq: 0 },
      { slice: "a", seq: 1 },
      { slice: "a", seq: 3 },
      { slice: "b", seq: 5 }
    ])
    expect(runs).toEqual([
      { slice: "a", from: 0, to: 1 },
      { slice: "a", from: 3, to: 3 },
      { slice: "b", from: 4, to: 5 }
    ])
    expect(replacedParts({ file: "chain=c/compact-0123456789abcdef.parquet", rows: 1, bytes: 1, replaces: runs })).toEqual([
      "chain=c/part-a-000000.parquet",
      "chain=c/part-a-000001.parquet",
      "chain=c/part-a-000003.parquet",
      "chain=c/part-b-000004.parquet",
      "chain=c/part-b-000005.parquet"
    ])
    const manifest = { version: 1 as const, dataset: "x", files: [{ file: "f", rows: 1, bytes: 1, replaces: runs }] }
    expect(holdsPartOf(manifest, "a", (s) => s > 2)).toBe("f")
    expect(holdsPartOf(manifest, "a", (s) => s > 3)).toBeUndefined()
  })

  it("given files of rows and bytes, when binned, then each bin stays within both targets and single files are left alone", () => {
    const f = (rows: number, bytes: number) => ({ rows, bytes })
    const bins = binsOf([f(4, 10), f(4, 10), f(4, 10), f(9, 10), f(1, 95), f(1, 10), f(1, 10)], { targetRows: 10, targetBytes: 100, minFiles: 2 })
    // 4+4+4 > 10 rows; 4+9 > 10 rows; 10+95 > 100 bytes; 95+10 > 100 bytes: those stay apart
    expect(bins).toEqual([
      [f(4, 10), f(4, 10)],
      [f(1, 10), f(1, 10)]
    ])
  })
})

describe("compactTable", () => {
  it("given final parts of two slices, one part past its checkpoint and a running slice's part, when compacted, then only the final committed parts are merged, sorted, and recorded", async () => {
    const out = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        // ascending parts whose ranges interleave: sorted, ascending (MergeOrder.test.ts has the rest)
        yield* write("a", 0, "a0", [1, 5])
        yield* write("a", 1, "a1", [3, 9])
        yield* write("b", 0, "b0", [2, 7])
        yield* write("b", 2, "b2", [100]) // past b's checkpoint (lastSeq 1): recovery's
        yield* write("r", 0, "r0", [50]) // a running slice: a restart reads its keys back
        const result = yield* compact(sink.outDir, [checkpoint("a"), checkpoint("b"), checkpoint("r", { status: "running" })])
        const manifest = yield* Effect.promise(() => readManifest(sink.outDir, "blocks"))
        const merged = path.join(sink.outDir, "blocks", manifest.files[0]!.file)
        const inFile = yield* Effect.promise(() =>
          withConn(async (conn) => (await conn.runAndReadAll(`SELECT height, tag FROM read_parquet('${merged}')`)).getRowsJS())
        )
        return { result, manifest, inFile, outDir: sink.outDir }
      })
    )
    expect(out.result.filesIn).toBe(3)
    expect(out.result.filesOut).toBe(1)
    expect(out.result.garbage.map((g) => path.relative(out.outDir, g)).sort()).toEqual([
      "blocks/chain=c/part-a-000000.parquet",
      "blocks/chain=c/part-a-000001.parquet",
      "blocks/chain=c/part-b-000000.parquet"
    ])
    expect(out.manifest.files).toHaveLength(1)
    expect(out.manifest.files[0]).toMatchObject({
      rows: 6,
      replaces: [
        { slice: "a", from: 0, to: 1 },
        { slice: "b", from: 0, to: 0 }
      ]
    })
    expect(out.manifest.files[0]!.file).toMatch(/^chain=c\/compact-[0-9a-f]{16}\.parquet$/)
    // rows in natural order, so min/max statistics of row groups follow the height
    expect(out.inFile).toEqual([
      [1n, "a0"],
      [2n, "b0"],
      [3n, "a1"],
      [5n, "a0"],
      [7n, "b0"],
      [9n, "a1"]
    ])
  })

  it("given a catalog built before compaction, when each step happens, then the old and the new catalog read every row at most once, and the new one exactly once", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1, 2])
        yield* write("a", 1, "a1", [3])
        yield* write("b", 0, "b0", [4])
        const before = yield* buildCatalog(sink.outDir, [dataset])
        const oldCatalog = `${before.databasePath}.old`
        yield* Effect.promise(() => fs.copyFile(before.databasePath, oldCatalog))
        const atStart = yield* heightsIn(oldCatalog)
        // steps 1-3: merged file in its folder and manifest committed, replaced parts still there
        const result = yield* compact(sink.outDir, [checkpoint("a"), checkpoint("b")])
        const oldAfterCommit = yield* heightsIn(oldCatalog)
        const after = yield* buildCatalog(sink.outDir, [dataset])
        const newBeforeDelete = yield* heightsIn(after.databasePath)
        yield* Effect.promise(() => deleteFiles(result.garbage))
        const newAfterDelete = yield* heightsIn(after.databasePath)
        const oldAfterDelete = yield* heightsIn(oldCatalog)
        const files = yield* Effect.promise(() => filesOf(path.join(sink.outDir, "blocks")))
        return { atStart, oldAfterCommit, newBeforeDelete, newAfterDelete, oldAfterDelete, files }
      })
    )
    const all = [1, 2, 3, 4]
    expect(seen.atStart).toEqual(all)
    expect(seen.oldAfterCommit).toEqual(all) // the old view never reads the compacted file
    expect(seen.newBeforeDelete).toEqual(all) // the new view never reads the parts it replaces
    expect(seen.newAfterDelete).toEqual(all)
    // a reader still holding the catalog from before the compaction misses the replaced rows: never doubles
    expect(seen.oldAfterDelete).toEqual([])
    expect(seen.files).toEqual([expect.stringMatching(/^chain=c\/compact-[0-9a-f]{16}\.parquet$/)])
  })

  it("given a compaction killed after its merged file was renamed but before the manifest commit, then no view reads the file and it is garbage", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1])
        yield* write("a", 1, "a1", [2])
        yield* compact(sink.outDir, [checkpoint("a")])
        // as if the manifest commit had not happened: the merged file stays, unlisted
        yield* Effect.promise(() => fs.rm(path.join(sink.outDir, "_state", "manifests", "blocks.json")))
        const built = yield* buildCatalog(sink.outDir, [dataset])
        const heights = yield* heightsIn(built.databasePath)
        const garbage = yield* Effect.promise(() => garbageOf(sink.outDir, "blocks"))
        return { heights, garbage: garbage.map((g) => path.basename(g)) }
      })
    )
    expect(seen.heights).toEqual([1, 2])
    expect(seen.garbage).toEqual([expect.stringMatching(/^compact-[0-9a-f]{16}\.parquet$/)])
  })

  it("given a compaction killed after its manifest commit, then the replaced parts are garbage and no new view reads them", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1])
        yield* write("a", 1, "a1", [2])
        yield* compact(sink.outDir, [checkpoint("a")])
        const built = yield* buildCatalog(sink.outDir, [dataset])
        return {
          heights: yield* heightsIn(built.databasePath),
          garbage: (yield* Effect.promise(() => garbageOf(sink.outDir, "blocks"))).map((g) => path.basename(g)).sort()
        }
      })
    )
    expect(seen.heights).toEqual([1, 2])
    expect(seen.garbage).toEqual(["part-a-000000.parquet", "part-a-000001.parquet"])
  })

  it("given a compacted folder and new parts, when compacted again, then one file holds all, the earlier compacted file is superseded and the manifest lists only the new one", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1])
        yield* write("a", 1, "a1", [2])
        const first = yield* compact(sink.outDir, [checkpoint("a")])
        yield* Effect.promise(() => deleteFiles(first.garbage))
        yield* write("a", 2, "a2", [3])
        yield* write("b", 0, "b0", [0])
        const second = yield* compact(sink.outDir, [checkpoint("a", { lastSeq: 2 }), checkpoint("b")])
        const manifest = yield* Effect.promise(() => readManifest(sink.outDir, "blocks"))
        const built = yield* buildCatalog(sink.outDir, [dataset])
        const heights = yield* heightsIn(built.databasePath)
        yield* Effect.promise(() => deleteFiles(second.garbage))
        return { second, manifest, heights, files: yield* Effect.promise(() => filesOf(path.join(sink.outDir, "blocks"))), afterDelete: yield* heightsIn(built.databasePath) }
      })
    )
    expect(seen.second.filesIn).toBe(3)
    expect(seen.manifest.files).toHaveLength(1)
    expect(seen.manifest.files[0]!.replaces).toEqual([
      { slice: "a", from: 0, to: 2 },
      { slice: "b", from: 0, to: 0 }
    ])
    expect(seen.heights).toEqual([0, 1, 2, 3])
    expect(seen.afterDelete).toEqual([0, 1, 2, 3])
    expect(seen.files).toEqual([`chain=c/${path.basename(seen.manifest.files[0]!.file)}`])
  })

  it("given a merge too large for the connection's memory limit, when compacted, then it is retried without the limit, its row groups stay small and the merge's limit is set back", async () => {
    const heights = (from: number) => Array.from({ length: 20_000 }, (_, i) => from + 2 * i)
    const out = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "x".repeat(2_000), heights(1))
        yield* write("b", 0, "y".repeat(2_000), heights(0))
        return yield* Effect.promise(() =>
          withConn(async (conn) => {
            await conn.run("SET threads = 1")
            await conn.run("SET memory_limit = '8MB'")
            const files = (await filesOf(path.join(sink.outDir, "blocks"))).map((f) => path.join(sink.outDir, "blocks", f))
            // the premise: under this limit the merge's own statement fails
            const direct = await conn
              .run(`COPY (SELECT * FROM read_parquet(['${files.join("','")}']) ORDER BY height) TO '${path.join(sink.outDir, "direct.parquet")}' (FORMAT parquet, ROW_GROUP_SIZE ${MERGED_ROW_GROUP_ROWS})`)
              .then(() => "written", (e: unknown) => String(e))
            const result = await compactTable(sink.outDir, table, DEFAULT_SETTINGS, {
              conn: async () => conn,
              mayMerge: mayMergeOf([checkpoint("a"), checkpoint("b")]),
              memory: { sort: ["8MB"], concatenation: ["8MB"] }
            })
            const manifest = await readManifest(sink.outDir, "blocks")
            const merged = path.join(sink.outDir, "blocks", manifest.files[0]!.file)
            const heightsIn = (await conn.runAndReadAll(`SELECT height FROM read_parquet('${merged}')`)).getRowsJS().map(([h]) => Number(h))
            const groups = (await conn.runAndReadAll(`SELECT row_group_num_rows FROM parquet_metadata('${merged}') GROUP BY row_group_id, row_group_num_rows ORDER BY row_group_id`)).getRowsJS().map(([n]) => Number(n))
            const limit = (await conn.runAndReadAll("SELECT current_setting('memory_limit')")).getRowsJS()[0]![0]
            return { direct, result, heightsIn, groups, limit }
          })
        )
      })
    )
    expect(out.direct).toMatch(/out of memory/i)
    expect(out.result.filesOut).toBe(1)
    expect(out.heightsIn).toEqual(Array.from({ length: 40_000 }, (_, i) => i))
    expect(out.groups).toEqual([16_384, 16_384, 7_232])
    // set back to the merge's own limit (DuckDB spells 8 MB so)
    expect(out.limit).toBe("7.6 MiB")
  })

  it("given parts of wide rows (~3 KB of distinct text each), when compacted, then the merged file's row groups hold fewer rows than narrow rows get", async () => {
    const wide = (from: number) =>
      Effect.flatMap(ParquetSink, (sink) =>
        sink.writePart({
          dataset: "blocks",
          slice: from === 0 ? "a" : "b",
          seq: 0,
          schema,
          // heights interleaved (even, odd): the merge sorts, and DuckDB writes its row groups
          rows: Array.from({ length: 6_000 }, (_, i) => ({ height: BigInt(from + 2 * i), tag: String(from + 2 * i).padStart(10, "0").repeat(300), ...lineage("run-c", new Date(0)) })),
          partitionBy: [{ key: "chain", value: () => "c" }]
        })
      )
    const out = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* wide(0)
        yield* wide(1)
        const result = yield* compact(sink.outDir, [checkpoint("a"), checkpoint("b")])
        const merged = path.join(sink.outDir, "blocks", (yield* Effect.promise(() => readManifest(sink.outDir, "blocks"))).files[0]!.file)
        const groups = yield* Effect.promise(() =>
          withConn(async (conn) =>
            (await conn.runAndReadAll(`SELECT row_group_num_rows FROM parquet_metadata('${merged}') GROUP BY row_group_id, row_group_num_rows ORDER BY row_group_id`)).getRowsJS().map(([n]) => Number(n))
          )
        )
        return { result, groups }
      })
    )
    expect(out.result.filesIn).toBe(2)
    // 12,000 rows: one row group at the narrow rows' 16,384; ~3 KB rows get 4,096 (DuckDB's writer
    // may join its input batches past that, never to a full narrow group)
    expect(out.groups.reduce((a, b) => a + b, 0)).toBe(12_000)
    expect(out.groups.length).toBeGreaterThanOrEqual(2)
    expect(Math.max(...out.groups)).toBeLessThan(MERGED_ROW_GROUP_ROWS / 2)
  })

  it("given parts whose row groups are of a reader's size (~5 MB) and parts of a few hundred rows, when each folder is compacted, then the first keeps its parts' row groups as they are (moved, not rewritten) and the second gets them joined, both in height order", async () => {
    const heights = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)
    const out = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        // ~1 KB rows, ~5 MB a part: row groups worth keeping. Written out of order: the merge puts
        // the files in order of their heights
        const wide = (slice: string, hs: ReadonlyArray<number>) =>
          Effect.flatMap(ParquetSink, (s) =>
            s.writePart({ dataset: "blocks", slice, seq: 0, schema, rows: hs.map((h) => ({ height: BigInt(h), tag: String(h).padStart(10, "0").repeat(100), ...lineage("run-c", new Date(0)) })), partitionBy: [{ key: "chain", value: () => "big" }] })
          )
        yield* wide("b", heights(5_000, 4_500))
        yield* wide("a", heights(0, 5_000))
        yield* write("c", 0, "c0", heights(300, 300), "small")
        yield* write("d", 0, "d0", heights(0, 300), "small")
        const ways: string[] = []
        const result = yield* compact(sink.outDir, [checkpoint("a"), checkpoint("b"), checkpoint("c"), checkpoint("d")], table, DEFAULT_SETTINGS, (e) => {
          if (e.type === "merged") ways.push(`${e.file.split("/")[0]}: ${e.way}`)
        })
        const files = (yield* Effect.promise(() => readManifest(sink.outDir, "blocks"))).files
        const read = (chain: string) =>
          Effect.promise(() =>
            withConn(async (conn) => {
              const merged = path.join(sink.outDir, "blocks", files.find((f) => f.file.startsWith(`chain=${chain}/`))!.file)
              const groups = (await conn.runAndReadAll(`SELECT row_group_num_rows FROM parquet_metadata('${merged}') WHERE column_id = 0 ORDER BY row_group_id`)).getRowsJS().map(([n]) => Number(n))
              const [[rows, descents]] = (await conn.runAndReadAll(
                `SELECT count(*), count(*) FILTER (WHERE height < prev) FROM (SELECT height, lag(height) OVER (ORDER BY file_row_number) AS prev FROM read_parquet('${merged}', file_row_number = true))`
              )).getRowsJS() as [[bigint, bigint]]
              return { groups, rows: Number(rows), descents: Number(descents) }
            })
          )
        return { result, ways, big: yield* read("big"), small: yield* read("small") }
      })
    )
    expect(out.result.filesIn).toBe(4)
    expect(out.ways).toEqual(["chain=big: row groups moved", "chain=small: concatenated"])
    expect(out.big).toEqual({ groups: [5_000, 4_500], rows: 9_500, descents: 0 })
    expect(out.small).toEqual({ groups: [600], rows: 600, descents: 0 })
  })

  it("given fewer small mergeable files than the threshold, when compacted, then nothing is written and no DuckDB connection is asked for", async () => {
    let asked = 0
    const result = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1])
        yield* write("a", 1, "a1", [2])
        return yield* Effect.promise(() =>
          compactTable(sink.outDir, table, { ...DEFAULT_SETTINGS, minFiles: 3 }, {
            conn: () => {
              asked++
              return Promise.reject(new Error("no merge needs a connection"))
            },
            mayMerge: mayMergeOf([checkpoint("a")])
          })
        )
      })
    )
    expect(result).toEqual({ table: "blocks", folders: 0, filesIn: 0, filesOut: 0, garbage: [] })
    expect(asked).toBe(0)
  })

  it("given merged parts of a slice, when recovery or a replacement would delete them, then the sink refuses instead of leaving their rows in place", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* write("a", 0, "a0", [1])
        yield* write("a", 1, "a1", [2])
        yield* compact(sink.outDir, [checkpoint("a")])
        return {
          after: yield* Effect.either(sink.removePartsAfter("blocks", "a", 0)),
          before: yield* Effect.either(sink.removePartsBefore("blocks", "a", 1)),
          beyond: yield* Effect.either(sink.removePartsAfter("blocks", "a", 1))
        }
      })
    )
    expect(Either.isLeft(seen.after) && seen.after.left.detail).toMatch(/parts of slice a to be removed were merged/)
    expect(Either.isLeft(seen.before)).toBe(true)
    expect(seen.beyond).toEqual(Either.right(0))
  })
})
