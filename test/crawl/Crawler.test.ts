import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import type { DatasetDef } from "../../src/crawl/Dataset.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { CheckpointError, SourceError } from "../../src/Errors.ts"
import { KillSwitch, layers, newDisk, rowsOf, type Staging, thingsDataset } from "./fakes.ts"

/** A listing of `total` records, `perPage` a page, cursor = index of the next record. */
const listing = (total: number, perPage: number, log: Array<string | undefined>, opts: { expireOnce?: number; bad?: number } = {}) => {
  let expired = false
  return {
    fetch: (_slice: unknown, cursor: string | undefined) =>
      Effect.suspend(() => {
        log.push(cursor)
        const from = cursor === undefined ? 0 : Number(cursor)
        if (opts.expireOnce !== undefined && from === opts.expireOnce && !expired) {
          expired = true
          return Effect.fail(new SourceError({ reason: "TokenExpired", request: "GET test", status: 400, detail: "page token expired" }))
        }
        const records = Array.from({ length: Math.min(perPage, total - from) }, (_, i) =>
          from + i === opts.bad ? { id: "x", n: "not a number" } : { id: `r${String(from + i).padStart(3, "0")}`, n: from + i }
        )
        const next = from + perPage < total ? String(from + perPage) : undefined
        return Effect.succeed({ records, next })
      })
  }
}

const dataset = (l: ReturnType<typeof listing>): DatasetDef<never> => thingsDataset(l)

const slice = makeSlice("things", { network: "mainnet" })
const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 5 }

describe("crawlSlice", () => {
  it.effect("given 25 records in pages of 3, when crawled without interruption, then every record lands once", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const result = yield* crawlSlice(dataset(listing(25, 3, log)), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(result).toMatchObject({ status: "done", pages: 9, rows: 25, rejects: 0 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual(Array.from({ length: 25 }, (_, i) => i))
      expect(log).toEqual([undefined, "3", "6", "9", "12", "15", "18", "21", "24"])
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ status: "done", rowsCommitted: 25, cursor: null })
    })
  )

  it.effect.each([
    ["parts of 5 rows", options],
    ["parts bounded by 500 bytes", { ...options, partRows: 100, partBytes: 500 }]
  ] as const)("given %s and a kill at each durable operation, when the crawl is resumed, then rows equal an uninterrupted run and no committed page is fetched again", ([, options]) =>
    Effect.gen(function* () {
      const reference = newDisk()
      yield* crawlSlice(dataset(listing(25, 3, [])), slice, options).pipe(Effect.provide(layers(reference, new KillSwitch(undefined))))
      const expected = rowsOf(reference, "things", "id")
      // count the durable operations of a clean run, then kill at each one in turn
      const counter = new KillSwitch(undefined)
      yield* crawlSlice(dataset(listing(25, 3, [])), slice, options).pipe(Effect.provide(layers(newDisk(), counter)))
      expect(counter.ops).toBeGreaterThan(10)
      for (let killAt = 1; killAt <= counter.ops; killAt++) {
        const disk = newDisk()
        const first = yield* Effect.exit(
          crawlSlice(dataset(listing(25, 3, [])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(killAt))))
        )
        expect(Exit.isFailure(first)).toBe(true)
        const committedCursor = disk.checkpoints.get(`things/${slice.id}`)?.cursor ?? null
        const log: Array<string | undefined> = []
        const second = yield* crawlSlice(dataset(listing(25, 3, log)), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
        expect(second.status).toBe("done")
        expect(rowsOf(disk, "things", "id")).toEqual(expected)
        // the resumed run starts exactly at the committed cursor
        expect(log[0]).toBe(committedCursor ?? undefined)
      }
    })
  )

  it.effect("given parts bounded by their staged bytes, when crawled, then a part is written once its bytes reach the bound, before its rows do", () =>
    Effect.gen(function* () {
      // the fake sink counts FAKE_ROW_BYTES (100) a staged row; pages of 3 rows
      const seqs = (disk: ReturnType<typeof newDisk>) => new Set([...disk.parts.keys()].map((name) => name.slice(-6)))
      const bounded = newDisk()
      // given 25 records, at most 100 rows but 500 bytes a part
      const result = yield* crawlSlice(dataset(listing(25, 3, [])), slice, { ...options, partRows: 100, partBytes: 500 }).pipe(
        Effect.provide(layers(bounded, new KillSwitch(undefined)))
      )
      // then each part holds two pages (600 bytes), the last page its own: parts 0 to 4, every row once
      expect(result).toMatchObject({ status: "done", rows: 25 })
      expect([...seqs(bounded)].sort()).toEqual(["000000", "000001", "000002", "000003", "000004"])
      expect(rowsOf(bounded, "things", "id").map((r) => r["n"])).toEqual(Array.from({ length: 25 }, (_, i) => i))
      // and without the byte bound the same rows make one part
      const unbounded = newDisk()
      yield* crawlSlice(dataset(listing(25, 3, [])), slice, { ...options, partRows: 100 }).pipe(Effect.provide(layers(unbounded, new KillSwitch(undefined))))
      expect([...seqs(unbounded)]).toEqual(["000000"])
    })
  )

  it.effect("given a page token that expires mid-listing, when the service says so, then the listing restarts and no row is doubled", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const result = yield* crawlSlice(dataset(listing(25, 3, log, { expireOnce: 12 })), slice, options).pipe(
        Effect.provide(layers(disk, new KillSwitch(undefined)))
      )
      expect(result).toMatchObject({ status: "done", restarts: 1, rows: 25 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual(Array.from({ length: 25 }, (_, i) => i))
      // restarted from the first page after the failed request for cursor 12
      expect(log.slice(0, 6)).toEqual([undefined, "3", "6", "9", "12", undefined])
    })
  )

  it.effect("given one malformed record, when crawled, then it goes to _rejects with its reason and the rest of its page is kept", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const result = yield* crawlSlice(dataset(listing(9, 3, [], { bad: 4 })), slice, options).pipe(
        Effect.provide(layers(disk, new KillSwitch(undefined)))
      )
      expect(result).toMatchObject({ status: "done", rows: 8, rejects: 1 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual([0, 1, 2, 3, 5, 6, 7, 8])
      const rejects = rowsOf(disk, "_rejects", "raw")
      expect(rejects).toEqual([
        { dataset: "things", slice: slice.id, page: 1, raw: '{"id":"x","n":"not a number"}', reason: 'n: expected a number, got "not a number"' }
      ])
    })
  )

  it.effect("given a source failure beyond retries, when crawled, then the slice fails with the request named and resumes later", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const failing = {
        fetch: (_s: unknown, cursor: string | undefined) =>
          cursor === "6"
            ? Effect.fail(new SourceError({ reason: "HttpStatus", request: "GET data /things?pageToken=6", status: 503, detail: "Service Unavailable" }))
            : listing(25, 3, []).fetch(_s, cursor)
      }
      const failed = yield* crawlSlice(dataset(failing), slice, { ...options, partRows: 1 }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(failed.status).toBe("failed")
      expect(failed.error).toContain("GET data /things?pageToken=6")
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ status: "failed", cursor: "6", rowsCommitted: 6 })
      const resumed = yield* crawlSlice(dataset(listing(25, 3, [])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(resumed).toMatchObject({ status: "done", rows: 19 })
      expect(rowsOf(disk, "things", "id")).toHaveLength(25)
    })
  )
})

