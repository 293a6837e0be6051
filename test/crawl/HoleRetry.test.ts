/**
 * A rejected record through the crawler (ToRows → FetchPage → CommitPart): the slice finishes
 * with the hole counted, is not final, and the next crawl asks for the record again; once it is
 * mapped the slice holds it once and is final. A settled answer (404) is a reject but no hole.
 */
import { describe, expect, it } from "@effect/vitest"
import * as arrow from "apache-arrow"
import { Effect } from "effect"
import { isFinal } from "../../src/crawl/Checkpoint.ts"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import { type DatasetDef, type Listing, NotFoundRecord, RecordError } from "../../src/crawl/Dataset.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { type Disk, KillSwitch, layers, newDisk, rowsOf } from "./fakes.ts"

const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 3 }

/**
 * Heights [0, 8) walked like pipelines/_shared/heightWalk.ts: each pass asks for the heights not
 * on disk, two a page, and names each record's height.
 */
const walk = (disk: Disk, asked: string[]): Listing<never> => ({
  excludesCommitted: true,
  revisits: () => true,
  fetch: (_slice, cursor) =>
    Effect.sync(() => {
      const onDisk = new Set(rowsOf(disk, "blocks", "height").map((r) => String(r["height"])))
      const todo = Array.from({ length: 8 }, (_, h) => String(h)).filter((h) => !onDisk.has(h) && (cursor === undefined || Number(h) > Number(cursor)))
      const heights = todo.slice(0, 2)
      asked.push(...heights)
      return { records: heights.map((h) => ({ height: h })), keys: heights, next: todo.length > 2 ? heights[1] : undefined }
    })
})

/** The dataset as two builds map it: `rejects` are the heights this build cannot decode. */
const blocks = (listing: Listing<never>, rejects: ReadonlySet<string>): DatasetDef<never> => ({
  name: "blocks",
  description: "test",
  schema: new arrow.Schema([]),
  partitionBy: [],
  key: ["height"],
  rerun: "always",
  slices: () => [],
  listing,
  toRow: (raw) => {
    const { height } = raw as { height: string }
    if (rejects.has(height)) throw new RecordError(`block at ${height}: unknown block type`)
    return { height: BigInt(height) }
  }
})

const cell = makeSlice("blocks", { network: "mainnet", from: "0", to: "8" }, 0)
const heightsOf = (disk: Disk) => rowsOf(disk, "blocks", "height").map((r) => Number(r["height"])).sort((a, b) => a - b)

describe("a rejected record is a hole, retried", () => {
  it.effect("given a build that rejects heights 1 and 3, when a fixed build crawls the same cell, then it asks for those two only and every height is written once", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const asked: string[] = []
      const first = yield* crawlSlice(blocks(walk(disk, asked), new Set(["1", "3"])), cell, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(first).toMatchObject({ status: "done", rows: 6, rejects: 2, holes: 2, holeKeys: ["1", "3"], holesMet: 2 })
      const after = disk.checkpoints.get(`blocks/${cell.id}`)!
      expect(isFinal(after, cell, "always")).toBe(false)
      // the fixed build: the cell is not final, so it is crawled again
      asked.length = 0
      const second = yield* crawlSlice(blocks(walk(disk, asked), new Set()), cell, { ...options, runId: "run-2" }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(asked).toEqual(["1", "3"])
      expect(second).toMatchObject({ status: "done", rows: 2, rejects: 0, holes: 0, holesMet: 0 })
      expect(heightsOf(disk)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
      // the rejects of the first build stay: the record of what failed
      expect(rowsOf(disk, "_rejects", "raw").map((r) => r["reason"])).toEqual(["block at 1: unknown block type", "block at 3: unknown block type"])
      // complete now: a third crawl skips it
      const third = yield* crawlSlice(blocks(walk(disk, asked), new Set()), cell, { ...options, runId: "run-3" }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(third.status).toBe("skipped")
    })
  )

  it.effect("given a build still rejecting height 3, when it crawls again, then 3 is asked for again, its reject written again and its hole still open", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const asked: string[] = []
      yield* crawlSlice(blocks(walk(disk, asked), new Set(["3"])), cell, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      asked.length = 0
      const again = yield* crawlSlice(blocks(walk(disk, asked), new Set(["3"])), cell, { ...options, runId: "run-2" }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(asked).toEqual(["3"])
      expect(again).toMatchObject({ status: "done", rows: 0, rejects: 1, holes: 1, holeKeys: ["3"], holesMet: 1 })
      expect(heightsOf(disk)).toEqual([0, 1, 2, 4, 5, 6, 7])
    })
  )

  it.effect("given a key the service answers 404, when crawled, then it is a reject but no hole, and the slice is final", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      // a fan-out's page: keys 0 to 3 answer, 4 is not found
      const keys = ["0", "1", "2", "3", "4"]
      const fanOut: Listing<never> = {
        revisits: () => true,
        fetch: () => Effect.succeed({ records: [...keys.slice(0, 4).map((height) => ({ height })), new NotFoundRecord("4", "GET /blocks/4")], keys, next: undefined })
      }
      const result = yield* crawlSlice(blocks(fanOut, new Set()), cell, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(result).toMatchObject({ status: "done", rows: 4, rejects: 1, holes: 0, holesMet: 0 })
      expect(isFinal(disk.checkpoints.get(`blocks/${cell.id}`), cell, "always")).toBe(true)
    })
  )

  it.effect("given a listing of records without keys (a window) with one it cannot map, when it is listed again whole, then committed rows are skipped, the reject is not written twice and the hole stays", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const records = Array.from({ length: 5 }, (_, i) => ({ height: String(i) }))
      // one page of everything, again each pass: a window listed whole
      const window: Listing<never> = { revisits: () => true, fetch: () => Effect.succeed({ records, next: undefined }) }
      const slice = makeSlice("blocks", { network: "mainnet", from: "2025-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z" })
      const first = yield* crawlSlice({ ...blocks(window, new Set(["2"])), rerun: "never" }, slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(first).toMatchObject({ status: "done", rows: 4, rejects: 1, holes: 1 })
      expect(isFinal(disk.checkpoints.get(`blocks/${slice.id}`), slice, "never")).toBe(false)
      const again = yield* crawlSlice({ ...blocks(window, new Set(["2"])), rerun: "never" }, slice, { ...options, runId: "run-2" }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(again).toMatchObject({ status: "done", rows: 0, rejects: 0, holes: 1, holesMet: 1 })
      const fixed = yield* crawlSlice({ ...blocks(window, new Set()), rerun: "never" }, slice, { ...options, runId: "run-3" }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(fixed).toMatchObject({ status: "done", rows: 1, rejects: 0, holes: 0 })
      expect(heightsOf(disk)).toEqual([0, 1, 2, 3, 4])
      expect(isFinal(disk.checkpoints.get(`blocks/${slice.id}`), slice, "never")).toBe(true)
    })
  )
})
