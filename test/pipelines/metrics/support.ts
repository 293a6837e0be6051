import { isSafeNumber, parse } from "lossless-json"
/**
 * Helpers of the metrics-group tests: the emulator's own answers read with plain fetch (the
 * truth the crawled rows are compared with), and the seed's rule 2 written out independently of
 * the pipeline.
 */
import type { RunningEmulator } from "@chainetl/emulator"
import { defaultJob, type Job } from "../../../src/Job.ts"
import { metricsJobPart } from "../../support/emulatorJob/metrics.ts"
import { query } from "../../support/spine.ts"

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

export const metricsJob = (emu: RunningEmulator): Job => ({ ...defaultJob, ...metricsJobPart(emu) })

/** The job's metrics window (Job types job.metrics as `{}`: see pipelines/chain_metrics.ts). */
export const windowOf = (job: Job): { start: number; end: number } => {
  const m = job.metrics as { startTimestamp?: number; endTimestamp?: number }
  if (m.startTimestamp === undefined || m.endTimestamp === undefined) throw new Error("the metrics job part sets both window bounds")
  return { start: m.startTimestamp, end: m.endTimestamp }
}

export const monthOf = (t: number): string => new Date(t * 1000).toISOString().slice(0, 7)

export interface Point {
  readonly ts: number
  readonly value: number
}

/** Every page of a metrics-service list route, following nextPageToken, with plain fetch. */
export const pages = async (url: string, items: string, query: Record<string, string> = {}): Promise<Array<Record<string, unknown>>> => {
  const bodies: Array<Record<string, unknown>> = []
  let token: string | undefined
  do {
    const u = new URL(url)
    for (const [k, v] of Object.entries({ ...query, ...(token ? { pageToken: token } : {}) })) u.searchParams.set(k, v)
    const res = await fetch(u)
    if (!res.ok) throw new Error(`${u}: ${res.status} ${await res.text()}`)
    // integers above 2^53 (holder balances) come back as bigint, exactly as the service wrote them
    const body = parse(await res.text(), null, (n) => (isSafeNumber(n) ? Number(n) : /^-?\d+$/.test(n) ? BigInt(n) : Number(n))) as Record<string, unknown>
    if (!Array.isArray(body[items])) throw new Error(`${u}: no ${items}`)
    bodies.push(body)
    token = body["nextPageToken"] as string | undefined
  } while (token)
  return bodies
}

/** A whole series of route 5 as the emulator answers it (no window), oldest first. */
export const series = async (emu: RunningEmulator, chain: string, metric: string, interval: string): Promise<Point[]> =>
  (await pages(`${emu.metricsUrl}/v2/chains/${chain}/metrics/${metric}`, "results", { timeInterval: interval, pageSize: "2160" }))
    .flatMap((b) => b["results"] as Array<{ timestamp: number; value: number }>)
    // a metric value is a JSON number (a double), however the lossless reader above hands it over
    .map((p) => ({ ts: p.timestamp, value: Number(p.value) }))
    .sort((a, b) => a.ts - b.ts)

/** A view's column types as DuckDB reports them. */
export const columnTypes = async (catalog: string, view: string): Promise<Record<string, unknown>> =>
  Object.fromEntries((await query(catalog, `DESCRIBE ${view}`)).map((r) => [r["column_name"], r["column_type"]]))
