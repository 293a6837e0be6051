/**
 * Item 3: page tokens that live one second. The metrics service (the emulator with a 1 s token
 * lifetime) sits behind a proxy that makes chosen pages slow: a page asked for more than a second
 * after its token was issued is refused as expired, and the listing restarts from its first page.
 * - Pages slow once each: listings restart again and again, and the rows equal a clean crawl.
 * - Pages always slow past the second: no restart can get further, and the slice fails saying so
 *   instead of looping.
 * Both for an append listing (committed rows skipped after a restart) and a replacing one
 * (chain_metrics: the whole month rewritten in one commit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Duration, Effect, Layer, Schema } from "effect"
import { promises as fs } from "node:fs"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { CommittedKeys } from "../../src/crawl/CommittedKeys.ts"
import { crawlSlice, type SliceResult } from "../../src/crawl/Crawler.ts"
import type { DatasetDef } from "../../src/crawl/Dataset.ts"
import { restListing } from "../../src/crawl/RestListing.ts"
import { makeSlice, type Slice } from "../../src/crawl/Slice.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import type { RestClient } from "../../src/source/RestClient.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"
import { UnixSeconds, decoder } from "../../src/transform/Decode.ts"
import { chainMetricsDataset } from "../../pipelines/chain_metrics.ts"
import { defineSchema, float64, ts } from "../../schemas/common.ts"
import { emulatorRetry } from "../support/spine.ts"
import { tempFolders } from "../support/fixtures.ts"
import { compareCatalogs, leftovers } from "./compare.ts"
import { type Proxy, type ProxyDecision, forward, startProxy } from "../support/proxy.ts"

const SEED = 1
const PAGE = 24
/** Longer than the token lifetime: the token this request carries has expired when it arrives. */
const SLOW_MS = 1_300

const decodePoint = decoder(Schema.Struct({ timestamp: UnixSeconds, value: Schema.Number }))

/** An append listing (rerun "never") over 20 days of hourly txCount: about 20 pages of 24. */
const appendDataset = (emu: RunningEmulator): DatasetDef<RestClient> => {
  const end = emu.clock.now() - 2 * 86_400
  return {
    name: "test_points",
    description: "txCount by hour",
    schema: defineSchema([ts("timestamp", "Point start"), float64("value", "Value")], "test"),
    partitionBy: [],
    key: ["timestamp"],
    slices: () => [],
    listing: restListing({
      service: "metrics",
      path: () => "/v2/chains/43114/metrics/txCount",
      query: () => ({ timeInterval: "hour", startTimestamp: end - 20 * 86_400, endTimestamp: end - 1 }),
      items: "results",
      pageSize: PAGE,
      tokenTtlSeconds: 86_400
    }),
    toRow: (raw) => decodePoint(raw)
  }
}

/** chain_metrics at 24 a page over December's hours (the chain's, in the emulator's world): some 20 pages, rewritten whole. */
const replaceDataset = () => chainMetricsDataset(PAGE)
const DECEMBER = { chain_id: "43114", metric: "txCount", time_interval: "hour", month: "2024-12" }

/**
 * Where each request stands in its walk of a listing: a request without a page token starts a
 * walk (position 0), each one with a token is one page further. `slow(position, firstTime)` says
 * whether the proxy holds the request back.
 */
const walker = (slow: (position: number, firstTime: boolean) => boolean) => {
  const position = new Map<string, number>()
  const delayed = new Map<string, Set<number>>()
  return (req: { url: URL }): ProxyDecision => {
    const q = new URLSearchParams(req.url.searchParams)
    const hasToken = q.has("pageToken")
    q.delete("pageToken")
    const listing = `${req.url.pathname}?${q}`
    const at = hasToken ? (position.get(listing) ?? 0) + 1 : 0
    position.set(listing, at)
    const seen = delayed.get(listing) ?? new Set<number>()
    delayed.set(listing, seen)
    const first = !seen.has(at)
    if (!slow(at, first)) return forward
    seen.add(at)
    return { kind: "forward", delayMs: SLOW_MS }
  }
}

const crawl = (out: string, emu: RunningEmulator, metricsUrl: string, dataset: DatasetDef<RestClient>, slice: Slice) =>
  Effect.runPromise(
    crawlSlice(dataset, slice, { runId: "r1", asOf: emu.clock.now(), ingestedAt: new Date(), partRows: PAGE * 2 }).pipe(
      // a slice that loops would never come back: the bound turns that into a failure of this test
      Effect.timeoutFail({ duration: Duration.seconds(60), onTimeout: () => new Error("the slice was still crawling after 60 s: it loops") }),
      Effect.provide(
        Layer.mergeAll(
          sourceLayerWith({ baseUrl: emu.baseUrl, metricsUrl, nodeUrl: emu.nodeUrl, out, retry: emulatorRetry }),
          ParquetSink.layer(out),
          CheckpointStore.layer(out),
          CommittedKeys.layer(out)
        )
      )
    )
  )

