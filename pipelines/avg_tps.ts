/**
 * avg_tps — route 19, the older daily average-TPS series, one slice per chain of the job.
 *
 * The route takes only `pageToken` (seed; the older document's startKey/from/to do not apply), so
 * the listing sends no pageSize, and it keeps the page's `lastRun` on each row. Its latest point
 * changes like route 5's (rule 1) and the route has no time window: the whole series is fetched
 * each run and replaces the previous one (`rerun: "replace"`).
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { UnixSeconds, decoder, NumberLike } from "../src/transform/Decode.ts"
import { schema } from "../schemas/avg_tps.ts"
import { columnKey } from "./_shared.ts"

const Point = Schema.Struct({
  item: Schema.Struct({ timestamp: UnixSeconds, value: NumberLike }),
  page: Schema.Struct({ lastRun: Schema.optional(UnixSeconds) })
})
const decodePoint = decoder(Point)

const chainOf = (s: Slice): string => s.params["chain_id"] ?? ""

export const dataset: DatasetDef<RestClient> = {
  name: "avg_tps",
  description: "Daily average TPS per EVM chain (metrics route 19)",
  schema,
  partitionBy: [columnKey("chain_id")],
  key: ["period_start"],
  slices: (job) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("avg_tps", { chain_id })),
  // lastRun is page-level: each point carries it so a row says how fresh its series was
  listing: restListing({
    service: "metrics",
    path: (slice) => `/v1/avg_tps/${chainOf(slice)}`,
    items: "results",
    pageFields: ["lastRun"],
    tokenTtlSeconds: 86_400
  }),
  rerun: "replace",
  toRow: (raw, slice) => {
    const { item, page } = decodePoint(raw)
    return { chain_id: chainOf(slice), period_start: item.timestamp, value: item.value, last_run: page.lastRun ?? null }
  }
}
