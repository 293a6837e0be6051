/**
 * avg_tps — route 19, the older daily average-TPS series, one slice per chain of the job.
 *
 * The route takes only `pageToken` (seed; the older document's startKey/from/to do not apply), so
 * the listing sends no pageSize, and it keeps the page's `lastRun` on each row. Its latest point
 * changes like route 5's (rule 1) and the route has no time window: the whole series is fetched
 * each run and replaces the previous one (`rerun: "replace"`).
 */
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/avg_tps.ts"

const chainOf = (s: Slice): string => s.params["chain_id"] ?? ""

export const dataset = defineDataset(table, {
  name: "avg_tps",
  description: "Daily average TPS per EVM chain (metrics route 19)",
  services: ["metrics"],
  partitionBy: ["chain_id"],
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
  rerun: "replace"
})
