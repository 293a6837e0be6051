/**
 * chain_metrics — route 5: every metric at every time interval rule 2 allows, per chain of the
 * job, one slice per (chain, metric, interval, month).
 *
 * Rule 1: "the latest point may change on each update". A month is fetched whole and every run
 * fetches it again with `rerun: "replace"`, so the open month's latest point is superseded, never
 * duplicated. Slices are months so that, once the spine can mark a slice final after it closes
 * (the end of its last bucket), closed months stop being re-fetched with no change of slice ids;
 * until then closed months are re-fetched too, and the job's window bounds that cost.
 */
import type { Backfill, DatasetDef, Listing } from "../src/crawl/Dataset.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { keepWithin } from "../src/crawl/WindowListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { Job } from "../src/Job.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/chain_metrics.ts"
import { NETWORK_LAUNCH } from "./_shared/time.ts"

/** Route 5's metric enum (seed: Metrics). */
export const METRICS = [
  "activeAddresses",
  "activeSenders",
  "cumulativeTxCount",
  "cumulativeAddresses",
  "cumulativeContracts",
  "cumulativeDeployers",
  "contracts",
  "deployers",
  "gasUsed",
  "txCount",
  "avgGps",
  "maxGps",
  "avgTps",
  "maxTps",
  "avgGasPrice",
  "maxGasPrice",
  "feesPaid"
] as const

export type TimeInterval = "hour" | "day" | "week" | "month"

/** Rule 2: cumulative*, max*, avg*, contracts, deployers and feesPaid support only `day`. */
export const dayOnly = (metric: string): boolean =>
  /^(cumulative|max|avg)/.test(metric) || metric === "contracts" || metric === "deployers" || metric === "feesPaid"

export const intervalsOf = (metric: string): ReadonlyArray<TimeInterval> => (dayOnly(metric) ? ["day"] : ["hour", "day", "week", "month"])

/**
 * Where "all history" starts when the job gives no startTimestamp: the month the Avalanche
 * C-Chain went live. Earlier data does not exist; months before a chain's genesis answer empty.
 */
export const ALL_HISTORY_FROM = NETWORK_LAUNCH

const DAY = 86_400

/** "YYYY-MM" of a Unix time, UTC. */
export const monthOf = (t: number): string => new Date(t * 1000).toISOString().slice(0, 7)

const monthStart = (month: string): number => Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1) / 1000
const nextMonth = (month: string): string => {
  const d = new Date(monthStart(month) * 1000)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 7)
}

/** Start of the first bucket of `interval` that begins at or after `t` (rule 1 alignment). */
const firstBucketFrom = (t: number, interval: TimeInterval): number => {
  if (interval !== "week") return t // hours, days and months all begin at a month's start
  const day = Math.floor(t / DAY)
  // 1970-01-05 (day 4) was a Monday
  return (day + ((4 - day) % 7 + 7) % 7) * DAY
}

/**
 * The points a month slice owns: buckets that BEGIN in the month, so each point has one slice and
 * one `month` partition (a week starting on the 30th belongs to that month).
 */
export const monthWindow = (month: string, interval: TimeInterval): { readonly from: number; readonly until: number } => ({
  from: firstBucketFrom(monthStart(month), interval),
  until: monthStart(nextMonth(month))
})

/**
 * job.metrics as declared in src/Job.ts. Spelled out because the Job type infers this field as
 * `{}` (its default `() => ({})` wins the inference), which hides the optional fields.
 */
export interface MetricsWindow {
  readonly metrics?: ReadonlyArray<string> | undefined
  readonly startTimestamp?: number | undefined
  readonly endTimestamp?: number | undefined
}

/** Months from the job's start to its end, the run's month at the latest. */
export const monthsOf = (metrics: MetricsWindow, runDate: string): ReadonlyArray<string> => {
  const runEnd = Date.parse(`${runDate}T00:00:00Z`) / 1000 + DAY - 1
  const from = monthOf(metrics.startTimestamp ?? ALL_HISTORY_FROM)
  const to = monthOf(Math.min(metrics.endTimestamp ?? runEnd, runEnd))
  const out: string[] = []
  for (let m = from; m <= to; m = nextMonth(m)) out.push(m)
  return out
}

/**
 * Metrics update several times an hour and the latest point may change (rule 1): a month's
 * points are settled once its last bucket has ended — a week that starts in the month may run
 * six days into the next — plus a margin for late updates. From then on the slice is final.
 */
export const SETTLE_MARGIN_SECONDS = 6 * 3_600

export const settledAfter = (month: string, interval: string): number => {
  const nextMonthStart = Date.parse(`${nextMonth(month)}-01T00:00:00Z`) / 1000
  return nextMonthStart + (interval === "week" ? 6 * DAY : 0) + SETTLE_MARGIN_SECONDS
}

/** A backfill asks for the months its range touches, in place of the job's window. */
const slicesOf = (job: Job, runDate: string, backfill: Backfill | undefined): ReadonlyArray<Slice> => {
  const window: MetricsWindow =
    backfill?.unit !== "time" ? job.metrics : { ...job.metrics, startTimestamp: backfill.from, endTimestamp: backfill.to - 1 }
  const months = monthsOf(window, runDate)
  const metrics = window.metrics ?? METRICS
  const out = new Map<string, Slice>()
  for (const chain_id of job.evmChains) {
    for (const metric of metrics) {
      for (const time_interval of intervalsOf(metric)) {
        for (const month of months) {
          const slice = makeSlice("chain_metrics", { chain_id, metric, time_interval, month }, settledAfter(month, time_interval))
          out.set(slice.id, slice)
        }
      }
    }
  }
  return [...out.values()]
}

const param = (s: Slice, k: string): string => s.params[k] ?? ""

/**
 * Route 5 over one month. Points outside the month are dropped: a service that reads the window
 * as "buckets overlapping it" may add the bucket before, which the previous month's slice owns.
 */
const monthListing = (pageSize: number): Listing<RestClient> =>
  keepWithin(
    restListing({
    service: "metrics",
    path: (s) => `/v2/chains/${param(s, "chain_id")}/metrics/${param(s, "metric")}`,
    query: (s) => {
      const w = monthWindow(param(s, "month"), param(s, "time_interval") as TimeInterval)
      return { timeInterval: param(s, "time_interval"), startTimestamp: w.from, endTimestamp: w.until - 1 }
    },
    items: "results",
    pageSize,
    tokenTtlSeconds: 86_400
    }),
    "timestamp",
    (slice) => {
      const w = monthWindow(param(slice, "month"), param(slice, "time_interval") as TimeInterval)
      return { from: w.from, to: w.until }
    }
  )

/** The dataset at a given page size: the route's maximum in the registry, smaller in paging tests. */
export const chainMetricsDataset = (pageSize = 2160): DatasetDef<RestClient> =>
  defineDataset(table, {
    name: "chain_metrics",
    description: "Chain metrics per EVM chain, metric, time interval and point (metrics route 5)",
    services: ["metrics"],
    partitionBy: ["chain_id", "metric", "time_interval", { key: "month", type: "VARCHAR", column: "period_start", value: (t) => (t as Date).toISOString().slice(0, 7) }],
    key: ["period_start"],
    // compacted files are sorted so: time order
    sortBy: ["period_start"],
    slices: (job, { runDate, backfill }) => (backfill?.unit === "height" ? [] : slicesOf(job, runDate, backfill)),
    backfill: "fixed",
    listing: monthListing(pageSize),
    rerun: "replace"
  })

export const dataset = chainMetricsDataset()
