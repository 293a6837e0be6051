/**
 * chain_metrics: chain-level metric series of the metrics service (route 5), one point per
 * interval. Hive keys: chain_id, metric, time_interval, month (YYYY-MM of period_start), so a
 * notebook reads one series with partition pruning and the open month can be replaced whole.
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable(
  "Chain metrics (metrics service route 5): one row per chain, metric, time interval and point; the open month is re-fetched each run and replaces its old rows",
  {
    chain_id: col.str("EVM chain id of the series").fromSlice(),
    metric: col.str("Metric of the series, e.g. txCount").fromSlice(),
    time_interval: col.str("Interval of the series' points: hour, day, week or month").fromSlice(),
    period_start: col
      .ts("Start of the interval the point covers (UTC): the hour; 00:00 of the day; Monday 00:00 of the week; the 1st of the month")
      .from("timestamp"),
    value: col.float64("The metric's value over the interval, as the service's JSON number (a double)").from("value")
  }
)
