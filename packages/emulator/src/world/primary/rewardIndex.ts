/**
 * The staking schedule's RewardValidatorTxs in chain order. Since Banff each of them is the one tx
 * of a BanffProposalBlock, followed by its commit block (vms/platformvm/block/proposal_block.go),
 * so the P-chain's height of anything depends on how many rewards came before it: pLayout.ts asks
 * this index "how many before t" and "which is the r-th".
 *
 * Order: by time, then as avalanchego removes current stakers whose end time is reached —
 * delegators before their validator (lower priority first), then node and period. It covers the
 * rewards timed before its horizon and is rebuilt further when asked past it (a clock moved ahead).
 */

import { lowerBound } from "./timeIndex.ts"

/** A reward of the schedule: node i's period j, for delegation k (VALIDATION for the validation itself). */
export interface RewardRef {
  readonly i: number
  readonly j: number
  readonly k: number
}

export const VALIDATION = 255

/** The schedule's stakers ending before a horizon, as (end, i, j, k); k = VALIDATION for a validation. */
export type RewardSource = (horizon: number) => Iterable<readonly [end: number, i: number, j: number, k: number]>

/** How far past the time asked for a rebuild reaches, so a clock moving on rebuilds rarely. */
const REACH = 400 * 86_400

export class RewardIndex {
  private times = new Float64Array(0)
  private refs = new Int32Array(0)
  private horizon = Number.NEGATIVE_INFINITY

  constructor(private readonly source: RewardSource) {}

  private cover(t: number): void {
    if (t < this.horizon) return
    const horizon = Math.max(t, 0) + REACH
    const events = [...this.source(horizon)].filter(([end]) => end < horizon)
    events.sort((x, y) => x[0] - y[0] || (x[3] === y[3] ? 0 : x[3] === VALIDATION ? 1 : y[3] === VALIDATION ? -1 : 0) || x[1] - y[1] || x[2] - y[2] || x[3] - y[3])
    this.times = Float64Array.from(events, (e) => e[0])
    this.refs = new Int32Array(events.length * 3)
    events.forEach(([, i, j, k], n) => this.refs.set([i, j, k], n * 3))
    this.horizon = horizon
  }

  /** How many rewards are timed before t (strictly). */
  countBefore(t: number): number {
    this.cover(t)
    return lowerBound(this.times, t)
  }

  /** How many rewards are timed at or before t. */
  countThrough(t: number): number {
    return this.countBefore(t + 1)
  }

  /** The r-th reward (0-based) and its time; r must be below countBefore of a time after it. */
  at(r: number): { readonly time: number; readonly ref: RewardRef } {
    if (!(Number.isInteger(r) && r >= 0 && r < this.times.length)) throw new RangeError(`no reward ${r} (${this.times.length} indexed)`)
    return { time: this.times[r] as number, ref: { i: this.refs[r * 3] as number, j: this.refs[r * 3 + 1] as number, k: this.refs[r * 3 + 2] as number } }
  }

  /** The position of a reward timed at `time` in chain order. */
  indexOf(time: number, ref: RewardRef): number {
    for (let r = this.countBefore(time); r < this.times.length && this.times[r] === time; r++) {
      if (this.refs[r * 3] === ref.i && this.refs[r * 3 + 1] === ref.j && this.refs[r * 3 + 2] === ref.k) return r
    }
    throw new RangeError(`no reward of node ${ref.i} period ${ref.j} (${ref.k === VALIDATION ? "validation" : `delegation ${ref.k}`}) at ${time}`)
  }
}
