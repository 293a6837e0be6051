/**
 * Time windows: how a listing ordered by block time is cut into slices, for the nightly run and
 * for backfills alike.
 *
 * A window is a half-open interval [from, to) of Unix seconds and one slice, so it has its own
 * checkpoint. The plan is computed from the checkpoints already on disk (interval merging):
 *  - a window that exists is planned again with the same bounds (same id) until it is final, i.e.
 *    completed by a run whose as-of was at least `lookback` past its end — so a failed or
 *    half-done window resumes, and the head window is topped up night after night;
 *  - the parts of the asked range that no window claims yet are cut on a grid of `window` seconds
 *    (aligned on the epoch, so 1d windows are UTC days) and become new windows.
 * Windows therefore never overlap, whoever planned them: a backfill and the nightly run share the
 * same checkpoints and cannot fetch a block twice or move each other's marks.
 *
 * A finished window that is planned again lists only from its last completion minus the
 * lookback (`fetchFrom`): the service may index late, and the crawler skips the keys it already
 * has, so the rerun adds what is new and duplicates nothing. A window whose records were rejected
 * is never final (Holes.ts): it is listed whole again each run until every record is written.
 */
import type { Effect } from "effect"
import type { SourceError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import type { RestClient } from "../source/RestClient.ts"
import { isoSeconds as iso, parseDuration, parseInstant } from "../Time.ts"
import { type CheckpointState, completedBy } from "./Checkpoint.ts"
import { isComplete, openHoles } from "./Holes.ts"
import type { SliceContext } from "./Dataset.ts"
import { makeSlice, type Slice } from "./Slice.ts"

export interface Interval {
  readonly from: number
  readonly to: number
}

export interface WindowSettings {
  /** Seconds per new window. */
  readonly window: number
  /** Seconds before a window's end (and before its last completion) still refetched. */
  readonly lookback: number
  /** Where the nightly range starts (Unix seconds): history before it is a backfill's. */
  readonly since: number
}

/** What a windowed dataset declares: its listings and its default settings. */
export interface WindowSpec {
  /** The listings the windows cut, one params object each (e.g. network × blockchain). */
  readonly bases: (job: Job) => ReadonlyArray<Readonly<Record<string, string>>>
  readonly defaults: WindowSettings
  /** The service's newest time on a listing (`chainetl status --live` measures the lag to it). */
  readonly latest?: (base: Readonly<Record<string, string>>) => Effect.Effect<number | undefined, SourceError, RestClient>
}

export const FROM = "from"
export const TO = "to"


/** The pipeline's defaults with the job's `incremental.<dataset>` on top (validated by checkIncremental). */
export const settingsOf = (dataset: string, spec: WindowSpec, job: Job): WindowSettings => {
  const own = job.incremental[dataset] ?? {}
  return {
    window: (own.window === undefined ? undefined : parseDuration(own.window)) ?? spec.defaults.window,
    lookback: (own.lookback === undefined ? undefined : parseDuration(own.lookback)) ?? spec.defaults.lookback,
    since: (own.since === undefined ? undefined : parseInstant(own.since)) ?? spec.defaults.since
  }
}

/** The window of a slice's params, or undefined for params without one. */
export const windowOf = (params: Readonly<Record<string, string>>): Interval | undefined => {
  const from = params[FROM]
  const to = params[TO]
  if (from === undefined || to === undefined) return undefined
  const f = Date.parse(from) / 1000
  const t = Date.parse(to) / 1000
  return Number.isFinite(f) && Number.isFinite(t) ? { from: f, to: t } : undefined
}

/** The listing a window belongs to, as one text: its params but the window's ends. */
export const baseOf = (params: Readonly<Record<string, string>>): string =>
  JSON.stringify(
    Object.keys(params)
      .filter((k) => k !== FROM && k !== TO)
      .sort()
      .map((k) => [k, params[k]])
  )

/** Sorted, overlapping or touching intervals merged. */
export const mergeIntervals = (intervals: ReadonlyArray<Interval>): ReadonlyArray<Interval> => {
  const sorted = [...intervals].sort((a, b) => a.from - b.from)
  const out: Interval[] = []
  for (const i of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && i.from <= last.to) out[out.length - 1] = { from: last.from, to: Math.max(last.to, i.to) }
    else out.push(i)
  }
  return out
}