describe("crawlSlice and a checkpoint it cannot read", () => {
  it.effect("given a store whose read fails (EACCES), when the slice is crawled, then it fails with the reason, fetches nothing and saves nothing over the checkpoint", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      yield* crawlSlice(dataset(listing(9, 3, [])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      const before = disk.checkpoints.get(`things/${slice.id}`)
      const log: Array<string | undefined> = []
      const unreadable = Layer.succeed(CheckpointStore, {
        ...(yield* Effect.provide(CheckpointStore, layers(disk, new KillSwitch(undefined)))),
        load: () => Effect.fail(new CheckpointError({ reason: "Io", slice: slice.id, detail: "EACCES: permission denied" }))
      })
      const result = yield* crawlSlice({ ...dataset(listing(9, 3, log)), rerun: "always" }, slice, options).pipe(
        Effect.provide(Layer.merge(layers(disk, new KillSwitch(undefined)), unreadable))
      )
      expect(result).toMatchObject({ status: "failed", pages: 0, rows: 0, error: `checkpoint of ${slice.id}: Io: EACCES: permission denied` })
      expect(log).toEqual([])
      expect(disk.checkpoints.get(`things/${slice.id}`)).toBe(before)
    })
  )
})

describe("crawlSlice staging", () => {
  it.effect("given a source failure with pages buffered, when the slice fails, then their staged rows are dropped, not left to the next part", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const staging: Staging = new Map()
      const failing = {
        fetch: (_s: unknown, cursor: string | undefined) =>
          cursor === "9"
            ? Effect.fail(new SourceError({ reason: "HttpStatus", request: "GET data /things?pageToken=9", status: 503, detail: "Service Unavailable" }))
            : listing(25, 3, []).fetch(_s, cursor)
      }
      const failed = yield* crawlSlice(dataset(failing), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined), staging)))
      expect(failed).toMatchObject({ status: "failed", rows: 6 })
      // page 6's rows were staged, never committed
      expect(staging.size).toBe(0)
      const resumed = yield* crawlSlice(dataset(listing(25, 3, [])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined), staging)))
      expect(resumed).toMatchObject({ status: "done", rows: 19 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual(Array.from({ length: 25 }, (_, i) => i))
    })
  )

  it.effect("given a replacing listing whose token expires mid-way, when it restarts, then the dropped pass's staged rows are not written", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const staging: Staging = new Map()
      const replacing: DatasetDef<never> = { ...dataset(listing(9, 3, [], { expireOnce: 6 })), rerun: "replace" }
      const result = yield* crawlSlice(replacing, slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined), staging)))
      expect(result).toMatchObject({ status: "done", restarts: 1, rows: 9, parts: 2 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual(Array.from({ length: 9 }, (_, i) => i))
      expect(staging.size).toBe(0)
    })
  )
})

