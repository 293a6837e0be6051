/**
 * Row groups of merged files sized by their rows' width (src/compact/RowGroups.ts): narrow rows
 * keep 16,384 a group, wide ones get fewer, so the writer's one unspillable row group stays small.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { MERGED_ROW_GROUP_ROWS, MIN_ROW_GROUP_ROWS, ROW_GROUP_BYTES, keepsRowGroups, rowGroupRows, uncompressedBytes } from "../../src/compact/RowGroups.ts"
import { withConn } from "./fixtures.ts"

describe("rowGroupRows", () => {
  it.each([
    ["no width known", 0, 16_384],
    ["primary_blocks' ~680 bytes a row", 680, 16_384],
    ["exactly a full group's share", ROW_GROUP_BYTES / MERGED_ROW_GROUP_ROWS, 16_384],
    ["a byte more than that", ROW_GROUP_BYTES / MERGED_ROW_GROUP_ROWS + 1, 8_192],
    ["staking_transactions' ~2.2 KB a row", 2_200, 4_096],
    ["rows of 100 KB", 100_000, 2_048]
  ] as const)("given %s, then a row group holds %s rows", (_what, width, rows) => {
    expect(rowGroupRows(width)).toBe(rows)
  })

  it("given any width, then the rows are a power of two within the bounds and their bytes within the target unless at the floor", () => {
    for (let width = 1; width < 200_000; width = Math.ceil(width * 1.37)) {
      const rows = rowGroupRows(width)
      expect(Number.isInteger(Math.log2(rows))).toBe(true)
      expect(rows).toBeGreaterThanOrEqual(MIN_ROW_GROUP_ROWS)
      expect(rows).toBeLessThanOrEqual(MERGED_ROW_GROUP_ROWS)
      if (rows > MIN_ROW_GROUP_ROWS) expect(rows * width).toBeLessThanOrEqual(ROW_GROUP_BYTES)
      if (rows < MERGED_ROW_GROUP_ROWS) expect(rows * 2 * width).toBeGreaterThan(ROW_GROUP_BYTES)
    }
  })
})

describe("keepsRowGroups", () => {
  it.each([
    ["the sink's 10,000-row parts, narrow rows (16,384 wanted)", [10_000n, 10_000n, 9_200n], 16_384, true],
    ["full parts and a last short one", [10_000n, 10_000n, 72n], 16_384, true],
    ["a folder of 300-row parts", [300n, 300n, 300n], 16_384, false],
    ["exactly a quarter on average", [4_096n, 4_096n], 16_384, true],
    ["just under a quarter on average", [4_096n, 4_095n], 16_384, false],
    ["10,000 nested rows where 4,096 are wanted", [10_000n, 10_000n], 4_096, false],
    ["exactly twice the wanted rows", [8_192n, 8_192n], 4_096, true],
    ["no row groups", [], 16_384, false]
  ] as const)("given %s, then the row groups are kept: %s", (_what, rows, groupRows, kept) => {
    expect(keepsRowGroups(rows, groupRows)).toBe(kept)
  })
})

describe("uncompressedBytes", () => {
  it("given uncompressed files of 1,000-character distinct strings, then their uncompressed size is read from the footers: a little over 1,000 bytes for each of their 4,000 rows", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-rowgroups-"))
    try {
      const width = await withConn(async (conn) => {
        const file = async (name: string, from: number, rows: number) => {
          const f = path.join(dir, `${name}.parquet`)
          await conn.run(
            `COPY (SELECT repeat(printf('%08d', i), 125) AS s FROM range(${from}, ${from + rows}) t(i)) TO '${f}' (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 1)`
          )
          return f
        }
        return (await uncompressedBytes(conn, [await file("a", 0, 3_000), await file("b", 3_000, 1_000)])) / 4_000
      })
      expect(width).toBeGreaterThan(1_000)
      expect(width).toBeLessThan(1_100)
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