const catalogOf = (out: string, dataset: DatasetDef<RestClient>) =>
  Effect.runPromise(buildCatalog(out, [{ name: dataset.name, schema: dataset.schema, partitionKeys: dataset.partitionBy.map((p) => ({ key: p.key, type: p.type ?? "VARCHAR" })) }]))

describe("page tokens that live one second", () => {
  const ttlDir = tempFolders("ttl")
  let emu: RunningEmulator
  let proxies: Proxy[] = []
  beforeAll(async () => {
    emu = await startEmulator({ seed: SEED, tokenTtlSeconds: 1, rateLimit: { metricsPerSecond: 0 } })
  })
  afterAll(async () => {
    for (const p of proxies) await p.close()
    await emu?.close()
  })
  const proxy = async (slow: (position: number, firstTime: boolean) => boolean) => {
    const p = await startProxy(emu.metricsUrl, walker(slow))
    proxies.push(p)
    return p
  }

  const cases = [
    { kind: "an append listing", dataset: () => appendDataset(emu), params: { chain: "43114" }, never: "page tokens expire before the listing gets past the rows already committed" },
    { kind: "a replacing listing (chain_metrics)", dataset: replaceDataset, params: DECEMBER, never: "page tokens expire before the listing gets further than its previous pass (2 pages)" }
  ]

  it("given a replacing listing refreshed while its tokens keep expiring, when the refresh fails, then the previous version stays whole and no part of the new one shows beside it", async () => {
    // January is the emulator's open month: chain_metrics refreshes it every run
    const dataset = chainMetricsDataset(8)
    const slice = makeSlice(dataset.name, { ...DECEMBER, month: "2025-01" })
    const out = await ttlDir()
    const first = await crawl(out, emu, emu.metricsUrl, dataset, slice)
    expect(first).toMatchObject({ status: "done", restarts: 0 })
    expect(first.pages).toBeGreaterThan(2)
    await catalogOf(out, dataset)
    const before = await ttlDir()
    await fs.cp(out, before, { recursive: true })
    await catalogOf(before, dataset)

    const slow = await proxy((position) => position >= 2)
    const refresh = await crawl(out, emu, slow.url, dataset, slice)
    expect(refresh.status).toBe("failed")
    await catalogOf(out, dataset)
    const [diff] = await compareCatalogs(out, before)
    expect(diff).toMatchObject({ rowsA: first.rows, rowsB: first.rows, onlyA: 0, onlyB: 0 })
  }, 90_000)

  for (const c of cases) {
    it(`given ${c.kind} whose every fifth page is slow the first time, when crawled, then it restarts each time and equals a clean crawl`, async () => {
      const dataset = c.dataset()
      const slice = makeSlice(dataset.name, c.params)
      const cleanOut = await ttlDir()
      const clean = await crawl(cleanOut, emu, emu.metricsUrl, dataset, slice)
      expect(clean).toMatchObject({ status: "done", restarts: 0 })

      const out = await ttlDir()
      const slow = await proxy((position, first) => first && position % 5 === 4)
      const result: SliceResult = await crawl(out, emu, slow.url, dataset, slice)
      expect(result.error).toBeUndefined()
      // a restart at every fifth page of the listing
      expect(clean.pages).toBeGreaterThanOrEqual(15)
      expect(result).toMatchObject({ status: "done", restarts: Math.floor(clean.pages / 5) })

      await catalogOf(cleanOut, dataset)
      await catalogOf(out, dataset)
      const [diff] = await compareCatalogs(out, cleanOut)
      expect(diff!.rowsB).toBeGreaterThan(PAGE * (clean.pages - 1))
      expect(diff).toMatchObject({ rowsA: diff!.rowsB, onlyA: 0, onlyB: 0 })
      expect(await leftovers(out)).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
    }, 90_000)

    it(`given ${c.kind} whose pages past the second are always slow, when crawled, then the slice fails saying the tokens expire instead of looping`, async () => {
      const dataset = c.dataset()
      const slice = makeSlice(dataset.name, c.params)
      const out = await ttlDir()
      const slow = await proxy((position) => position >= 2)
      const result = await crawl(out, emu, slow.url, dataset, slice)
      expect(result.status).toBe("failed")
      expect(result.error).toBe(`TokenExpired on ${dataset.name} ${slice.id}: ${c.never}; raise the token lifetime or speed up the pages`)
      // no more than two walks, each stopped at its third page
      expect(slow.hits.filter((h) => !h.url.searchParams.has("pageToken")).length).toBeLessThanOrEqual(3)
    }, 90_000)
  }
})
