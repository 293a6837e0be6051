/**
 * The share of a core this process gets right now: a busy loop's CPU time over its wall time. A
 * crawl's JavaScript runs on one thread, so on a machine whose cores are taken by others its CPU
 * stretches over more wall time by this factor; the machine's load average does not say by how
 * much (a task counted in it may wait on I/O, or hold a core only now and then).
 */

/** How long the loop runs, ms: long enough for the scheduler's slices to average out. */
export const SPIN_MS = 300

/** 0..1 (at least 0.05: a loop that got almost nothing would make any estimate endless). */
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
