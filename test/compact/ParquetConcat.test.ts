/**
 * Merging Parquet files by their row groups (src/compact/ParquetConcat.ts), on files DuckDB wrote:
 * the merged file reads as the inputs one after the other, and what a reader skips by (statistics,
 * bloom filters, dictionaries) still points at the right bytes.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { concatParquet, concatenable, readFooter } from "../../src/compact/ParquetConcat.ts"
import { Reader, TType, Writer, copyStruct, copyStructList } from "../../src/compact/ThriftCompact.ts"
import { withConn } from "./fixtures.ts"

let dir: string
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-concat-"))
})
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** Rows from..to-1 with nested, NULL, low-cardinality (dictionary, bloom filter) and uint256-wide columns. */
const rowsSql = (from: number, to: number) => `
  SELECT i::BIGINT AS height,
         (i::HUGEINT * 1000000000000000000000)::DECIMAL(38,0) AS amount,
         CASE WHEN i % 7 = 0 THEN NULL ELSE 'tx-' || i END AS tx,
         ['P', 'X', 'C'][1 + i % 3] AS chain,
         [{'asset': 'a' || (i % 5), 'value': i::BIGINT}, {'asset': 'b', 'value': -i::BIGINT}] AS outputs,
         TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(i) AS seen_at
  FROM range(${from}, ${to}) t(i)`

const write = async (name: string, from: number, to: number, options = "COMPRESSION zstd, COMPRESSION_LEVEL 2, ROW_GROUP_SIZE 2048") => {
  const file = path.join(dir, name)
  await withConn((conn) => conn.run(`COPY (${rowsSql(from, to)}) TO '${file}' (FORMAT parquet, ${options})`))
  return file
}

const list = (files: ReadonlyArray<string>) => `[${files.map((f) => `'${f}'`).join(", ")}]`

