/**
 * Counting a key's requests at the service, per window. A token bucket of `burst` tokens refilled
 * at `rate`/s lets at most burst + rate·W requests leave in any window of W seconds (the bucket
 * full at its start, refilled throughout). The service sees them after a delay that varies by
 * up to `jitterMs` (loopback, event loops of two busy processes), which can squeeze requests
 * sent W + jitter apart into one window at the service: the bound counted there is
 * burst + rate·(W + jitter), rounded down (a count is whole).
 */

/** The most arrivals (ms) in any closed window of `windowMs` starting at an arrival. */
export const busiestWindow = (arrivalsMs: ReadonlyArray<number>, windowMs: number): number => {
  const sorted = [...arrivalsMs].sort((a, b) => a - b)
  let most = 0
  let end = 0
  for (let start = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! <= sorted[start]! + windowMs) end++
    most = Math.max(most, end - start)
  }
  return most
}

export const bucketBound = (budget: { readonly rate: number; readonly burst: number }, windowMs: number, jitterMs: number): number =>
  Math.floor(budget.burst + (budget.rate * (windowMs + jitterMs)) / 1000)
