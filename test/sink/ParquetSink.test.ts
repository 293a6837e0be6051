import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Either } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { amount, defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { STAGING_DIR } from "../../src/files/StagingDir.ts"
import { ParquetSink, type WritePartInput, makeParquetSink } from "../../src/sink/ParquetSink.ts"
import { CHUNK_ROWS, SMALL_FILE_ROWS, makePartWriter } from "../../src/sink/PartWriter.ts"
import { compileRows } from "../../src/sink/RowEncoder.ts"

const schema = defineSchema(
  [str("chain", "Chain name", { nullable: false }), int64("height", "Block height", { nullable: false }), amount("fee", "Fee")],
  "Small dataset for sink tests"
)

const rowsOf = (chain: string, heights: ReadonlyArray<bigint>): Row[] =>
  heights.map((height) => ({ chain, height, fee: height * 10n, ...lineage("run-t", new Date(0)) }))

const input = (seq: number, rows: ReadonlyArray<Row>, slice = "s-1"): WritePartInput => ({
  dataset: "blocks",
  slice,
  seq,
  schema,
  rows,
  partitionBy: [{ key: "chain", value: (row) => row["chain"] as string }]
})

const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.provide(effect, ParquetSink.layerTest)))

const listFiles = async (root: string): Promise<string[]> =>
  (await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort()

const readAll = async (outDir: string, sql: string): Promise<unknown[][]> => {
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  const reader = await connection.runAndReadAll(sql.replaceAll("$OUT", outDir))
  connection.closeSync()
  db.closeSync()
  return reader.getRowsJS()
}

describe("ParquetSink.writePart", () => {
  it("given the same (slice, seq) written twice when read then the second write replaced the first", async () => {
    const { outDir, files, rows } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(7, rowsOf("c", [1n, 2n, 3n])))
        yield* sink.writePart(input(7, rowsOf("c", [1n, 2n])))
        const files = yield* Effect.promise(() => listFiles(path.join(sink.outDir, "blocks")))
        const rows = yield* Effect.promise(() =>
          readAll(sink.outDir, "SELECT height FROM read_parquet('$OUT/blocks/**/*.parquet') ORDER BY 1")
        )
        return { outDir: sink.outDir, files, rows }
      })
    )

    expect(files).toEqual(["chain=c/part-s-1-000007.parquet"])
    expect(rows).toEqual([[1n], [2n]])
    expect(outDir).toMatch(/chainetl-sink-/)
  })

  it("given a part over two partitions of 32 rows each on average when written then every column chunk of both files is zstd-compressed", async () => {
    const heights = (from: number, n: number) => Array.from({ length: n }, (_, i) => BigInt(from + i))
    const codecs = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, [...rowsOf("a", heights(0, 40)), ...rowsOf("b", heights(100, SMALL_FILE_ROWS * 2 - 40))]))
        return yield* Effect.promise(() =>
          readAll(sink.outDir, "SELECT DISTINCT compression, count(DISTINCT file_name) FROM parquet_metadata('$OUT/blocks/**/*.parquet') GROUP BY 1")
        )
      })
    )

    expect(codecs).toEqual([["ZSTD", 2n]])
  })

  it("given a part of 32 rows or more over two partitions of fewer than 32 rows each on average when written then DuckDB writes its files snappy-compressed (compaction's are zstd)", async () => {
    const heights = (from: number, n: number) => Array.from({ length: n }, (_, i) => BigInt(from + i))
    const codecs = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, [...rowsOf("a", heights(1, 20)), ...rowsOf("b", heights(100, 20))]))
        return yield* Effect.promise(() =>
          readAll(sink.outDir, "SELECT DISTINCT compression, count(DISTINCT file_name) FROM parquet_metadata('$OUT/blocks/**/*.parquet') GROUP BY 1")
        )
      })
    )

    expect(codecs).toEqual([["SNAPPY", 2n]])
  })

  it("given a part of fewer than 32 rows over two partitions when written then its files are chainetl's own (no DuckDB table), uncompressed, and read back as written", async () => {
    const { files, rows } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, [...rowsOf("a", [1n, 2n]), ...rowsOf("b", [3n])]))
        return {
          files: yield* Effect.promise(() =>
            readAll(sink.outDir, "SELECT created_by, count(*) FROM parquet_file_metadata('$OUT/blocks/**/*.parquet') GROUP BY 1")
          ),
          rows: yield* Effect.promise(() => readAll(sink.outDir, "SELECT DISTINCT compression FROM parquet_metadata('$OUT/blocks/**/*.parquet')"))
        }
      })
    )

    expect(files).toEqual([["chainetl", 2n]])
    expect(rows).toEqual([["UNCOMPRESSED"]])
  })

  it("given a part over two partitions, one of them new, when written then each file is in its partition folder and its bytes are its size on disk", async () => {
    const { written, sizes } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, rowsOf("a", [1n])))
        const written = yield* sink.writePart(input(2, [...rowsOf("a", [2n, 3n]), ...rowsOf("b", [4n])]))
        const sizes = yield* Effect.promise(() => Promise.all(written.map(async (w) => (await fs.stat(w.path)).size)))
        return { written: written.map((w) => ({ file: path.relative(sink.outDir, w.path), rows: w.rows, bytes: w.bytes })), sizes }
      })
    )

    expect(written.map((w) => [w.file, w.rows])).toEqual([
      ["blocks/chain=a/part-s-1-000002.parquet", 2],
      ["blocks/chain=b/part-s-1-000002.parquet", 1]
    ])
    expect(written.map((w) => w.bytes)).toEqual(sizes)
    expect(sizes.every((n) => n > 0)).toBe(true)
  })

  it("given parts written one after another when the staging folder is listed then it holds no file, and one folder lent to each part in turn", async () => {
    const { files, folders, parts } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        for (const seq of [1, 2, 3]) yield* sink.writePart(input(seq, [...rowsOf("a", [BigInt(seq)]), ...rowsOf("b", [BigInt(seq)])]))
        const staging = path.join(sink.outDir, STAGING_DIR)
        return {
          files: yield* Effect.promise(() => listFiles(staging)),
          folders: yield* Effect.promise(() => fs.readdir(staging)),
          parts: yield* Effect.promise(() => listFiles(path.join(sink.outDir, "blocks")))
        }
      })
    )

    expect(files).toEqual([])
    expect(folders).toHaveLength(1)
    expect(parts).toEqual([
      "chain=a/part-s-1-000001.parquet",
      "chain=a/part-s-1-000002.parquet",
      "chain=a/part-s-1-000003.parquet",
      "chain=b/part-s-1-000001.parquet",
      "chain=b/part-s-1-000002.parquet",
      "chain=b/part-s-1-000003.parquet"
    ])
  })

  it("given a part that fails at its second rename when the next part is written then the failed part's staged files and its folder are gone and the next part is whole", async () => {
    const { failed, files, folders, parts, rows } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, rowsOf("a", [1n])))
        // a folder where chain=b's file of part 2 goes: its rename fails after chain=a's
        yield* Effect.promise(() => fs.mkdir(path.join(sink.outDir, "blocks", "chain=b", "part-s-1-000002.parquet", "x"), { recursive: true }))
        const failed = yield* Effect.either(sink.writePart(input(2, [...rowsOf("a", [2n]), ...rowsOf("b", [2n])])))
        yield* sink.writePart(input(3, [...rowsOf("a", [3n]), ...rowsOf("b", [3n])]))
        const staging = path.join(sink.outDir, STAGING_DIR)
        return {
          failed,
          files: yield* Effect.promise(() => listFiles(staging)),
          folders: yield* Effect.promise(() => fs.readdir(staging)),
          parts: (yield* Effect.promise(() => listFiles(path.join(sink.outDir, "blocks")))).filter((f) => !f.endsWith("/x")),
          rows: yield* Effect.promise(() =>
            readAll(sink.outDir, "SELECT height FROM read_parquet('$OUT/blocks/*/part-*.parquet') ORDER BY 1")
          )
        }
      })
    )

    expect(Either.isLeft(failed) && failed.left.reason).toBe("Io")
    expect(files).toEqual([])
    expect(folders).toHaveLength(1)
    expect(parts).toEqual(["chain=a/part-s-1-000001.parquet", "chain=a/part-s-1-000003.parquet", "chain=b/part-s-1-000003.parquet"])
    expect(rows).toEqual([[1n], [3n], [3n]])
  })

  it("given a sink that wrote parts when it is closed then its staging folder is empty", async () => {
    const out = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-close-"))
    const db = await DuckDBInstance.create(":memory:")
    try {
      const sink = makeParquetSink(out, db)
      await Effect.runPromise(sink.writePart(input(1, [...rowsOf("a", [1n]), ...rowsOf("b", [2n])])))
      sink.close()

      expect(await fs.readdir(path.join(out, STAGING_DIR))).toEqual([])
    } finally {
      db.closeSync()
      await fs.rm(out, { recursive: true, force: true })
    }
  })

  it("given parts 1..4 of a slice when removePartsAfter 2 then parts 3 and 4 of that slice only are deleted", async () => {
    const { removed, files } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        for (const seq of [1, 2, 3, 4]) yield* sink.writePart(input(seq, [...rowsOf("a", [BigInt(seq)]), ...rowsOf("b", [BigInt(seq)])]))
        yield* sink.writePart(input(9, rowsOf("a", [9n]), "s-10"))
        yield* sink.writePart(input(9, rowsOf("a", [9n]), "s"))
        const removed = yield* sink.removePartsAfter("blocks", "s-1", 2)
        const files = yield* Effect.promise(() => listFiles(path.join(sink.outDir, "blocks")))
        return { removed, files }
      })
    )

    expect(removed).toBe(4)
    expect(files).toEqual([
      "chain=a/part-s-000009.parquet",
      "chain=a/part-s-1-000001.parquet",
      "chain=a/part-s-1-000002.parquet",
      "chain=a/part-s-10-000009.parquet",
      "chain=b/part-s-1-000001.parquet",
      "chain=b/part-s-1-000002.parquet"
    ])
  })

  it("given parts 1..4 of a slice when removePartsBefore 3 then parts 1 and 2 of that slice only are deleted", async () => {
    const { removed, files } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        for (const seq of [1, 2, 3, 4]) yield* sink.writePart(input(seq, rowsOf("a", [BigInt(seq)])))
        yield* sink.writePart(input(1, rowsOf("a", [1n]), "other"))
        const removed = yield* sink.removePartsBefore("blocks", "s-1", 3)
        const files = yield* Effect.promise(() => listFiles(path.join(sink.outDir, "blocks")))
        return { removed, files }
      })
    )

    expect(removed).toBe(2)
    expect(files).toEqual(["chain=a/part-other-000001.parquet", "chain=a/part-s-1-000003.parquet", "chain=a/part-s-1-000004.parquet"])
  })

  it("given a dataset folder that cannot be walked, when removePartsBefore 0 (a replacing listing's first part), then it returns 0 without reading it, and removePartsBefore 1 does read it", async () => {
    const { first, second } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        // a file where the dataset's folder should be: any walk of it fails with ENOTDIR
        yield* Effect.promise(() => fs.writeFile(path.join(sink.outDir, "blocks"), "not a folder"))
        return { first: yield* Effect.either(sink.removePartsBefore("blocks", "s-1", 0)), second: yield* Effect.either(sink.removePartsBefore("blocks", "s-1", 1)) }
      })
    )

    expect(first).toEqual(Either.right(0))
    expect(Either.isLeft(second) && second.left.reason).toBe("Io")
  })

  it("given a bad slice id, when removePartsBefore 0, then it fails as any other seq does", async () => {
    const result = await run(Effect.flatMap(ParquetSink, (sink) => Effect.either(sink.removePartsBefore("blocks", "../x", 0))))
    expect(Either.isLeft(result) && result.left.message).toMatch(/slice id "\.\.\/x"/)
  })

  it("given a dataset never written when removePartsAfter then it removes nothing", async () => {
    expect(await run(Effect.flatMap(ParquetSink, (sink) => sink.removePartsAfter("blocks", "s-1", -1)))).toBe(0)
  })

  it("given leftovers in staging when clearStaging then staging is empty", async () => {
    const left = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* Effect.promise(async () => {
          await fs.mkdir(path.join(sink.outDir, STAGING_DIR), { recursive: true })
          await fs.writeFile(path.join(sink.outDir, STAGING_DIR, "half.parquet"), "PAR1")
        })
        yield* sink.clearStaging()
        return yield* Effect.promise(() => fs.readdir(path.join(sink.outDir, STAGING_DIR)))
      })
    )

    expect(left).toEqual([])
  })

  it("given hostile partition values when written and read through the catalog then files stay inside and values read back", async () => {
    const hostile = ["../../escape", "a/b\\c", "100%", "Upper", "upper", "NULL", "k=v", "nul\u0000", "..", "€"]
    const { files, chains } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input(1, hostile.flatMap((chain, i) => rowsOf(chain, [BigInt(i)]))))
        const catalog = yield* buildCatalog(sink.outDir, [
          { name: "blocks", schema, partitionKeys: [{ key: "chain", type: "VARCHAR" }] }
        ])
        const files = yield* Effect.promise(() => listFiles(sink.outDir))
        const chains = yield* Effect.promise(() =>
          readAll(sink.outDir, `ATTACH '${catalog.databasePath}' AS c (READ_ONLY); SELECT chain FROM c.blocks ORDER BY height`)
        )
        return { files, chains }
      })
    )

    const parts = files.filter((f) => f.endsWith(".parquet"))
    expect(parts).toHaveLength(hostile.length)
    expect(parts.every((f) => f.startsWith("blocks/chain=") && f.split("/").length === 3)).toBe(true)
    expect(chains.map((r) => r[0])).toEqual(hostile)
  })

  it("given a JS number in an int64 column when written then it fails Encode naming row and column", async () => {
    const result = await run(
      Effect.either(
        Effect.flatMap(ParquetSink, (sink) =>
          sink.writePart(input(1, [...rowsOf("a", [1n]), { ...rowsOf("a", [2n])[0], height: 2 }]))
        )
      )
    )

    expect(Either.isLeft(result) && result.left.reason).toBe("Encode")
    expect(Either.isLeft(result) && result.left.detail).toBe("row 1, column height: expected a bigint within int64, got number 2")
  })

  it("given a decimal beyond 38 digits or an unknown column when written then it fails Encode", async () => {
    const tooBig = await run(
      Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart(input(1, [{ ...rowsOf("a", [1n])[0], fee: 10n ** 38n }]))))
    )
    const typo = await run(
      Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart(input(1, [{ ...rowsOf("a", [1n])[0], feee: 1n }]))))
    )

    expect(Either.isLeft(tooBig) && tooBig.left.detail).toMatch(/column fee: expected a bigint with at most 38 digits/)
    expect(Either.isLeft(typo) && typo.left.detail).toBe("row 0, column feee: is not a field of the schema")
  })

  it("given an unsafe slice id or dataset name when written then it fails before touching disk", async () => {
    const slice = await run(Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart(input(1, rowsOf("a", [1n]), "../x")))))
    const dataset = await run(
      Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart({ ...input(1, rowsOf("a", [1n])), dataset: "Blocks" })))
    )

    expect(Either.isLeft(slice) && slice.left.detail).toMatch(/slice id "..\/x" must match/)
    expect(Either.isLeft(dataset) && dataset.left.detail).toMatch(/dataset "Blocks" is not snake_case/)
  })

  it("given a dataset named like a folder chainetl keeps for itself when written then it fails, while _rejects is allowed", async () => {
    const staging = await run(
      Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart({ ...input(1, rowsOf("a", [1n])), dataset: "_staging" })))
    )
    const rejects = await run(
      Effect.flatMap(ParquetSink, (sink) => sink.writePart({ ...input(1, rowsOf("a", [1n])), dataset: "_rejects" }))
    )

    expect(Either.isLeft(staging) && staging.left.detail).toMatch(/dataset "_staging" would share the folder/)
    expect(rejects.map((p) => path.basename(path.dirname(path.dirname(p.path))))).toEqual(["_rejects"])
  })
})

