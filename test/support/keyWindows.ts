/**
 * Counting a key's requests at the service, per window. A token bucket of `burst` tokens refilled
 * at `rate`/s lets at most burst + rate·W requests leave in any window of W seconds (the bucket
 * full at its start, refilled throughout). The service sees them after a delay that varies by
 * up to `jitterMs` (loopback, event loops of two busy processes), which can squeeze requests
 * sent W + jitter apart into one window at the service: the bound counted there is
 * burst + rate·(W + jitter), rounded down (a count is whole).
 */
import { expect } from "vitest"

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

/**
 * The longest stall of this process's event loop while `measure` runs. The emulator of these
 * tests notes arrivals on this loop: a stall of S ms holds back the requests that reached it
 * meanwhile and notes them together, so a window at the service can hold requests sent S ms
 * further apart. The tests add it to their allowance (and say so when it is large).
 */
export const withLoopStalls = async <A>(measure: () => Promise<A>): Promise<{ readonly value: A; readonly stallMs: number }> => {
  const { monitorEventLoopDelay } = await import("node:perf_hooks")
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  try {
    const value = await measure()
    return { value, stallMs: histogram.max / 1e6 }
  } finally {
    histogram.disable()
  }
}

/**
 * Each key's arrivals at the service, in every window of each length, within its bucket's bound
 * (`bucketBound` with `jitterMs`); a failure names the key, the window and `note` (the loop stall).
 */
export const expectWithinBudgets = (
  keys: Readonly<Record<string, { readonly arrivals: ReadonlyArray<number>; readonly budget: { readonly rate: number; readonly burst: number } }>>,
  windowsMs: ReadonlyArray<number>,
  jitterMs: number,
  note = ""
): void => {
  for (const windowMs of windowsMs) {
    for (const [name, { arrivals, budget }] of Object.entries(keys)) {
      expect(busiestWindow(arrivals, windowMs), `${name} in ${windowMs} ms${note}`).toBeLessThanOrEqual(bucketBound(budget, windowMs, jitterMs))
    }
  }
}
