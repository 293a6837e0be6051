/**
 * When blocks happen: block h is at genesis + h·gap + jitter(h) with jitter in [0, gap−1], so
 * timestamps strictly increase (gap between blocks ≥ 1 s, which rule 7's per-block rates divide
 * by) and both directions are O(1): height → time and time → latest height.
 */
import { intIn } from "./hash.ts"

export class Timeline {
  constructor(
    private readonly salt: number,
    readonly genesisTime: number,
    /** Mean seconds between blocks, an integer ≥ 2. */
    readonly gap: number
  ) {}

  time(h: number): number {
    return this.genesisTime + h * this.gap + (h === 0 ? 0 : intIn(this.salt, 0, this.gap - 1, h))
  }

  /** Highest height whose timestamp is ≤ t, or −1 before genesis. */
  latestAt(t: number): number {
    if (t < this.genesisTime) return -1
    const h0 = Math.floor((t - this.genesisTime) / this.gap)
    // time(h0) ≥ genesis + h0·gap ≤ t… but jitter may push it past t; time(h0 − 1) < genesis + h0·gap ≤ t
    return this.time(h0) <= t ? h0 : h0 - 1
  }

  /** Lowest height whose timestamp is ≥ t. */
  firstAtOrAfter(t: number): number {
    return this.latestAt(t - 1) + 1
  }
}
