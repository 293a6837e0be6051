/**
 * A probed first page handed to its slice's crawl (src/crawl/ProbedPages.ts, FetchPage.ts): taken
 * once, only at the run's first pass and first page with no cursor, its request counted in the
 * slice's costs once, its next token aged from when the probe received it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as arrow from "apache-arrow"
import { Clock, Effect, Either, Exit, Layer, TestClock } from "effect"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import type { AnyDataset, DatasetDef, Page } from "../../src/crawl/Dataset.ts"
import { guessPages } from "../../src/crawl/Probe.ts"
import { ProbedPages, probeScope } from "../../src/crawl/ProbedPages.ts"
import { makeSlice, type Slice } from "../../src/crawl/Slice.ts"
import { RecordError } from "../../src/crawl/Dataset.ts"
import { parseJson } from "../../src/source/Response.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { SourceStats, statsScope } from "../../src/source/SourceStats.ts"
import { KillSwitch, layers, newDisk, rowsOf } from "./fakes.ts"

const HOST = "data.example:443"

/** 10 records, 3 a page, cursor = index of the next record; each page a request counted at HOST (and the fiber's slice). */
const listing = (log: Array<string | undefined>, ttlSeconds?: number) => ({
  ...(ttlSeconds === undefined ? {} : { tokenTtlSeconds: ttlSeconds }),
  fetch: (_slice: Slice, cursor: string | undefined) =>
    Effect.gen(function* () {
      log.push(cursor)
      yield* (yield* SourceStats).add(HOST, { requests: 1, bytesReceived: 100 })
      const from = cursor === undefined ? 0 : Number(cursor)
      const records = Array.from({ length: Math.min(3, 10 - from) }, (_, i) => ({ id: `r${from + i}`, n: from + i }))
      return { records, next: from + 3 < 10 ? String(from + 3) : undefined } satisfies Page
    })
})

const dataset = (l: ReturnType<typeof listing>): DatasetDef<SourceStats> => ({
  name: "things",
  description: "test",
  schema: new arrow.Schema([]),
  partitionBy: [{ key: "all", type: "VARCHAR", value: () => "all" }],
  key: ["id"],
  slices: () => [],
  listing: l,
  toRow: (raw) => raw as { id: string; n: number }
})

const slice = makeSlice("things", { network: "mainnet", from: "2024-12-01T00:00:00Z", to: "2024-12-08T00:00:00Z" })
const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 3 }

/** The probe of `slice` as Probe.ts asks it: the listing's first page, its request counted under the probe's scope. */
const probeFirst = (pages: ProbedPages, l: ReturnType<typeof listing>, at: Slice = slice) =>
  Effect.gen(function* () {
    const page = yield* l.fetch(at, undefined).pipe(Effect.locally(statsScope, probeScope("things", at)))
    const receivedAt = yield* Clock.currentTimeMillis
    pages.put("things", at, { page, sources: [], receivedAt, ms: 1 })
  })

const inRun = <A, E, R>(e: Effect.Effect<A, E, R>) => e.pipe(Effect.provide(SourceStats.layer))

