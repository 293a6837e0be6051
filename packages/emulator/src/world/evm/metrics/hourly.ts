/**
 * Per-hour aggregates of one chain, computed from its transactions on first use and cached once
 * the hour is over (a bounded LRU): a day, week or month is a fold of hours. Only blocks up to the
 * latest (timestamp ≤ now) count, so the current hour grows as the clock advances.
 */
import type { EvmChain } from "../chain.ts"
import { Lru } from "../lru.ts"
import type { Ref } from "../refs.ts"

export interface HourAgg {
  readonly start: number
  /** Heights in the hour: [firstBlock, lastBlock]; empty when firstBlock > lastBlock. */
  readonly firstBlock: number
  readonly lastBlock: number
  readonly txCount: number
  readonly gasUsed: bigint
  readonly fees: bigint
  readonly sumGasPrice: bigint
  readonly maxGasPrice: bigint
  /** Rule 7: per-block transactions (gas) over seconds since the previous block, maximum. */
  readonly maxTps: number
  readonly maxGps: number
  /** `from` of CREATE/CREATE2 frames in the hour (rule 5), distinct. */
  readonly deployers: ReadonlyArray<Ref>
}

export class HourlyAggregates {
  private readonly cache = new Lru<number, HourAgg>(20_000)
  constructor(private readonly chain: EvmChain) {}

  get(start: number): HourAgg {
    const now = this.chain.now()
    const hit = this.cache.get(start)
    if (hit) return hit
    const agg = this.compute(start)
    if (start + 3600 <= now) this.cache.set(start, agg)
    return agg
  }

  private compute(start: number): HourAgg {
    const tl = this.chain.model.timeline
    const first = tl.firstAtOrAfter(start)
    const last = Math.min(tl.latestAt(start + 3599), this.chain.latest())
    let txCount = 0
    let gasUsed = 0n
    let fees = 0n
    let sumGasPrice = 0n
    let maxGasPrice = 0n
    let maxTps = 0
    let maxGps = 0
    const deployers = new Set<Ref>()
    for (let h = first; h <= last; h++) {
      const b = this.chain.cores(h)
      let blockGas = 0n
      for (const c of b.cores) {
        txCount++
        blockGas += c.gasUsed
        fees += c.gasUsed * c.gasPrice
        sumGasPrice += c.gasPrice
        if (c.gasPrice > maxGasPrice) maxGasPrice = c.gasPrice
        for (const f of c.internals) if (f.type !== "CALL") deployers.add(f.from)
      }
      gasUsed += blockGas
      if (h > 0) {
        const dt = b.time - tl.time(h - 1)
        maxTps = Math.max(maxTps, b.cores.length / dt)
        maxGps = Math.max(maxGps, Number(blockGas) / dt)
      }
    }
    return { start, firstBlock: first, lastBlock: last, txCount, gasUsed, fees, sumGasPrice, maxGasPrice, maxTps, maxGps, deployers: [...deployers] }
  }
}
