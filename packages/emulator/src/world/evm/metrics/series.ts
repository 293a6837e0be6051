/**
 * A metric as a series of points, newest first (the order of the official examples and what a
 * "latest data point may change" client reads first), for one chain or several combined
 * (route 5's total / mainnet / testnet).
 */
import type { EvmChain } from "../chain.ts"
import { alignDown, prevStart, type TimeInterval } from "./calendar.ts"
import { combineKind, type MetricName } from "./catalog.ts"
import type { MetricValue } from "./chainMetrics.ts"

export interface MetricPoint {
  readonly timestamp: number
  /** Exact: bigint for counts and sums, number for rates and averages. */
  readonly value: MetricValue
}

export interface SeriesRange {
  /** Oldest bucket start (inclusive). */
  readonly oldest: number
  /** Newest bucket start (inclusive); oldest > newest when empty. */
  readonly newest: number
}

/**
 * Buckets whose interval overlaps [startTimestamp, endTimestamp], from the first bucket holding a
 * block of any of the chains to the current one.
 */
export const seriesRange = (chains: ReadonlyArray<EvmChain>, interval: TimeInterval, now: number, startTimestamp?: number, endTimestamp?: number): SeriesRange => {
  const first = Math.min(...chains.map((c) => c.metrics.firstBucket(interval)))
  const oldest = Math.max(first, startTimestamp === undefined ? first : alignDown(startTimestamp, interval))
  const current = alignDown(now, interval)
  const newest = endTimestamp === undefined ? current : Math.min(current, alignDown(endTimestamp, interval))
  return { oldest, newest }
}

const combined = (chains: ReadonlyArray<EvmChain>, metric: MetricName, interval: TimeInterval, ts: number): MetricValue => {
  const live = chains.filter((c) => c.metrics.firstBucket(interval) <= ts)
  if (chains.length === 1) return live.length === 1 ? (live[0] as EvmChain).metrics.value(metric, interval, ts) : 0n
  const values = live.map((c) => c.metrics.value(metric, interval, ts))
  switch (combineKind(metric)) {
    case "max":
      return values.reduce<MetricValue>((a, b) => (b > a ? b : a), 0)
    case "txWeightedMean": {
      let weighted = 0
      let weight = 0
      live.forEach((c, i) => {
        const w = c.metrics.txCountIn(ts, interval)
        weighted += Number(values[i]) * w
        weight += w
      })
      return weight === 0 ? 0 : weighted / weight
    }
    case "sum":
      return values.reduce<MetricValue>((a, b) => (typeof a === "bigint" && typeof b === "bigint" ? a + b : Number(a) + Number(b)), 0n)
  }
}

/**
 * Up to `limit` points, newest first, strictly older than `before` when given. `more` tells whether
 * older points remain in the range.
 */
export const metricPoints = (
  chains: ReadonlyArray<EvmChain>,
  metric: MetricName,
  interval: TimeInterval,
  range: SeriesRange,
  before: number | undefined,
  limit: number
): { points: MetricPoint[]; more: boolean } => {
  const points: MetricPoint[] = []
  let ts = before === undefined ? range.newest : prevStart(before, interval)
  if (ts > range.newest) ts = range.newest
  while (ts >= range.oldest && points.length < limit) {
    points.push({ timestamp: ts, value: combined(chains, metric, interval, ts) })
    ts = prevStart(ts, interval)
  }
  return { points, more: ts >= range.oldest }
}
