/**
 * Every metric rule (seed rules 3–8) against a brute-force recomputation from the chain's own
 * transactions, over every day (and a run of hours) of a small chain.
 */
import { describe, expect, it } from "vitest"
import type { EvmChain, EvmTransaction, MetricName } from "../../src/world/evm/index.ts"
import { alignDown, nextStart, metricPoints, seriesRange } from "../../src/world/evm/index.ts"
import { makeEvm } from "./support.ts"

const DAY = 86_400

interface Row {
  readonly time: number
  readonly height: number
  readonly tx: EvmTransaction
}

const allTxs = (chain: EvmChain): Row[] => {
  const rows: Row[] = []
  for (let h = 0n; h <= chain.latestHeight(); h++) {
    for (const tx of chain.transactionsOf(h)) rows.push({ time: tx.blockTimestamp, height: Number(h), tx })
  }
  return rows
}

const addressesOf = (tx: EvmTransaction, sendersOnly: boolean): string[] => [
  tx.from,
  ...(sendersOnly ? [] : [tx.to]),
  ...tx.tokenTransfers.flatMap((t) => (sendersOnly ? [t.from] : [t.from, t.to]))
]

const creations = (tx: EvmTransaction) => tx.internalTransactions.filter((f) => f.type === "CREATE" || f.type === "CREATE2")

const timesCache = new WeakMap<EvmChain, number[]>()
const blockTimes = (chain: EvmChain): number[] => {
  let times = timesCache.get(chain)
  if (!times) {
    times = []
    for (let h = 0n; h <= chain.latestHeight(); h++) times.push(chain.block(h)!.blockTimestamp)
    timesCache.set(chain, times)
  }
  return times
}

/** The seed's rules, written plainly over the full transaction list. */
const bruteForce = (chain: EvmChain, rows: ReadonlyArray<Row>, metric: MetricName, start: number, end: number): number | bigint => {
  const now = chain.now()
  const inside = rows.filter((r) => r.time >= start && r.time < end)
  const upTo = (t: number) => rows.filter((r) => r.time < t && r.time <= now)
  const distinct = (list: ReadonlyArray<Row>, senders: boolean) => BigInt(new Set(list.flatMap((r) => addressesOf(r.tx, senders))).size)
  const blocks = (lo: number, hi: number) => blockTimes(chain).flatMap((t, h) => (t >= lo && t < hi ? [h] : []))
  switch (metric) {
    case "activeAddresses":
      return distinct(inside, false)
    case "activeSenders":
      return distinct(inside, true)
    case "txCount":
      return BigInt(inside.length)
    case "gasUsed":
      return inside.reduce((s, r) => s + r.tx.gasUsed, 0n)
    case "feesPaid":
      return inside.reduce((s, r) => s + r.tx.gasUsed * r.tx.gasPrice, 0n)
    case "maxGasPrice":
      return inside.reduce((s, r) => (r.tx.gasPrice > s ? r.tx.gasPrice : s), 0n)
    case "avgGasPrice":
      return inside.length === 0 ? 0 : Number(inside.reduce((s, r) => s + r.tx.gasPrice, 0n)) / inside.length
    case "cumulativeTxCount":
      return BigInt(upTo(start + DAY).length)
    case "cumulativeAddresses":
      return distinct(upTo(start + DAY), false)
    case "cumulativeContracts":
      return BigInt(upTo(start).reduce((s, r) => s + creations(r.tx).length, 0))
    case "cumulativeDeployers":
      return BigInt(new Set(upTo(start + DAY).flatMap((r) => creations(r.tx).map((f) => f.from))).size)
    case "contracts":
      return BigInt(inside.reduce((s, r) => s + creations(r.tx).length, 0))
    case "deployers":
      return BigInt(new Set(inside.flatMap((r) => creations(r.tx).map((f) => f.from))).size)
    case "avgTps":
    case "avgGps": {
      const day = blocks(start, end)
      if (day.length === 0) return 0
      const last = chain.block(BigInt(day[day.length - 1]!))!
      const before = blocks(0, start)
      const ref = chain.block(BigInt(before.length ? before[before.length - 1]! : 0))!
      const sum = metric === "avgTps" ? inside.length : Number(inside.reduce((s, r) => s + r.tx.gasUsed, 0n))
      return sum / (last.blockTimestamp - ref.blockTimestamp)
    }
    case "maxTps":
    case "maxGps": {
      let max = 0
      for (const h of blocks(start, end)) {
        if (h === 0) continue
        const b = chain.block(BigInt(h))!
        const dt = b.blockTimestamp - chain.block(BigInt(h - 1))!.blockTimestamp
        max = Math.max(max, (metric === "maxTps" ? b.txCount : Number(b.gasUsed)) / dt)
      }
      return max
    }
  }
}

