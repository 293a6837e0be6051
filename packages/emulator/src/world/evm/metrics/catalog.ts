/** The metric enum of route 5 and what each needs (seed: Metrics rules 1–8). */
import type { TimeInterval } from "./calendar.ts"

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

export type MetricName = (typeof METRICS)[number]

export const isMetric = (s: string): s is MetricName => (METRICS as ReadonlyArray<string>).includes(s)

/** Rule 2: cumulative*, max*, avg* and contracts, deployers, feesPaid support only `day`. */
export const dayOnly = (m: MetricName): boolean =>
  m.startsWith("cumulative") || m.startsWith("max") || m.startsWith("avg") || m === "contracts" || m === "deployers" || m === "feesPaid"

export const intervalsOf = (m: MetricName): ReadonlyArray<TimeInterval> => (dayOnly(m) ? ["day"] : ["hour", "day", "week", "month"])

/** How a network-wide series (total/mainnet/testnet) combines chains: rates and counts add, maxima take the max. */
export const combineKind = (m: MetricName): "sum" | "max" | "txWeightedMean" =>
  m === "maxGps" || m === "maxTps" || m === "maxGasPrice" ? "max" : m === "avgGasPrice" ? "txWeightedMean" : "sum"