/** `range` minus `claimed` (claimed merged first). */
export const gaps = (range: Interval, claimed: ReadonlyArray<Interval>): ReadonlyArray<Interval> => {
  const out: Interval[] = []
  let at = range.from
  for (const c of mergeIntervals(claimed)) {
    if (c.to <= at) continue
    if (c.from >= range.to) break
    if (c.from > at) out.push({ from: at, to: c.from })
    at = Math.max(at, c.to)
  }
  if (at < range.to) out.push({ from: at, to: range.to })
  return out
}

/**
 * A gap cut on the grid of `size`: whole cells inside it, clipped where the gap ends. `extendEnd`
 * lets the last cell run to its grid boundary (the nightly head window), unless the gap ends at a
 * claimed window.
 */
export const cut = (gap: Interval, size: number, extendEnd: boolean): ReadonlyArray<Interval> => {
  const out: Interval[] = []
  for (let from = gap.from; from < gap.to; ) {
    const cellEnd = (Math.floor(from / size) + 1) * size
    const to = cellEnd < gap.to || extendEnd ? cellEnd : gap.to
    out.push({ from, to })
    from = to
  }
  return out
}


export interface PlanInput {
  readonly dataset: string
  readonly bases: ReadonlyArray<Readonly<Record<string, string>>>
  readonly settings: WindowSettings
  /** This dataset's checkpoints. */
  readonly existing: ReadonlyArray<CheckpointState>
  /** Nightly: [since, asOf), its head window running to the grid. Backfill: exactly [from, to). */
  readonly range: Interval
  readonly extendEnd: boolean
}

/** The windows to crawl, per base: unfinished known windows first touched by the range, then new ones. */
export const planWindows = (input: PlanInput): ReadonlyArray<Slice> => {
  const { settings } = input
  const out: Slice[] = []
  for (const base of input.bases) {
    const key = baseOf(base)
    const known = input.existing.flatMap((state) => {
      const window = baseOf(state.params) === key ? windowOf(state.params) : undefined
      return window === undefined ? [] : [{ state, window }]
    })
    const windows: Array<{ window: Interval; state?: CheckpointState }> = known.filter(
      ({ window }) => window.from < input.range.to && window.to > input.range.from
    )
    for (const gap of gaps(input.range, known.map((k) => k.window))) {
      // the head may only run past the range to the grid if no known window starts in between
      const nextKnown = known.map((k) => k.window.from).filter((f) => f >= gap.to).sort((a, b) => a - b)[0]
      const cells = cut(gap, settings.window, input.extendEnd && nextKnown === undefined)
      for (const window of cells) windows.push({ window })
    }
    windows.sort((a, b) => a.window.from - b.window.from)
    for (const { window, state } of windows) {
      // the crawler's own rule: done without holes by a run at or past the window's finalAfter
      const finalAfter = window.to + settings.lookback
      if (state !== undefined && isComplete(state) && completedBy(state, finalAfter)) continue
      const params = { ...base, [FROM]: iso(window.from), [TO]: iso(window.to) }
      const slice = makeSlice(input.dataset, params, finalAfter)
      // a window completed before is topped up from that completion minus the lookback, unless
      // its last pass left holes: a rejected record may be anywhere in it, so it is listed whole.
      // Both bounds move only when the window completes again, so a resumed page token keeps its query
      const completed = state?.completedAsOf ?? null
      const holes = state === undefined ? 0 : openHoles(state)
      // (a window can be final by time yet not done: completed, then failed on a later commit)
      const fetchFrom = completed === null || holes !== 0 ? window.from : Math.min(window.to, Math.max(window.from, completed - settings.lookback))
      out.push({ ...slice, fetchFrom })
    }
  }
  return out
}

/**
 * A windowed dataset's `slices`: the nightly range [since, as-of) with its head window running
 * to the grid, or exactly the backfill's [from, to) cut into its --window.
 */
export const windowSlices =
  (dataset: string, spec: WindowSpec) =>
  (job: Job, ctx: SliceContext): ReadonlyArray<Slice> => {
    const settings = settingsOf(dataset, spec, job)
    // a height range is not this dataset's to take (the CLI refuses the mix before)
    if (ctx.backfill?.unit === "height") return []
    const backfill = ctx.backfill
    return planWindows({
      dataset,
      bases: spec.bases(job),
      settings: backfill?.window === undefined ? settings : { ...settings, window: backfill.window },
      existing: ctx.checkpoints ?? [],
      range: backfill === undefined ? { from: settings.since, to: ctx.asOf } : { from: backfill.from, to: backfill.to },
      extendEnd: backfill === undefined
    })
  }
