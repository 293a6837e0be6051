/**
 * Token buckets on real time, one per (host, key or anonymous). A bucket holds `burst` tokens
 * (default: one second's worth), refills at its rate, and a request that finds it empty learns how
 * many whole seconds until a token is back (Retry-After, at least 1).
 */
export interface RateLimiter {
  /** 0 when the request may go ahead, else the Retry-After in seconds. */
  take(bucket: string, perSecond: number, burst?: number): number
}

interface Bucket {
  tokens: number
  atMs: number
  readonly perSecond: number
  readonly capacity: number
}

const refill = (b: Bucket, t: number): number => Math.min(b.capacity, b.tokens + ((t - b.atMs) / 1000) * b.perSecond)

/** Buckets idle long enough to be full again are dropped past this many, keeping memory flat. */
const SWEEP_ABOVE = 10_000

export const createRateLimiter = (nowMs: () => number = () => performance.now()): RateLimiter => {
  const buckets = new Map<string, Bucket>()
  return {
    take(name, perSecond, burst) {
      if (perSecond <= 0) return 0
      const capacity = burst ?? perSecond
      const t = nowMs()
      const b = buckets.get(name) ?? { tokens: capacity, atMs: t, perSecond, capacity }
      b.tokens = refill(b, t)
      b.atMs = t
      buckets.set(name, b)
      if (buckets.size > SWEEP_ABOVE) {
        for (const [k, v] of buckets) if (k !== name && refill(v, t) >= v.capacity) buckets.delete(k)
      }
      if (b.tokens >= 1) {
        b.tokens -= 1
        return 0
      }
      return Math.max(1, Math.ceil((1 - b.tokens) / perSecond))
    }
  }
}
