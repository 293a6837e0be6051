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
  const mb = (...sizes: number[]) => sizes.map((m) => ({ bytes: BigInt(Math.round(m * 2 ** 20)) }))
  it.each([
    ["the bench's 10,000-row primary_blocks parts (8.9 MB each)", mb(8.9, 8.9, 8.2), true],
    ["full parts and a last short one", mb(8.9, 8.9, 0.1), true],
    ["10,000-row staking_transactions parts (20.9 MB each)", mb(20.9, 20.9), true],
    ["the X-chain's parts of a few thousand rows", mb(0.62, 0.51, 0.6), false],
    ["~5,000-row primary_blocks parts (3.4 MB)", mb(3.4, 3.4, 3.3), true],
    ["exactly an eighth of 16 MB on average", mb(2, 2), true],
    ["just under an eighth on average", mb(2, 1.99), false],
    ["one row group past 64 MB", mb(8, 64.01), false],
    ["no row groups", mb(), false]
  ] as const)("given %s, then the row groups are kept: %s", (_what, groups, kept) => {
    expect(keepsRowGroups(groups)).toBe(kept)
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