describe("ParquetSink.stage", () => {
  const { dataset, slice, schema: s, partitionBy } = input(0, [])
  const stageInput = (rows: ReadonlyArray<Row>) => ({ dataset, slice, schema: s, partitionBy, rows })
  const contents = (outDir: string) =>
    Effect.promise(async () => ({
      files: await listFiles(path.join(outDir, "blocks")),
      rows: await readAll(outDir, "SELECT chain, height, fee::VARCHAR FROM read_parquet('$OUT/blocks/**/*.parquet', hive_partitioning = true) ORDER BY chain, height")
    }))

  it("given rows staged page by page and more given at the write, when the part is written, then it equals one write of all the rows", async () => {
    const pages = [rowsOf("a", [1n, 2n]), rowsOf("b", [3n]), [...rowsOf("a", [4n]), ...rowsOf("c", [5n])]]
    const last = rowsOf("b", [6n])
    const [byPages, whole] = await Promise.all([
      run(
        Effect.gen(function* () {
          const sink = yield* ParquetSink
          for (const page of pages) yield* sink.stage(stageInput(page))
          const parts = yield* sink.writePart(input(3, last))
          return { parts: parts.map((p) => [path.relative(sink.outDir, p.path), p.rows, p.partition]), ...(yield* contents(sink.outDir)) }
        })
      ),
      run(
        Effect.gen(function* () {
          const sink = yield* ParquetSink
          const parts = yield* sink.writePart(input(3, [...pages.flat(), ...last]))
          return { parts: parts.map((p) => [path.relative(sink.outDir, p.path), p.rows, p.partition]), ...(yield* contents(sink.outDir)) }
        })
      )
    ])

    expect(byPages).toEqual(whole)
    expect(byPages.parts).toEqual([
      ["blocks/chain=a/part-s-1-000003.parquet", 3, [["chain", "a"]]],
      ["blocks/chain=b/part-s-1-000003.parquet", 2, [["chain", "b"]]],
      ["blocks/chain=c/part-s-1-000003.parquet", 1, [["chain", "c"]]]
    ])
  })

  it("given pages staged, when each is staged, then it says what the part holds so far: nothing while its rows are held, then growing with rows, unchanged by an empty page, zero once written", async () => {
    const heights = (from: number) => Array.from({ length: 40 }, (_, i) => BigInt(from + i))
    const sizes = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        const held = yield* sink.stage(stageInput(rowsOf("a", [1n, 2n])))
        yield* sink.discard(dataset, slice)
        const first = yield* sink.stage(stageInput(rowsOf("a", heights(1))))
        const second = yield* sink.stage(stageInput(rowsOf("b", heights(100))))
        const empty = yield* sink.stage(stageInput([]))
        yield* sink.writePart(input(1, []))
        const afterWrite = yield* sink.stage(stageInput([]))
        return { held, first, second, empty, afterWrite }
      })
    )

    // a small part's rows wait in JavaScript, counted by rows alone
    expect(sizes.held).toBe(0)
    // 40 rows of the same columns and widths each time: the part's bytes double
    expect(sizes.first).toBeGreaterThan(0)
    expect(sizes.second).toBe(2 * sizes.first)
    expect(sizes.empty).toBe(sizes.second)
    expect(sizes.afterWrite).toBe(0)
  })

  it("given staged rows discarded, or staged for another slice, when a part is written, then it holds none of them", async () => {
    const { parts, rows } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.stage(stageInput(rowsOf("a", [1n])))
        yield* sink.discard(dataset, slice)
        yield* sink.discard(dataset, slice) // nothing staged: nothing
        yield* sink.stage({ ...stageInput(rowsOf("z", [9n])), slice: "other" })
        const parts = yield* sink.writePart(input(1, rowsOf("b", [2n])))
        const empty = yield* sink.writePart(input(2, []))
        return { parts: [...parts, ...empty].length, ...(yield* contents(sink.outDir)) }
      })
    )

    expect(parts).toBe(1)
    expect(rows).toEqual([["b", 2n, "20"]])
  })

  it("given a staged row its column cannot hold, when staged, then it fails Encode and the part's earlier rows are dropped with it", async () => {
    const { failed, rows } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.stage(stageInput(rowsOf("a", [1n])))
        const failed = yield* Effect.either(sink.stage(stageInput([{ ...rowsOf("a", [2n])[0], height: 2 }])))
        yield* sink.writePart(input(1, rowsOf("a", [3n])))
        return { failed, ...(yield* contents(sink.outDir)) }
      })
    )

    expect(Either.isLeft(failed) && failed.left.reason).toBe("Encode")
    expect(rows).toEqual([["a", 3n, "30"]])
  })
})

