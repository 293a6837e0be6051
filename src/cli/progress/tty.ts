/**
 * Progress as a live view on a terminal: a block listing the slices being fetched and an overall
 * line, redrawn in place. Finished slices leave the block; failed ones leave a permanent line
 * above it so the error stays readable after the block moves on.
 *
 * Time comes from the events' `at`, never the clock, so a scripted sequence of events always
 * draws the same text.
 */
import type { ProgressEvent } from "../../crawl/Progress.ts"
import { duration, oneLine, shorten } from "./format.ts"

export interface TtyOptions {
  /** Least event time between two redraws; a terminal cannot show faster changes usefully. */
  readonly intervalMs?: number
  /** Most active slices listed; the rest get one summary line so the block fits on screen. */
  readonly maxSlices?: number
  /** The terminal's width now. Lines are cut to it: a wrapped line would break the cursor-up count. */
  readonly columns?: () => number | undefined
  /**
   * Runs `redraw` after `ms` of real time. Without it a change that arrives inside the throttle
   * window shows only with the next event, which on a slow source can be seconds later.
   */
  readonly schedule?: (redraw: () => void, ms: number) => void
}

interface Active {
  readonly dataset: string
  readonly slice: string
  readonly startedAt: number
  pages: number
  rows: number
}

const UP_AND_CLEAR = "\x1b[1A\x1b[2K"
const num = (n: number): string => n.toLocaleString("en-US")

export const ttyReporter = (write: (text: string) => void, options: TtyOptions = {}) => {
  const interval = options.intervalMs ?? 250
  const maxSlices = options.maxSlices ?? 10
  const active = new Map<string, Active>()
  let total: number | undefined
  let runStart: number | undefined
  let now = 0
  let finished = 0
  // Skipped slices finish instantly; counting them in the rate would make the ETA far too short.
  let ranFinished = 0
  let failed = 0
  let finishedRows = 0
  let drawn = 0
  let lastDraw: number | undefined
  let dirty = false
  let timerSet = false
  let closed = false

  const block = (): Array<string> => {
    const shown = [...active.values()].slice(0, maxSlices)
    const rows = shown.map((s) => {
      const secs = (now - s.startedAt) / 1000
      const rate = secs > 0 ? `${num(Math.round(s.rows / secs))} rows/s` : "– rows/s"
      return [s.dataset, shorten(s.slice), `${num(s.pages)} pages`, `${num(s.rows)} rows`, rate]
    })
    const widths = [0, 1, 2, 3, 4].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)))
    const lines = rows.map((r) =>
      `  ${r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")}`.trimEnd()
    )
    if (active.size > shown.length) lines.push(`  … and ${active.size - shown.length} more slices`)
    const elapsed = now - (runStart ?? now)
    const rowsNow = finishedRows + [...active.values()].reduce((sum, s) => sum + s.rows, 0)
    const remaining = total === undefined ? undefined : Math.max(0, total - finished)
    const eta =
      remaining !== undefined && ranFinished > 0 ? `  ETA ${duration((elapsed / ranFinished) * remaining)}` : ""
    const count = total === undefined ? `${finished} slices finished` : `${finished}/${total} slices`
    lines.push(`${count}  ${failed} failed  ${num(rowsNow)} rows  elapsed ${duration(elapsed)}${eta}`)
    return lines
  }

  const fit = (line: string): string => {
    const columns = options.columns?.()
    return columns !== undefined && columns > 1 && line.length >= columns ? line.slice(0, columns - 1) : line
  }

  /** Erases the block, writes `above` where it was, and draws the block again below, in one write. */
  const draw = (above = ""): void => {
    const lines = closed ? [] : block().map(fit)
    const erase = drawn > 0 ? `\r${UP_AND_CLEAR.repeat(drawn)}` : ""
    write(erase + above + lines.map((l) => `${l}\n`).join(""))
    drawn = lines.length
    lastDraw = now
    dirty = false
  }

  const drawSoon = (): void => {
    dirty = true
    if (lastDraw === undefined || now - lastDraw >= interval) return draw()
    if (options.schedule !== undefined && !timerSet) {
      timerSet = true
      options.schedule(() => {
        timerSet = false
        if (dirty && !closed) draw()
      }, interval - (now - lastDraw))
    }
  }

  return (event: ProgressEvent): void => {
    if (closed) return
    // Events come from concurrent fibers and may be stamped slightly out of order.
    now = Math.max(now, event.at)
    runStart ??= event.at
    switch (event.type) {
      case "run_started":
        total = event.slices
        runStart = event.at
        return drawSoon()
      case "slice_started":
        active.set(`${event.dataset}\u0000${event.slice}`, {
          dataset: event.dataset,
          slice: event.slice,
          startedAt: event.at,
          pages: 0,
          rows: 0
        })
        return drawSoon()
      case "page": {
        const s = active.get(`${event.dataset}\u0000${event.slice}`)
        if (s !== undefined) {
          s.pages = event.pages
          s.rows = event.rows
        }
        return drawSoon()
      }
      case "part_committed":
        return
      case "slice_finished": {
        active.delete(`${event.dataset}\u0000${event.slice}`)
        finished += 1
        if (event.status !== "skipped") ranFinished += 1
        finishedRows += event.rows
        if (event.status !== "failed") return drawSoon()
        failed += 1
        const error = event.error !== undefined ? oneLine(event.error) : "no error message"
        return draw(
          `FAILED ${event.dataset} ${shorten(event.slice)} after ${num(event.pages)} pages ${num(event.rows)} rows: ${error}\n`
        )
      }
      case "run_finished":
        closed = true
        return draw()
    }
  }
}
