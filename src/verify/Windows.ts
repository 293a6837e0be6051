/**
 * Windows: a windowed listing (Windows.ts) must have every window from where its history starts
 * (the job's `since`, or an earlier backfill's first window) to its newest one crawled, each done
 * without holes, and each window's files must hold the rows its checkpoint says were committed
 * (what the source sent and the crawl kept). A UTC day without rows is either covered by finished
 * windows (the service listed nothing that day: a note, no failure) or not crawled (a failure, named
 * with the window's). Pure.
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import { isComplete, openHoles } from "../crawl/Holes.ts"
import { isoSeconds } from "../Time.ts"
import type { Finding, Note } from "./Finding.ts"

export interface WindowFact {
  readonly from: number
  readonly to: number
  readonly state: CheckpointState
  /** Rows its files hold now (Parquet footers of its parts); undefined when a compacted file holds some of them. */
  readonly fileRows?: number
}

export interface ListingWindows {
  readonly dataset: string
  readonly listing: Readonly<Record<string, string>>
  /** Where the nightly run starts (the job's incremental.<dataset>.since, or the pipeline's). */
  readonly since: number
  readonly windows: ReadonlyArray<WindowFact>
  /** The UTC days (YYYY-MM-DD) the listing has rows on; undefined when its rows name no day. */
  readonly days?: ReadonlySet<string>
  /** Whether the dataset replaces its slices' rows (their checkpoints count every version): no row check. */
  readonly replacing?: boolean
}

const DAY = 86_400

/** A CLI instant: the date alone at midnight. */
export const instantText = (t: number): string => (t % DAY === 0 ? isoSeconds(t).slice(0, 10) : isoSeconds(t))

/** A window size as `--window` takes it: 1d, 6h, 30m, 45s. */
export const durationText = (seconds: number): string =>
  seconds % DAY === 0 ? `${seconds / DAY}d` : seconds % 3600 === 0 ? `${seconds / 3600}h` : seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`

const span = (from: number, to: number) => `[${isoSeconds(from)}, ${isoSeconds(to)})`

const daysIn = (from: number, to: number): ReadonlyArray<string> => {
  const out: string[] = []
  for (let d = Math.floor(from / DAY) * DAY; d < to; d += DAY) out.push(isoSeconds(d).slice(0, 10))
  return out
}

const SHOWN = 5
const listOf = (items: ReadonlyArray<string>) => `${items.slice(0, SHOWN).join(", ")}${items.length > SHOWN ? `, … (${items.length - SHOWN} more)` : ""}`

export const windowFindings = (l: ListingWindows): { readonly findings: ReadonlyArray<Finding>; readonly notes: ReadonlyArray<Note> } => {
  const windows = [...l.windows].sort((a, b) => a.from - b.from)
  const findings: Finding[] = []
  const notes: Note[] = []
  const base = { dataset: l.dataset, listing: l.listing }
  if (windows.length === 0) return { findings, notes }
  const emptyDays = (from: number, to: number) => (l.days === undefined ? [] : daysIn(from, to).filter((d) => !l.days!.has(d)))
  const missing = (from: number, to: number) => {
    const days = emptyDays(from, to)
    return days.length === 0 ? "" : `; days without rows: ${listOf(days)}`
  }
  // the parts of the range no window claims: never crawled
  let reach = Math.min(l.since, windows[0]!.from)
  for (const w of [...windows, undefined]) {
    const next = w?.from ?? reach
    if (next > reach) {
      findings.push({
        ...base,
        check: "windows",
        what: `${span(reach, next)} was never crawled (no window covers it)${missing(reach, next)}`,
        repair: { kind: "backfill", dataset: l.dataset, from: instantText(reach), to: instantText(next) }
      })
    }
    if (w !== undefined) reach = Math.max(reach, w.to)
  }
  const quiet: string[] = []
  for (const w of windows) {
    const whole = { kind: "backfill" as const, dataset: l.dataset, from: instantText(w.from), to: instantText(w.to), window: durationText(w.to - w.from) }
    if (!isComplete(w.state)) {
      const holes = openHoles(w.state)
      const why =
        w.state.status !== "done"
          ? `is ${w.state.status}${w.state.error === null ? "" : ` (${w.state.error})`}`
          : `was done with ${holes === undefined ? "an unknown number of" : holes} hole(s) (rejected records not written since)`
      findings.push({ ...base, check: "windows", what: `window ${span(w.from, w.to)} ${why}${missing(w.from, w.to)}`, repair: { kind: "backfill", dataset: l.dataset, from: whole.from, to: whole.to } })
      continue
    }
    if (l.replacing !== true && w.fileRows !== undefined && w.fileRows !== w.state.rowsCommitted) {
      findings.push({
        ...base,
        check: "windows",
        what: `window ${span(w.from, w.to)} holds ${w.fileRows} row(s) in its files, its checkpoint says ${w.state.rowsCommitted} were committed (slice ${w.state.slice})`,
        repair: { ...whole, refetch: true }
      })
    }
    quiet.push(...emptyDays(Math.max(w.from, Math.ceil(w.from / DAY) * DAY), w.to).filter((d) => Date.parse(`${d}T00:00:00Z`) / 1000 + DAY <= w.to))
  }
  // one note per listing, however many windows
  if (quiet.length > 0) notes.push({ ...base, what: `crawled, no rows: ${listOf(quiet)} (a finished window covers them: the service listed nothing those days)` })
  return { findings, notes }
}
