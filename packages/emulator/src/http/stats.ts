/** Request and fault counters, served by GET /_emulator/state so a run can check what it met. */

export interface EmulatorStats {
  total: number
  byHost: { data: number; metrics: number; node: number }
  byStatus: Record<string, number>
  /** 429s from the rate limiter (not from faults). */
  rateLimited: number
  /** Per injected fault kind: 5xx, 429, reset, truncate, malformed, extra-fields. */
  faults: Record<string, number>
  /** The last few fault notes, newest last, e.g. "GET /v1/… malformed index=3 field=blockNumber kind=…". */
  recentFaults: string[]
  /** With recordKeyArrivals: per API key, the instant (ms, monotonic) each chain-data request carrying it arrived. Not served by /_emulator/state. */
  readonly keyArrivals: Map<string, number[]>
}

const RECENT = 50

export const createStats = (): EmulatorStats => ({
  total: 0,
  byHost: { data: 0, metrics: 0, node: 0 },
  byStatus: {},
  rateLimited: 0,
  faults: {},
  recentFaults: [],
  keyArrivals: new Map()
})

/** Counts a fault note under its first word ("malformed index=2 …" → malformed). */
export const countFault = (stats: EmulatorStats, label: string, note: string): void => {
  const kind = note.split(" ")[0] as string
  stats.faults[kind] = (stats.faults[kind] ?? 0) + 1
  stats.recentFaults.push(`${label} ${note}`)
  if (stats.recentFaults.length > RECENT) stats.recentFaults.shift()
}