describe("PartWriter COPY", () => {
  it("given a part of interleaved partitions many times the COPY's flush threshold, when written, then each partition has one file of one row group with its rows in the order given", async () => {
    const chains = ["a", "b", "c", "d", "e"]
    const perChain = CHUNK_ROWS * 2 + 1
    // chains interleaved row by row: each partition's rows reach its file over many flushes
    const rows = Array.from({ length: perChain * chains.length }, (_, i) => rowsOf(chains[i % chains.length]!, [BigInt(i)])[0]!)
    const { files, read, rowGroups } = await run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        const written = yield* sink.writePart(input(1, rows))
        // row i is the (file_row_number)-th row of chain i % 5: its height is file_row_number * 5 + the chain's index
        const read = yield* Effect.promise(() =>
          readAll(
            sink.outDir,
            "SELECT chain, count(*)::INTEGER, bool_and(height = file_row_number * 5 + position(chain IN 'abcde') - 1) " +
              "FROM read_parquet('$OUT/blocks/**/*.parquet', hive_partitioning = true, file_row_number = true) GROUP BY 1 ORDER BY 1"
          )
        )
        const rowGroups = yield* Effect.promise(() =>
          readAll(sink.outDir, "SELECT count(DISTINCT (file_name, row_group_id))::INTEGER FROM parquet_metadata('$OUT/blocks/**/*.parquet')")
        )
        return { files: written.map((w) => path.relative(sink.outDir, w.path)).sort(), read, rowGroups }
      })
    )
    expect(files).toEqual(chains.map((c) => `blocks/chain=${c}/part-s-1-000001.parquet`))
    expect(read).toEqual(chains.map((c) => [c, perChain, true]))
    expect(rowGroups).toEqual([[chains.length]])
  })
})

