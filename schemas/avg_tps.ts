/**
 * avg_tps: the daily average-TPS series of the older metrics route (route 19). Hive key: chain_id.
 * Columns come `from` the point (`item`) and its page's fields (`page`, the listing's pageFields).
 */
import { defineSchema, float64, ts } from "./common.ts"

export const schema = defineSchema(
  [
    ts("period_start", "Day the point covers, 00:00 UTC", { nullable: false, from: "item.timestamp" }),
    float64("value", "Average transactions per second over the day, as the service's JSON number (a double)", { nullable: false, from: "item.value" }),
    ts("last_run", "When the service last updated the series (its lastRun), as of the page this row came from", { from: "page.lastRun", optional: true })
  ],
  "Daily average TPS per EVM chain (metrics service route 19); the whole series is re-fetched each run and replaces the previous one"
)