describe("a probed first page handed to the crawl", () => {
  it.effect("given a probed first page, when its slice is crawled, then the listing is asked from the second page on and the rows equal a crawl without it", () =>
    inRun(
      Effect.gen(function* () {
        const reference = newDisk()
        const plainLog: Array<string | undefined> = []
        yield* crawlSlice(dataset(listing(plainLog)), slice, options).pipe(Effect.provide(layers(reference, new KillSwitch(undefined))))
        const log: Array<string | undefined> = []
        const l = listing(log)
        const pages = new ProbedPages()
        yield* probeFirst(pages, l)
        const disk = newDisk()
        const result = yield* crawlSlice(dataset(l), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
        expect(result).toMatchObject({ status: "done", pages: 4, rows: 10 })
        // the probe's request, then the crawl's from the second page on
        expect(log).toEqual([undefined, "3", "6", "9"])
        expect(plainLog).toEqual([undefined, "3", "6", "9"])
        expect(rowsOf(disk, "things", "id")).toEqual(rowsOf(reference, "things", "id"))
        expect(pages.size).toBe(0)
      })
    )
  )

  it.effect("given a probed first page, when its slice is crawled, then the slice's report counts the probe's request and the host counts it once", () =>
    inRun(
      Effect.gen(function* () {
        const l = listing([])
        const pages = new ProbedPages()
        yield* probeFirst(pages, l)
        const result = yield* crawlSlice(dataset(l), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(newDisk(), new KillSwitch(undefined))))
        const stats = yield* SourceStats
        // 4 pages: 1 probed, 3 fetched by the crawl
        expect(result).toMatchObject({ requests: 4, bytes: 400 })
        expect((yield* stats.snapshot)[HOST]!.requests).toBe(4)
        // the probe's scope handed its count over
        expect((yield* stats.ofSlice(probeScope("things", slice))).requests).toBe(0)
      })
    )
  )

  it.effect("given a slice resumed from a checkpoint's cursor and a probed page for it, when crawled, then it starts at the cursor, takes no probed page, and the page is gone", () =>
    inRun(
      Effect.gen(function* () {
        const disk = newDisk()
        // a first run killed after its first part's checkpoint (save running, part, checkpoint; the next part dies)
        const killed = yield* Effect.exit(crawlSlice(dataset(listing([])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(4)))))
        expect(Exit.isFailure(killed)).toBe(true)
        expect(disk.checkpoints.get(`things/${slice.id}`)?.cursor).toBe("3")
        // a probed page whose records are not the listing's: taken, they would be written
        const pages = new ProbedPages()
        pages.put("things", slice, { page: { records: [{ id: "probe", n: 99 }], next: undefined }, sources: [], receivedAt: 0, ms: 1 })
        const log: Array<string | undefined> = []
        const result = yield* crawlSlice(dataset(listing(log)), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
        expect(result.status).toBe("done")
        expect(log).toEqual(["3", "6", "9"])
        expect(rowsOf(disk, "things", "id").map((r) => r["id"])).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"])
        expect(pages.size).toBe(0)
      })
    )
  )

  it.effect("given a page probed for a window of other bounds under the same id, when the slice is crawled, then it asks its own first page", () =>
    inRun(
      Effect.gen(function* () {
        const pages = new ProbedPages()
        // same id, another start: a window topped up from its last completion lists from there
        pages.put("things", { ...slice, fetchFrom: 5 }, { page: { records: [{ id: "probe", n: 99 }], next: undefined }, sources: [], receivedAt: 0, ms: 1 })
        const log: Array<string | undefined> = []
        const disk = newDisk()
        yield* crawlSlice(dataset(listing(log)), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
        expect(log).toEqual([undefined, "3", "6", "9"])
        expect(rowsOf(disk, "things", "id").some((r) => r["id"] === "probe")).toBe(false)
        expect(pages.size).toBe(0)
      })
    )
  )

  it.effect("given a probed page received 5 s before its slice starts and a token lifetime of 60 s, when crawled, then its first part's checkpoint dates the token from the probe", () =>
    inRun(
      Effect.gen(function* () {
        const l = listing([], 60)
        const pages = new ProbedPages()
        yield* probeFirst(pages, l)
        const probedAt = pages.peek("things", slice)!.receivedAt
        yield* TestClock.adjust("5 seconds")
        const disk = newDisk()
        // killed once the first part's checkpoint is saved
        yield* Effect.exit(crawlSlice(dataset(l), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(disk, new KillSwitch(4)))))
        expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ cursor: "3", cursorIssuedAt: probedAt, rowsCommitted: 3 })
        expect((yield* Clock.currentTimeMillis) - probedAt).toBe(5_000)
      })
    )
  )

  it.effect("given a probed page whose next token outlived the listing's 60 s lifetime, when its slice is crawled, then the first page is asked again and the probed one dropped", () =>
    inRun(
      Effect.gen(function* () {
        const log: Array<string | undefined> = []
        const l = listing(log, 60)
        const pages = new ProbedPages()
        yield* probeFirst(pages, l)
        yield* TestClock.adjust("61 seconds")
        const result = yield* crawlSlice(dataset(l), slice, { ...options, probed: pages }).pipe(Effect.provide(layers(newDisk(), new KillSwitch(undefined))))
        expect(result).toMatchObject({ status: "done", rows: 10, requests: 4 })
        // the probe's first page, then the crawl's own from the first
        expect(log).toEqual([undefined, undefined, "3", "6", "9"])
        expect(pages.size).toBe(0)
      })
    )
  )

  it.effect("given a first page whose second record is malformed, probed through the REST client, when its slice is crawled, then the reject's raw text is the record as the service sent it", () => {
    const bad = '{ "id" : "r1",  "n": "1.0e3" }'
    const text = `{"items": [ {"id":"r0","n":0} ,${bad}], "next": null}`
    let asked = 0
    // the service: one answer, parsed as the REST client parses a 2xx body (its text registered beside it)
    const rest = Layer.succeed(RestClient, {
      get: () => Effect.sync(() => (asked++, Either.getOrThrow(parseJson("GET data /items", 200, new TextEncoder().encode(text))))),
      post: () => Effect.die("no POST")
    })
    const things: DatasetDef<RestClient> = {
      name: "things",
      description: "test",
      schema: new arrow.Schema([]),
      partitionBy: [{ key: "all", type: "VARCHAR", value: () => "all" }],
      key: ["id"],
      // a windowed dataset: the probes ask its windows
      windows: {} as NonNullable<DatasetDef<RestClient>["windows"]>,
      slices: () => [],
      listing: { fetch: () => Effect.map(Effect.flatMap(RestClient, (c) => c.get("data", "/items")), (body) => ({ records: (body as { items: unknown[] }).items, next: undefined })) },
      toRow: (raw) => {
        const r = raw as { id: string; n: unknown }
        if (typeof r.n !== "number") throw new RecordError(`n: expected a number, got ${JSON.stringify(r.n)}`)
        return { id: r.id, n: r.n }
      }
    }
    return Effect.gen(function* () {
      const pages = new ProbedPages()
      // the backfill's probe (Probe.ts) of the one window, its page kept
      // (typed for every client a dataset may use; this listing asks the REST client alone)
      type Guessed = Effect.Effect<Effect.Effect.Success<ReturnType<typeof guessPages>>, never, RestClient>
      const guessed = yield* (guessPages([{ dataset: things as AnyDataset, slices: [slice] }], () => new Map([[slice.id, 1]]), false, false, pages) as Guessed)
      expect(guessed.roundTrips.length).toBe(1)
      const disk = newDisk()
      const result = yield* crawlSlice(things, slice, { ...options, probed: pages }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(result).toMatchObject({ status: "done", pages: 1, rows: 1, rejects: 1 })
      expect(asked).toBe(1)
      expect(rowsOf(disk, "_rejects", "raw").map((r) => r["raw"])).toEqual([bad])
    }).pipe(Effect.provide(Layer.mergeAll(SourceStats.layer, rest)))
  })
})