describe("PartWriter connections", () => {
  it("given parts written, discarded, failed and a part's write that fails, then every connection is back in the pool", async () => {
    const db = await DuckDBInstance.create(":memory:")
    const writer = makePartWriter(db)
    const compiled = compileRows(schema, new Set(["chain"]))
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-pw-"))
    try {
      const one = await writer.open(compiled)
      const two = await writer.open(compiled)
      expect(writer.inUse()).toBe(2)
      await one.append(rowsOf("a", [1n]), Int32Array.of(0))
      await one.discard()
      await one.discard()
      await expect(two.append([{ ...rowsOf("a", [2n])[0], height: 2 }], Int32Array.of(0))).rejects.toThrow(/column height/)
      await two.discard()
      expect(writer.inUse()).toBe(0)
      const three = await writer.open(compiled)
      await three.append(rowsOf("a", [3n]), Int32Array.of(0))
      // its staging folder's name is taken by a file: COPY fails
      await fs.writeFile(path.join(dir, "taken"), "")
      await expect(three.write(1, path.join(dir, "taken"))).rejects.toThrow()
      expect(writer.inUse()).toBe(0)
      await fs.mkdir(path.join(dir, "ok"))
      expect(await writer.write(compiled, rowsOf("a", [4n]), { groupOf: Int32Array.of(0), groupCount: 1 }, path.join(dir, "ok"))).toHaveLength(1)
      expect(writer.inUse()).toBe(0)
    } finally {
      writer.close()
      db.closeSync()
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
