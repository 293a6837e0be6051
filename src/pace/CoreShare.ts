/**
 * The share of a core this process gets right now: a busy loop's CPU time over its wall time. A
 * crawl's JavaScript runs on one thread, so on a machine whose cores are taken by others its CPU
 * stretches over more wall time by this factor; the machine's load average does not say by how
 * much (a task counted in it may wait on I/O, or hold a core only now and then). One reading
 * swings with the others' bursts, so the median of a few, apart in time, is taken.
 */
import { Effect } from "effect"

/** How long one loop runs, ms: long enough for the scheduler's slices to average out. */
export const SPIN_MS = 150
/** Readings, and the pause between two. */
export const READINGS = 3
export const APART_MS = 100

/** One reading, 0..1 (at least 0.05: a loop that got almost nothing would make any estimate endless). */
export const coreShareNow = (spinMs = SPIN_MS): number => {
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  let spins = 0
  while (performance.now() - t0 < spinMs) spins += 1
  const wallMs = performance.now() - t0
  const cpu = process.cpuUsage(c0)
  const share = (cpu.user + cpu.system) / 1000 / wallMs
  return spins > 0 && Number.isFinite(share) ? Math.min(1, Math.max(0.05, share)) : 1
}

/** The median of READINGS readings APART_MS apart. */
export const coreShare: Effect.Effect<number> = Effect.map(
  Effect.forEach(Array.from({ length: READINGS }), (_, i) => Effect.zipRight(i === 0 ? Effect.void : Effect.sleep(APART_MS), Effect.sync(() => coreShareNow()))),
  (readings) => [...readings].sort((a, b) => a - b)[Math.floor(readings.length / 2)]!
)
