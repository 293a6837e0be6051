/** Small formatting helpers shared by the progress reporters. */

/** Slice names are long param paths; 48 characters keeps a line readable (same as `status`). */
export const shorten = (text: string, max = 48): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/** UTC to the second: log lines are compared across hosts, milliseconds are noise. */
export const timestamp = (at: number): string => `${new Date(at).toISOString().slice(0, 19)}Z`

/** Tenths of a second for slice durations in log lines, which are greppable and summed by scripts. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`

/** Human duration for elapsed and ETA: precise when short, coarse when long. */
export const duration = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`
}

/** A log line must stay one line even when an error message spans several. */
export const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " | ").trim()
