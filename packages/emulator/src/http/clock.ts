import type { Clock } from "./contract.ts"

/**
 * The network's clock: `now` stays where it was started (two runs see the same data) and moves
 * only by advance(). Page tokens age on real time plus advances, so a short TTL expires in a test
 * without sleeping a day, and advancing a day expires them too.
 */
export const createClock = (startNow: number, realMs: () => number = () => performance.now()): Clock => {
  const startedMs = realMs()
  let advancedSeconds = 0
  return {
    now: () => startNow + advancedSeconds,
    advance: (seconds: number) => {
      // whole seconds only: timestamps on every interface are integer Unix seconds
      if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`advance needs whole seconds >= 0, got ${seconds}`)
      advancedSeconds += seconds
    },
    tokenTimeMs: () => realMs() - startedMs + advancedSeconds * 1000
  }
}
