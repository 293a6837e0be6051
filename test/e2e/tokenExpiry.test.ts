import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer, Schema } from "effect"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import type { DatasetDef } from "../../src/crawl/Dataset.ts"
import { CommittedKeys } from "../../src/crawl/CommittedKeys.ts"
import { restListing } from "../../src/crawl/RestListing.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"
import { decoder, UnixSeconds } from "../../src/transform/Decode.ts"
import { defineSchema, float64, ts } from "../../schemas/common.ts"
import { tempFolders } from "../support/fixtures.ts"
import { emulatorRetry, query } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("tokenExpiry")

// A fixed window inside the chain's history, so moving the clock ages tokens but does not change the listing.
const SEED = 5
const NOW = 1_735_689_600 + SEED * 86_400
const START = NOW - 10 * 86_400
const END = NOW - 2 * 86_400
const PAGE = 24

const decodePoint = decoder(Schema.Struct({ timestamp: UnixSeconds, value: Schema.Number }))

/** A metrics listing whose clock jumps two days after `advanceAfterPage` pages: the next token has expired. */
const metricsDataset = (emu: RunningEmulator, advanceAfterPage: number): DatasetDef<RestClient> => {
  const base = restListing({
    service: "metrics",
    path: () => "/v2/chains/43114/metrics/txCount",
    query: () => ({ timeInterval: "hour", startTimestamp: START, endTimestamp: END }),
    items: "results",
    pageSize: PAGE
  })
  let pages = 0
  return {
    name: "test_metric_points",
    description: "txCount by hour",
    schema: defineSchema([ts("timestamp", "Point start"), float64("value", "Value")], "test"),
    partitionBy: [],
    key: ["timestamp"],
    slices: () => [],
    listing: {
      fetch: (slice, cursor) =>
        base.fetch(slice, cursor).pipe(Effect.tap(() => Effect.sync(() => ++pages === advanceAfterPage && emu.advance(2 * 86_400))))
    },
    toRow: (raw) => decodePoint(raw)
  }
}

describe("expired metrics page tokens", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ seed: SEED })
    expect(emu.options.now).toBe(NOW)
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the token lifetime passes mid-listing, when the service refuses the token, then the listing restarts and every point is written exactly once", async () => {
    const out = await tempOut()
    const dataset = metricsDataset(emu, 4)
    const slice = makeSlice(dataset.name, { chain: "43114" })
    const layers = Layer.mergeAll(
      sourceLayerWith({ ...emu, out, retry: emulatorRetry }),
      ParquetSink.layer(out),
      CheckpointStore.layer(out),
      CommittedKeys.layer(out)
    )
    const result = await Effect.runPromise(
      crawlSlice(dataset, slice, { runId: "r1", asOf: emu.clock.now(), ingestedAt: new Date(), partRows: PAGE * 2 }).pipe(Effect.provide(layers))
    )
    expect(result.error).toBeUndefined()
    expect(result).toMatchObject({ status: "done", restarts: 1 })
    await Effect.runPromise(buildCatalog(out, [{ name: dataset.name, schema: dataset.schema, partitionKeys: [] }]))

    // the emulator's own answer for the window, read in one page
    const res = await fetch(`${emu.metricsUrl}/v2/chains/43114/metrics/txCount?timeInterval=hour&startTimestamp=${START}&endTimestamp=${END}&pageSize=2000`)
    const expected = ((await res.json()) as { results: Array<{ timestamp: number; value: number }> }).results
      .map((p) => ({ ts: p.timestamp, value: p.value }))
      .sort((a, b) => a.ts - b.ts)
    expect(expected.length).toBeGreaterThan(PAGE * 5)
    const actual = await query(
      path.join(out, "catalog.duckdb"),
      `SELECT epoch("timestamp")::INTEGER AS ts, value FROM test_metric_points ORDER BY ts`
    )
    expect(actual).toEqual(expected)
  })
})
