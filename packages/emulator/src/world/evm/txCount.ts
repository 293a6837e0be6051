/**
 * How many transactions each block holds, as a closed-form running total so that a block's
 * cumulativeTransactions and the block of the n-th transaction are O(1) / O(log n) at any scale.
 *
 * total(h) = floor(m·h + daily wave + weekly wave + K·U(h)/256) for h ≥ 1, total(0) = 0 (the
 * genesis block is empty). The waves' slopes are at most a1 and a2 and the noise moves by less than
 * K, so with m − a1 − a2 − K ≥ 1 every block after genesis has at least one transaction and at most
 * ceil(m + a1 + a2 + K) + 1.
 */
import { h32 } from "./hash.ts"

export interface TxRate {
  readonly mean: number
  readonly daily: number
  readonly weekly: number
  readonly noise: number
  /** Blocks per day, for the waves' periods. */
  readonly blocksPerDay: number
  readonly phase: number
}

export class TxCounts {
  private readonly p1: number
  private readonly p2: number
  private readonly base: number
  constructor(
    private readonly salt: number,
    private readonly rate: TxRate
  ) {
    if (rate.mean - rate.daily - rate.weekly - rate.noise < 1) throw new RangeError("transaction rate too bursty for a closed-form total")
    this.p1 = rate.blocksPerDay
    this.p2 = rate.blocksPerDay * 7
    this.base = this.wave(0)
  }

  private wave(h: number): number {
    const r = this.rate
    return (
      ((r.daily * this.p1) / (2 * Math.PI)) * Math.sin((2 * Math.PI * h) / this.p1 + r.phase) +
      ((r.weekly * this.p2) / (2 * Math.PI)) * Math.sin((2 * Math.PI * h) / this.p2 + 2 * r.phase)
    )
  }

  /** The most transactions one block can hold. */
  get maxPerBlock(): number {
    const r = this.rate
    return Math.ceil(r.mean + r.daily + r.weekly + r.noise) + 1
  }

  /** Transactions in blocks 0..h (0 for h < 1). */
  total(h: number): number {
    if (h < 1) return 0
    const r = this.rate
    return Math.floor(r.mean * h + this.wave(h) - this.base + (r.noise * (h32(this.salt, h) & 255)) / 256)
  }

  countOf(h: number): number {
    return this.total(h) - this.total(h - 1)
  }

  /** The block holding the n-th transaction (0-based global number). */
  blockOf(n: number): number {
    // total(h) > n first happens near n / mean; the waves bound the distance
    const slack = Math.ceil((this.rate.daily * this.p1 + this.rate.weekly * this.p2) / Math.PI + this.rate.noise + 2)
    let lo = Math.max(1, Math.floor((n - slack) / this.rate.mean))
    let hi = Math.ceil((n + slack + 1) / (this.rate.mean - this.rate.daily - this.rate.weekly - this.rate.noise)) + 1
    while (this.total(lo - 1) > n) lo = Math.max(1, Math.floor(lo / 2))
    while (this.total(hi) <= n) hi *= 2
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if (this.total(mid) > n) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}
