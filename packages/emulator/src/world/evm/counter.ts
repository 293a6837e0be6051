/**
 * Sparse event flags with O(1) prefix counts, the trick that lets the world answer "how many
 * births / contract creations / transfers happened up to transaction x" without walking history.
 *
 * count(x) = floor(p·(256x + U(x)) / (256q)) with U(x) a hash in [0, 255]. Consecutive arguments
 * differ by p·(256 + U(x) − U(x−1)) ∈ [p, 511p] ⊆ (0, 256q] while p/q ≤ 256/511, so count rises by
 * 0 or 1 per step: flag(x) = count(x) − count(x−1), the rate is p/q, and the positions jitter.
 * All arithmetic stays in exact integers below 2^53 (x < 2^37).
 */
import { h32 } from "./hash.ts"

const exactFloorDiv = (a: number, b: number): number => {
  let f = Math.floor(a / b)
  // the float quotient can round across an integer when a is large; fix it with exact products
  if (f * b > a) f--
  else if ((f + 1) * b <= a) f++
  return f
}

export class FlagCounter {
  private readonly den: number
  constructor(
    private readonly salt: number,
    readonly p: number,
    readonly q: number
  ) {
    if (!(p >= 1 && p * 511 <= q * 256 && p <= 64)) throw new RangeError(`flag rate ${p}/${q} out of range`)
    this.den = 256 * q
  }

  /** Flags in [0, x]; 0 for x < 0. */
  count(x: number): number {
    if (x < 0) return 0
    if (x === 0) return 0
    return exactFloorDiv(this.p * (256 * x + (h32(this.salt, x) & 255)), this.den)
  }

  isFlag(x: number): boolean {
    return x >= 1 && this.count(x) !== this.count(x - 1)
  }

  /** Position of the j-th flag (0-based). */
  nth(j: number): number {
    // count(x) ≥ floor(p·x/q) and ≤ floor(p·(x+1)/q): the answer lies within a few steps of (j+1)q/p
    let lo = Math.max(1, Math.floor(((j + 1) * this.q) / this.p) - 2)
    let hi = Math.ceil(((j + 1) * this.q) / this.p) + 2
    while (this.count(lo - 1) >= j + 1) lo = Math.max(1, lo - this.q)
    while (this.count(hi) < j + 1) hi += this.q
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if (this.count(mid) >= j + 1) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  /** Position of the j-th position without a flag (0-based). */
  nthNon(j: number): number {
    // non-flags in [0, y] = y + 1 − count(y), non-decreasing in y
    const rate = 1 - this.p / this.q
    let lo = Math.max(0, Math.floor(j / rate) - 4)
    let hi = Math.ceil((j + 1) / rate) + 4
    while (lo > 0 && lo - this.count(lo - 1) >= j + 1) lo = Math.max(0, lo - 16)
    while (hi + 1 - this.count(hi) < j + 1) hi += 16
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if (mid + 1 - this.count(mid) >= j + 1) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}