describe("concatParquet", () => {
  it("given three files of one schema (nested, NULLs, DECIMAL(38,0), zstd and snappy, several row groups each), when merged, then the merged file reads as the three one after the other, row for row, with their row groups", async () => {
    const files = [await write("a.parquet", 0, 5_000), await write("b.parquet", 5_000, 9_100, "COMPRESSION snappy, ROW_GROUP_SIZE 2048"), await write("c.parquet", 9_100, 9_300)]
    const footers = await Promise.all(files.map(readFooter))
    expect(concatenable(footers)).toBe(true)
    const merged = path.join(dir, "merged.parquet")
    expect(await concatParquet(footers, merged)).toBe(9_300n)

    const read = await withConn(async (conn) => {
      const one = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJS()[0]
      // position included: the n-th row of the merged file is the n-th of the inputs in order
      const inputs = `SELECT *, row_number() OVER (ORDER BY filename, file_row_number) - 1 AS n FROM read_parquet(${list(files)}, filename = true, file_row_number = true)`
      const out = `SELECT *, file_row_number AS n FROM read_parquet('${merged}', file_row_number = true)`
      const cols = "height, amount, tx, chain, outputs, seen_at, n"
      return {
        missing: await one(`SELECT count(*) FROM (SELECT ${cols} FROM (${inputs}) EXCEPT ALL SELECT ${cols} FROM (${out}))`),
        extra: await one(`SELECT count(*) FROM (SELECT ${cols} FROM (${out}) EXCEPT ALL SELECT ${cols} FROM (${inputs}))`),
        rows: await one(`SELECT count(*), sum(amount)::VARCHAR, max(amount)::VARCHAR FROM '${merged}'`),
        groups: (await conn.runAndReadAll(`SELECT row_group_num_rows FROM parquet_metadata('${merged}') WHERE column_id = 0 ORDER BY row_group_id`)).getRowsJS().map(([n]) => Number(n)),
        inputGroups: (await conn.runAndReadAll(`SELECT row_group_num_rows FROM parquet_metadata(${list(files)}) WHERE column_id = 0 ORDER BY file_name, row_group_id`)).getRowsJS().map(([n]) => Number(n))
      }
    })
    expect(read.missing).toEqual([0n])
    expect(read.extra).toEqual([0n])
    expect(read.rows).toEqual([9_300n, "43240350000000000000000000000", "9299000000000000000000000"])
    expect(read.groups).toEqual(read.inputGroups)
    expect(read.groups).toEqual([2048, 2048, 904, 2048, 2048, 4, 200])
  })

  it("given merged files, when their footer is read, then each row group keeps its min/max statistics and its bloom filters answer: an absent value is excluded, a present one is not", async () => {
    const files = [await write("s1.parquet", 0, 3_000), await write("s2.parquet", 3_000, 6_000)]
    const merged = path.join(dir, "stats.parquet")
    await concatParquet(await Promise.all(files.map(readFooter)), merged)
    const read = await withConn(async (conn) => {
      const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJS().map((r) => r.map((v) => (typeof v === "bigint" ? String(v) : v)))
      const stats = "path_in_schema, row_group_num_rows, stats_min_value, stats_max_value, stats_null_count, compression"
      return {
        before: await rows(`SELECT ${stats} FROM parquet_metadata(${list(files)}) ORDER BY file_name, row_group_id, column_id`),
        after: await rows(`SELECT ${stats} FROM parquet_metadata('${merged}') ORDER BY row_group_id, column_id`),
        blooms: await rows(`SELECT count(*) FROM parquet_metadata('${merged}') WHERE bloom_filter_offset IS NOT NULL`),
        absent: await rows(`SELECT bool_and(bloom_filter_excludes) FROM parquet_bloom_probe('${merged}', 'chain', 'Q')`),
        present: await rows(`SELECT bool_or(bloom_filter_excludes) FROM parquet_bloom_probe('${merged}', 'chain', 'X')`),
        pruned: await rows(`SELECT count(*), min(height) FROM '${merged}' WHERE height BETWEEN 4100 AND 4109`)
      }
    })
    expect(read.after).toEqual(read.before)
    expect(read.blooms[0]![0]).not.toBe("0")
    expect(read.absent).toEqual([[true]])
    expect(read.present).toEqual([[false]])
    expect(read.pruned).toEqual([["10", "4100"]])
  })

  it("given files of different schemas, then they are not concatenable and a merge of them is refused before anything is written", async () => {
    const a = await write("d1.parquet", 0, 100)
    const other = path.join(dir, "d2.parquet")
    await withConn((conn) => conn.run(`COPY (SELECT i::BIGINT AS height FROM range(10) t(i)) TO '${other}' (FORMAT parquet)`))
    const footers = await Promise.all([a, other].map(readFooter))
    expect(concatenable(footers)).toBe(false)
    const dest = path.join(dir, "never.parquet")
    await expect(concatParquet(footers, dest)).rejects.toThrow(/different schemas/)
    await expect(fs.stat(dest)).rejects.toThrow(/ENOENT/)
  })

  it("given a file whose column chunk names an offset index (absolute page offsets inside the bytes a merge copies), then its row groups are not moved", async () => {
    const plainFile = await write("plain.parquet", 0, 100)
    const whole = await fs.readFile(plainFile)
    const footer = await readFooter(plainFile)
    // the footer again, with offset_index_offset (ColumnChunk field 4) after the first chunk's metadata
    const meta = new Writer()
    copyStruct(new Reader(footer.meta), meta, (id, type) =>
      id === 4 && type === TType.LIST
        ? (r, w) =>
            copyStructList(r, w, () => (gid, gtype) =>
              gid === 1 && gtype === TType.LIST
                ? (r2, w2) =>
                    copyStructList(r2, w2, (chunk) => (cid) =>
                      cid === 3 && chunk === 0
                        ? (r3, w3) => {
                            copyStruct(r3, w3, () => undefined)
                            w3.field(3, 4, TType.I64)
                            w3.zigzag(4n)
                          }
                        : undefined
                    )
                : undefined
            )
        : undefined
    )
    const bytes = meta.bytes()
    const tail = Buffer.alloc(8)
    tail.writeUInt32LE(bytes.length, 0)
    tail.write("PAR1", 4)
    const indexed = path.join(dir, "indexed.parquet")
    await fs.writeFile(indexed, Buffer.concat([whole.subarray(0, footer.dataEnd), bytes, tail]))
    const read = await readFooter(indexed)
    expect(read.unmovable).toMatch(/offset index/)
    expect(concatenable([footer, read])).toBe(false)
    expect(concatenable([footer, footer])).toBe(true)
  })

  it("given files holding more row groups together than a row group's ordinal (an i16) can number, then they are not concatenable (DuckDB merges them)", async () => {
    const footer = await readFooter(await write("many.parquet", 0, 10))
    const group = footer.rowGroups[0]!
    const half = { ...footer, rowGroups: Array.from({ length: 16_384 }, () => group) }
    expect(concatenable([half, { ...half, rowGroups: half.rowGroups.slice(1) }])).toBe(true)
    expect(concatenable([half, half])).toBe(false)
  })

  it("given a file that is no Parquet, cut short, or with a garbled footer, when its footer is read, then the error names the file", async () => {
    const text = path.join(dir, "notes.parquet")
    await fs.writeFile(text, "just some text, no magic at all")
    await expect(readFooter(text)).rejects.toThrow(text)
    const cut = path.join(dir, "cut.parquet")
    const whole = await fs.readFile(await write("whole.parquet", 0, 100))
    await fs.writeFile(cut, whole.subarray(0, whole.length - 3))
    await expect(readFooter(cut)).rejects.toThrow(cut)
    // magic in place, footer garbled: the walker's error, with the file's name
    const garbled = path.join(dir, "garbled.parquet")
    const bytes = Buffer.from(whole)
    const length = bytes.readUInt32LE(bytes.length - 8)
    bytes.fill(0xff, bytes.length - 8 - length, bytes.length - 8)
    await fs.writeFile(garbled, bytes)
    await expect(readFooter(garbled)).rejects.toThrow(`${garbled}: footer not read`)
  })
})
