/**
 * avg_tps: the daily average-TPS series of the older metrics route (route 19). Hive key: chain_id.
 * The record is the point (`item`) and its page's fields (`page`, the listing's pageFields).
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable(
  "Daily average TPS per EVM chain (metrics service route 19); the whole series is re-fetched each run and replaces the previous one",
  {
    chain_id: col.str("EVM chain id of the series").fromSlice(),
    period_start: col.ts("Day the point covers, 00:00 UTC").from("item.timestamp"),
    value: col.float64("Average transactions per second over the day, as the service's JSON number (a double)").from("item.value"),
    last_run: col.ts("When the service last updated the series (its lastRun), as of the page this row came from").from("page.lastRun?")
  }
)
