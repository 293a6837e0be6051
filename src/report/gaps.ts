/**
 * Gaps: where a listing has no data between the first and the last it has (pure, so tests feed
 * it days and heights). Days are UTC calendar days (`YYYY-MM-DD`); heights are block heights as
 * bigints, never JS numbers (a chain's heights pass 2^53 long before its amounts do, but exactness
 * is the rule either way).
 */
import type { Interval } from "../crawl/Windows.ts"

const DAY_SECONDS = 86_400
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days since 1970-01-01 of a `YYYY-MM-DD` day; throws on anything else (a bug upstream, not data). */
export const dayNumber = (day: string): number => {
  const m = ISO_DAY.exec(day)
  if (m === null) throw new Error(`not a YYYY-MM-DD day: ${JSON.stringify(day)}`)
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / (DAY_SECONDS * 1000)
}

export const isoDay = (n: number): string => new Date(n * DAY_SECONDS * 1000).toISOString().slice(0, 10)

/** A run of days, both ends included. */
export interface DayRange {
  readonly from: string
  readonly to: string
  readonly days: number
}

/**
 * The days strictly between the first and the last of `days` that are not among them, as runs of
 * consecutive days, oldest first. `days` may be in any order and repeat; fewer than two distinct
 * days have nothing between them.
 */
export const missingDays = (days: ReadonlyArray<string>): ReadonlyArray<DayRange> => {
  const present = [...new Set(days.map(dayNumber))].sort((a, b) => a - b)
  const gaps: DayRange[] = []
  for (let i = 1; i < present.length; i++) {
    const prev = present[i - 1]!
    const next = present[i]!
    if (next > prev + 1) gaps.push({ from: isoDay(prev + 1), to: isoDay(next - 1), days: next - prev - 1 })
  }
  return gaps
}

/** A run of heights, both ends included. */
export interface HeightRange {
  readonly from: bigint
  readonly to: bigint
}

/**
 * The heights missing between runs of present heights ("islands", as a gaps-and-islands query
 * returns them), with how many each gap holds. Islands may come in any order; overlapping or
 * touching ones leave no gap between them.
 */
export const missingHeights = (islands: ReadonlyArray<HeightRange>): ReadonlyArray<HeightRange & { readonly count: bigint }> => {
  const sorted = [...islands].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const gaps: Array<HeightRange & { readonly count: bigint }> = []
  let reach: bigint | undefined
  for (const island of sorted) {
    if (reach !== undefined && island.from > reach + 1n) gaps.push({ from: reach + 1n, to: island.from - 1n, count: island.from - reach - 1n })
    if (reach === undefined || island.to > reach) reach = island.to
  }
  return gaps
}

/** A run of missing days and whether a finished window of the listing covers each of them whole. */
export interface CoveredRange extends DayRange {
  /** True: a done window asked the service for these days and it listed nothing. False: no done window covers them. */
  readonly crawled: boolean
}

/** Merged, sorted spans of the windows (Unix seconds, half-open). */
const merge = (windows: ReadonlyArray<Interval>): ReadonlyArray<Interval> => {
  const sorted = [...windows].filter((w) => w.to > w.from).sort((a, b) => a.from - b.from)
  const merged: Interval[] = []
  for (const w of sorted) {
    const last = merged[merged.length - 1]
    if (last !== undefined && w.from <= last.to) merged[merged.length - 1] = { from: last.from, to: Math.max(last.to, w.to) }
    else merged.push(w)
  }
  return merged
}

/**
 * Splits runs of missing days where the windows' coverage changes: a day is crawled when the done
 * windows (each up to where its last run completed it) cover it from 00:00 to 24:00 UTC.
 */
export const byCoverage = (gaps: ReadonlyArray<DayRange>, doneWindows: ReadonlyArray<Interval>): ReadonlyArray<CoveredRange> => {
  const spans = merge(doneWindows)
  const covered = (day: number) => spans.some((s) => s.from <= day * DAY_SECONDS && (day + 1) * DAY_SECONDS <= s.to)
  const out: CoveredRange[] = []
  for (const gap of gaps) {
    let start = dayNumber(gap.from)
    const end = dayNumber(gap.to)
    let state = covered(start)
    for (let d = start + 1; d <= end + 1; d++) {
      const next = d <= end ? covered(d) : !state
      if (next !== state) {
        out.push({ from: isoDay(start), to: isoDay(d - 1), days: d - start, crawled: state })
        start = d
        state = next
      }
    }
  }
  return out
}