const close = (actual: number | bigint, expected: number | bigint): void => {
  if (typeof expected === "bigint") expect(actual).toBe(expected)
  else expect(Number(actual)).toBeCloseTo(expected, 6)
}

describe("EVM metrics from the chain's own data", () => {
  const { evm, clock } = makeEvm(5)
  const chain = evm.chains()[3]!
  const rows = allTxs(chain)
  const days: number[] = []
  for (let d = chain.metrics.firstBucket("day"); d <= chain.metrics.lastBucket("day"); d += DAY) days.push(d)

  const daily: MetricName[] = [
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
  ]

  it.each(daily)("given every day of a small chain, when %s/day is computed, then it equals the brute-force recomputation", (metric) => {
    expect(days.length).toBeGreaterThan(10)
    for (const d of days) close(chain.metrics.value(metric, "day", d), bruteForce(chain, rows, metric, d, d + DAY))
  })

  it.each(["activeAddresses", "activeSenders", "gasUsed", "txCount"] as const)("given hours, weeks and months, when %s is computed, then it equals the brute force over the bucket", (metric) => {
    const lastHour = chain.metrics.lastBucket("hour")
    for (let h = lastHour - 30 * 3600; h <= lastHour; h += 3600) close(chain.metrics.value(metric, "hour", h), bruteForce(chain, rows, metric, h, h + 3600))
    for (const interval of ["week", "month"] as const) {
      for (let b = chain.metrics.firstBucket(interval); b <= chain.metrics.lastBucket(interval); b = nextStart(b, interval)) {
        close(chain.metrics.value(metric, interval, b), bruteForce(chain, rows, metric, b, nextStart(b, interval)))
      }
    }
  })

  it("given each interval, when buckets are listed, then timestamps are aligned (hour, 00:00 UTC, Monday, first of month) and newest first", () => {
    for (const interval of ["hour", "day", "week", "month"] as const) {
      const { points } = metricPoints([chain], "txCount", interval, seriesRange([chain], interval, clock.now()), undefined, 50)
      expect(points[0]!.timestamp).toBe(alignDown(clock.now(), interval))
      for (const [i, p] of points.entries()) {
        const d = new Date(p.timestamp * 1000)
        expect(d.getUTCMinutes() + d.getUTCSeconds()).toBe(0)
        if (interval !== "hour") expect(d.getUTCHours()).toBe(0)
        if (interval === "week") expect(d.getUTCDay()).toBe(1)
        if (interval === "month") expect(d.getUTCDate()).toBe(1)
        if (i > 0) expect(p.timestamp).toBeLessThan(points[i - 1]!.timestamp)
      }
    }
  })

  it("given startTimestamp and endTimestamp, when the series is ranged, then only buckets overlapping the window come back", () => {
    const lastDay = chain.metrics.lastBucket("day")
    const range = seriesRange([chain], "day", clock.now(), lastDay - 5 * DAY + 3600, lastDay - 2 * DAY)
    const { points, more } = metricPoints([chain], "txCount", "day", range, undefined, 100)
    expect(points.map((p) => p.timestamp)).toEqual([lastDay - 2 * DAY, lastDay - 3 * DAY, lastDay - 4 * DAY, lastDay - 5 * DAY])
    expect(more).toBe(false)
  })

  it("given the clock advances within the day, when metrics are re-read, then the current point grows and earlier points stay", () => {
    const fresh = makeEvm(5)
    const c = fresh.evm.chains()[0]!
    const today = c.metrics.lastBucket("day")
    const yesterday = today - DAY
    const before = { today: c.metrics.value("txCount", "day", today), yesterday: c.metrics.value("txCount", "day", yesterday), cum: c.metrics.value("cumulativeTxCount", "day", yesterday), cumToday: c.metrics.value("cumulativeTxCount", "day", today) }
    fresh.clock.advance(4 * 3600)
    expect(c.metrics.value("txCount", "day", today)).toBeGreaterThan(before.today as bigint)
    expect(c.metrics.value("txCount", "day", yesterday)).toBe(before.yesterday)
    // today's cumulative window (up to 24 h after its timestamp) is still open; yesterday's has closed
    expect(c.metrics.value("cumulativeTxCount", "day", today)).toBeGreaterThan(before.cumToday as bigint)
    expect(c.metrics.value("cumulativeTxCount", "day", yesterday)).toBe(before.cum)
  })

  it("given the network groups, when summed metrics are combined, then total = mainnet + testnet", () => {
    const d = chain.metrics.lastBucket("day") - DAY
    const sum = (chains: ReadonlyArray<EvmChain>) => metricPoints(chains, "txCount", "day", { oldest: d, newest: d }, undefined, 1).points[0]!.value
    expect(sum(evm.group("total"))).toBe((sum(evm.group("mainnet")) as bigint) + (sum(evm.group("testnet")) as bigint))
    expect(evm.group("testnet").every((c) => c.info.isTestnet)).toBe(true)
  })
})