describe("crawlSlice with rerun: replace", () => {
  /** A listing whose values change between runs, like a metric's open period. */
  const changing = (values: ReadonlyArray<number>) => ({
    fetch: (_slice: unknown, cursor: string | undefined) => {
      const from = cursor === undefined ? 0 : Number(cursor)
      const records = values.slice(from, from + 3).map((n, i) => ({ id: `p${from + i}`, n }))
      return Effect.succeed({ records, next: from + 3 < values.length ? String(from + 3) : undefined })
    }
  })
  const replacing = (values: ReadonlyArray<number>): DatasetDef<never> => ({ ...dataset(changing(values)), rerun: "replace" })

  it.effect("given a finished replacing slice, when the source changed, then the next run's rows replace the old ones", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const first = yield* crawlSlice(replacing([1, 2, 3, 4]), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(first).toMatchObject({ status: "done", rows: 4, parts: 2 })
      const second = yield* crawlSlice(replacing([1, 2, 3, 4, 50]), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(second).toMatchObject({ status: "done", rows: 5 })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual([1, 2, 3, 4, 50])
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ lastSeq: 1, keepFromSeq: 1 })
    })
  )

  it.effect("given a replacing rerun killed at each durable step, then no row is missing meanwhile and the resumed run leaves exactly one generation", () =>
    Effect.gen(function* () {
      const counter = new KillSwitch(undefined)
      const setup = newDisk()
      yield* crawlSlice(replacing([1, 2, 3, 4]), slice, options).pipe(Effect.provide(layers(setup, new KillSwitch(undefined))))
      const opsBefore = { parts: new Map(setup.parts), checkpoints: new Map(setup.checkpoints) }
      yield* crawlSlice(replacing([9, 8, 7]), slice, options).pipe(Effect.provide(layers({ parts: new Map(opsBefore.parts), checkpoints: new Map(opsBefore.checkpoints) }, counter)))
      expect(counter.ops).toBeGreaterThanOrEqual(2)
      for (let killAt = 1; killAt <= counter.ops; killAt++) {
        const disk = { parts: new Map(opsBefore.parts), checkpoints: new Map(opsBefore.checkpoints) }
        const killed = yield* Effect.exit(crawlSlice(replacing([9, 8, 7]), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(killAt)))))
        expect(Exit.isFailure(killed)).toBe(true)
        // until recovery a kill may show new rows beside the old ones, but one whole generation is always there
        const seen = new Set(rowsOf(disk, "things", "id").map((r) => r["n"]))
        const whole = (generation: number[]) => generation.every((n) => seen.has(n))
        expect(whole([1, 2, 3, 4]) || whole([9, 8, 7])).toBe(true)
        yield* crawlSlice(replacing([9, 8, 7]), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
        expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual([9, 8, 7])
      }
    })
  )
})

describe("crawlSlice finality", () => {
  const open = (values: ReadonlyArray<number>) => ({
    fetch: (_slice: unknown, _cursor: string | undefined) => Effect.succeed({ records: values.map((n, i) => ({ id: `m${i}`, n })), next: undefined })
  })
  const monthly = (values: ReadonlyArray<number>): DatasetDef<never> => ({ ...dataset(open(values)), rerun: "replace" })
  const month = makeSlice("things", { month: "2025-01" }, 2_000)

  it.effect("given a replacing slice whose period ends at 2000, when runs as of 1500, 2500 and 3000 complete it, then the run as of 2500 is its last crawl", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const runAt = (asOf: number, values: number[]) =>
        crawlSlice(monthly(values), month, { ...options, asOf }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(yield* runAt(1_500, [1])).toMatchObject({ status: "done", rows: 1 })
      expect(yield* runAt(2_500, [1, 2])).toMatchObject({ status: "done", rows: 2 })
      expect(yield* runAt(3_000, [1, 2, 3])).toMatchObject({ status: "skipped" })
      expect(rowsOf(disk, "things", "id").map((r) => r["n"])).toEqual([1, 2])
      expect(disk.checkpoints.get(`things/${month.id}`)).toMatchObject({ completedAsOf: 2_500 })
    })
  )
})
