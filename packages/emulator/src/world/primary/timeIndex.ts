/**
 * Events of a generator (a validation's issue, a wallet's tx…) sorted by time, as typed arrays:
 * which of them fall into a time window is then a binary search instead of a pass over every node
 * or wallet of the world. Blocks are built a window at a time, and there are as many windows as
 * blocks, so a pass per window made building a chain cost O(scale²): at scale 282 the P-chain's
 * 73k blocks each scanned 8k nodes.
 *
 * An index covers the events timed before its horizon; a window reaching past it is answered by the
 * generator's own scan (the caller's fallback). Each event carries three small integers (what it
 * is and its coordinates), from which the generator rebuilds it.
 */

/**
 * How far past the world's anchor the generators' indexes reach (the staking schedule's and the
 * wallet streams'); later windows (a clock moved far ahead) are scanned.
 */
export const INDEX_HORIZON = 60 * 86_400

/** Times are packed with their event's position into one float64: 26 bits of seconds, 27 of position. */
const POSITION_BITS = 2 ** 27
const SPAN_LIMIT = 2 ** 26

export class TimeIndexBuilder {
  private readonly times: number[] = []
  private readonly as: number[] = []
  private readonly bs: number[] = []
  private readonly cs: number[] = []

  constructor(readonly horizon: number) {}

  /** Records an event timed at t (kept only when t is before the horizon). */
  add(t: number, a: number, b: number, c: number): void {
    if (t >= this.horizon) return
    this.times.push(t)
    this.as.push(a)
    this.bs.push(b)
    this.cs.push(c)
  }

  /** The sorted index, or undefined when its events do not fit the packing (the caller keeps scanning). */
  build(): TimeIndex | undefined {
    const n = this.times.length
    let t0 = Number.POSITIVE_INFINITY
    for (const t of this.times) if (t < t0) t0 = t
    if (n === 0) return new TimeIndex(this.horizon, new Float64Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(0))
    if (n >= POSITION_BITS || this.horizon - t0 >= SPAN_LIMIT) return undefined
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const dt = (this.times[i] as number) - t0
      if (!Number.isInteger(dt)) return undefined
      keys[i] = dt * POSITION_BITS + i
    }
    keys.sort()
    const times = new Float64Array(n)
    const a = new Int32Array(n)
    const b = new Int32Array(n)
    const c = new Int32Array(n)
    for (let r = 0; r < n; r++) {
      const key = keys[r] as number
      const i = key % POSITION_BITS
      times[r] = t0 + (key - i) / POSITION_BITS
      a[r] = this.as[i] as number
      b[r] = this.bs[i] as number
      c[r] = this.cs[i] as number
    }
    return new TimeIndex(this.horizon, times, a, b, c)
  }
}

/** How many of the sorted `times` are before t: the position of the first at or after it. */
export const lowerBound = (times: Float64Array, t: number): number => {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((times[mid] as number) < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

export class TimeIndex {
  constructor(
    /** Events timed at or after it are not indexed. */
    readonly horizon: number,
    private readonly times: Float64Array,
    private readonly a: Int32Array,
    private readonly b: Int32Array,
    private readonly c: Int32Array
  ) {}

  /** Whether every event of [from, to) is indexed. */
  covers(to: number): boolean {
    return to <= this.horizon
  }

  /** Calls f for each event timed in [from, to), in time order. */
  forEachIn(from: number, to: number, f: (a: number, b: number, c: number, t: number) => void): void {
    for (let r = lowerBound(this.times, from); r < this.times.length && (this.times[r] as number) < to; r++) {
      f(this.a[r] as number, this.b[r] as number, this.c[r] as number, this.times[r] as number)
    }
  }
}
