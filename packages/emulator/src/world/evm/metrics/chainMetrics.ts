/**
 * Route 5's metrics of one chain, computed from the chain's own transactions (seed rules 1–8).
 * Values are exact: bigint for counts and sums, number for rates and averages. A bucket's value is
 * cached once the bucket (or, for cumulative metrics, its 24-hour window) is over.
 */
import type { EvmChain } from "../chain.ts"
import { Lru } from "../lru.ts"
import type { Ref } from "../refs.ts"
import { alignDown, nextStart, type TimeInterval } from "./calendar.ts"
import type { MetricName } from "./catalog.ts"
import { HourlyAggregates, type HourAgg } from "./hourly.ts"

export type MetricValue = number | bigint

const DAY = 86_400

interface Fold {
  txCount: number
  gasUsed: bigint
  fees: bigint
  sumGasPrice: bigint
  maxGasPrice: bigint
  maxTps: number
  maxGps: number
  deployers: Set<Ref>
  lastBlock: number
}

/** a / b as a float without passing a large bigint through a number first. */
const ratio = (a: bigint, b: bigint): number => (b === 0n ? 0 : Number(a / b) + Number(a % b) / Number(b))

export class ChainMetrics {
  readonly hourly: HourlyAggregates
  private readonly values = new Lru<string, MetricValue>(50_000)

  constructor(private readonly chain: EvmChain) {
    this.hourly = new HourlyAggregates(chain)
  }

  /** First bucket that holds a block (the genesis block's). */
  firstBucket(interval: TimeInterval): number {
    return alignDown(this.chain.model.timeline.genesisTime, interval)
  }

  /** The current bucket: the one holding now. */
  lastBucket(interval: TimeInterval): number {
    return alignDown(this.chain.now(), interval)
  }

  value(metric: MetricName, interval: TimeInterval, start: number): MetricValue {
    const end = nextStart(start, interval)
    const key = `${metric}|${interval}|${start}`
    const hit = this.values.get(key)
    if (hit !== undefined) return hit
    const v = this.compute(metric, interval, start, end)
    if (end <= this.chain.now()) this.values.set(key, v)
    return v
  }

  private fold(start: number, end: number): Fold {
    const f: Fold = { txCount: 0, gasUsed: 0n, fees: 0n, sumGasPrice: 0n, maxGasPrice: 0n, maxTps: 0, maxGps: 0, deployers: new Set(), lastBlock: -1 }
    for (let h = start; h < end; h += 3600) {
      const a: HourAgg = this.hourly.get(h)
      f.txCount += a.txCount
      f.gasUsed += a.gasUsed
      f.fees += a.fees
      f.sumGasPrice += a.sumGasPrice
      if (a.maxGasPrice > f.maxGasPrice) f.maxGasPrice = a.maxGasPrice
      f.maxTps = Math.max(f.maxTps, a.maxTps)
      f.maxGps = Math.max(f.maxGps, a.maxGps)
      for (const d of a.deployers) f.deployers.add(d)
      if (a.lastBlock >= a.firstBlock) f.lastBlock = a.lastBlock
    }
    return f
  }

  /** Global number of the last transaction with block time < t that is already revealed. */
  private lastTxBefore(t: number): number {
    return this.chain.model.lastTxAtTime(Math.min(t - 1, this.chain.now()))
  }

  /** Rule 3: distinct from/to of transactions and ERC transfer events in [start, end). */
  private distinct(start: number, end: number, sendersOnly: boolean): number {
    const tl = this.chain.model.timeline
    const last = Math.min(tl.latestAt(end - 1), this.chain.latest())
    const seen = new Set<Ref>()
    for (let h = tl.firstAtOrAfter(start); h <= last; h++) {
      for (const c of this.chain.cores(h).cores) {
        seen.add(c.from)
        if (!sendersOnly) seen.add(c.to)
        for (const t of c.transfers) {
          seen.add(t.from)
          if (!sendersOnly) seen.add(t.to)
        }
      }
    }
    return seen.size
  }

  /** Rule 7's average: the day's sum over the time from the previous day's last block to the day's last block. */
  private perSecond(sum: bigint, f: Fold, start: number): number {
    if (f.lastBlock < 0) return 0
    const tl = this.chain.model.timeline
    const before = tl.latestAt(start - 1)
    const dt = tl.time(f.lastBlock) - tl.time(before < 0 ? 0 : before)
    return dt <= 0 ? 0 : ratio(sum, BigInt(dt))
  }

  private compute(metric: MetricName, interval: TimeInterval, start: number, end: number): MetricValue {
    const layout = this.chain.model.layout
    switch (metric) {
      case "activeAddresses":
        return BigInt(this.distinct(start, end, false))
      case "activeSenders":
        return BigInt(this.distinct(start, end, true))
      case "cumulativeTxCount":
        return BigInt(this.lastTxBefore(start + DAY) + 1)
      case "cumulativeAddresses":
        return BigInt(layout.addressesThrough(this.lastTxBefore(start + DAY)))
      case "cumulativeDeployers":
        return BigInt(layout.deployersThrough(this.lastTxBefore(start + DAY)))
      case "cumulativeContracts":
        return BigInt(layout.contractsThrough(this.lastTxBefore(start)))
      case "contracts":
        return BigInt(layout.contractsThrough(this.lastTxBefore(end)) - layout.contractsThrough(this.lastTxBefore(start)))
      default:
        break
    }
    const f = this.fold(start, end)
    switch (metric) {
      case "deployers":
        return BigInt(f.deployers.size)
      case "gasUsed":
        return f.gasUsed
      case "txCount":
        return BigInt(f.txCount)
      case "avgGps":
        return this.perSecond(f.gasUsed, f, start)
      case "avgTps":
        return this.perSecond(BigInt(f.txCount), f, start)
      case "maxGps":
        return f.maxGps
      case "maxTps":
        return f.maxTps
      case "avgGasPrice":
        return ratio(f.sumGasPrice, BigInt(f.txCount))
      case "maxGasPrice":
        return f.maxGasPrice
      case "feesPaid":
        return f.fees
    }
    throw new RangeError(`metric ${metric} for interval ${interval} is not computed here`)
  }

  /** Transactions in the bucket: the weight of avgGasPrice when chains are combined. */
  txCountIn(start: number, interval: TimeInterval): number {
    return this.fold(start, nextStart(start, interval)).txCount
  }
}
