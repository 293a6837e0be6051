/**
 * chain_metrics: chain-level metric series of the metrics service (route 5), one point per
 * interval. Hive keys: chain_id, metric, time_interval, month (YYYY-MM of period_start), so a
 * notebook reads one series with partition pruning and the open month can be replaced whole.
 * Both columns are the point's field named in `from`.
 */
import { defineSchema, float64, ts } from "./common.ts"

export const schema = defineSchema(
  [
    ts("period_start", "Start of the interval the point covers (UTC): the hour; 00:00 of the day; Monday 00:00 of the week; the 1st of the month", {
      nullable: false,
      from: "timestamp"
    }),
    float64("value", "The metric's value over the interval, as the service's JSON number (a double)", { nullable: false, from: "value" })
  ],
  "Chain metrics (metrics service route 5): one row per chain, metric, time interval and point; the open month is re-fetched each run and replaces its old rows"
)
