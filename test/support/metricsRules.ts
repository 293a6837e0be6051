/**
 * The seed's rules of the metrics service written out independently of the pipeline (rule 2:
 * which metric answers which interval), and the metrics window of a job, for the metrics tests.
 */
import type { Job } from "../../src/Job.ts"

/** Seed rule 2, spelled out: these answer only timeInterval=day. */
export const DAY_ONLY = [
  "cumulativeTxCount",
  "cumulativeAddresses",
  "cumulativeContracts",
  "cumulativeDeployers",
  "contracts",
  "deployers",
  "avgGps",
  "maxGps",
  "avgTps",
  "maxTps",
  "avgGasPrice",
  "maxGasPrice",
  "feesPaid"
]
export const ANY_INTERVAL = ["activeAddresses", "activeSenders", "gasUsed", "txCount"]
export const INTERVALS = ["hour", "day", "week", "month"]
export const CHAINS = ["43114", "43113"]

/** Every (metric, interval) the seed allows: 4 × 4 + 13 × 1. */
export const allowedSeries = (): Array<{ metric: string; interval: string }> => [
  ...ANY_INTERVAL.flatMap((metric) => INTERVALS.map((interval) => ({ metric, interval }))),
  ...DAY_ONLY.map((metric) => ({ metric, interval: "day" }))
]

/** The job's metrics window (Job types job.metrics as `{}`: see pipelines/chain_metrics.ts). */
export const windowOf = (job: Job): { start: number; end: number } => {
  const m = job.metrics as { startTimestamp?: number; endTimestamp?: number }
  if (m.startTimestamp === undefined || m.endTimestamp === undefined) throw new Error("the metrics job part sets both window bounds")
  return { start: m.startTimestamp, end: m.endTimestamp }
}

/** The UTC month (YYYY-MM) of a unix time. */
export const monthOf = (t: number): string => new Date(t * 1000).toISOString().slice(0, 7)
