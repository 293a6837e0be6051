/**
 * Height ↔ time of one chain, as pure arithmetic (no stored blocks).
 *
 * History has `history` blocks before the anchor (the network's "now" when the world was built),
 * spaced quadratically: dense near the anchor, a few days apart a year back. That keeps scale 1
 * small while still covering long staking periods that have completed. After the anchor, blocks
 * come every `interval` seconds forever, so advancing the clock reveals new ones.
 */
export interface TimelineSpec {
  /** Unix seconds of the last history block (height = history). */
  readonly anchor: number
  /** Number of blocks before the anchor block; genesis is height 0. */
  readonly history: number
  /** Seconds between the genesis block and the anchor block, beyond the linear part. */
  readonly spanSeconds: number
  /** Seconds between consecutive blocks near and after the anchor (integer ≥ 1). */
  readonly interval: number
}

export class Timeline {
  constructor(readonly spec: TimelineSpec) {}

  /** Block timestamp of `height` (non-decreasing in height). */
  time(height: number): number {
    const { anchor, history, spanSeconds, interval } = this.spec
    if (height >= history) return anchor + (height - history) * interval
    const k = history - height
    const ratio = k / history
    return anchor - Math.ceil(spanSeconds * ratio * ratio + interval * k)
  }

  /** Timestamp of the genesis block. */
  get genesisTime(): number {
    return this.time(0)
  }

  /** The highest height whose timestamp is ≤ t, or -1 when t is before genesis. */
  heightAt(t: number): number {
    const { anchor, history, interval } = this.spec
    if (t >= anchor) return history + Math.floor((t - anchor) / interval)
    if (t < this.time(0)) return -1
    // time() is non-decreasing on [0, history]: binary search for the last height ≤ t
    let lo = 0
    let hi = history
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      if (this.time(mid) <= t) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** [from, to) time window a block owns: events timed inside it are included in that block. */
  window(height: number): readonly [number, number] {
    return [this.time(height), this.time(height + 1)]
  }
}
