/**
 * What a `backfill --refetch` of a time range must take whole. A window is crawled whole or not at
 * all (its checkpoint counts its rows), and a compacted file holds the rows of many windows with no
 * column saying which: its rows cannot be taken apart by window (a listing's rows are not cut by
 * their own times alone: a window's query decides what it holds). So the range grows, window by
 * window and compacted file by compacted file, until every window it meets lies inside it and every
 * compacted file holding a part of one of them holds only windows inside it too. Rewriting the
 * compacted file without the refetched window's rows was the other way; it would need the slice of
 * each row, which Parquet rows do not carry, so re-crawling the windows the file holds is the one
 * that gives back exactly an untouched run's rows. `chainetl verify` prints the widened range
 * (Widen.ts), and the refetch refuses a narrower one naming it. `refetchScope` is pure; the two
 * readers below give it the windows (from the checkpoints) and the compacted files (manifests).
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { windowOf } from "../crawl/Windows.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import { tableFiles } from "./Files.ts"

export interface WindowOfSlice {
  readonly slice: string
  readonly from: number
  readonly to: number
}

/** A compacted file and the slices whose parts it holds. */
export interface HeldTogether {
  readonly table: string
  /** Below the table's folder, `/`-separated, as its manifest names it. */
  readonly file: string
  readonly slices: ReadonlySet<string>
}

export interface RefetchScope {
  readonly from: number
  readonly to: number
  /** The windows inside [from, to), ascending. */
  readonly windows: ReadonlyArray<WindowOfSlice>
  /** The compacted files holding a part of one of them: each holds only these windows' rows. */
  readonly files: ReadonlyArray<HeldTogether>
}

/** The smallest range holding [from, to) that cuts no window and no compacted file. */
export const refetchScope = (range: { readonly from: number; readonly to: number }, windows: ReadonlyArray<WindowOfSlice>, compacted: ReadonlyArray<HeldTogether>): RefetchScope => {
  const bySlice = new Map(windows.map((w) => [w.slice, w]))
  let { from, to } = range
  for (;;) {
    const inside = windows.filter((w) => w.from < to && w.to > from)
    const names = new Set(inside.map((w) => w.slice))
    const files = compacted.filter((f) => [...f.slices].some((s) => names.has(s)))
    // the windows of every slice those files hold (a slice without a checkpoint names no window)
    const reached = [...inside, ...files.flatMap((f) => [...f.slices].flatMap((s) => bySlice.get(s) ?? []))]
    const lo = Math.min(from, ...reached.map((w) => w.from))
    const hi = Math.max(to, ...reached.map((w) => w.to))
    if (lo === from && hi === to) return { from, to, windows: inside.sort((a, b) => a.from - b.from || a.slice.localeCompare(b.slice)), files }
    from = lo
    to = hi
  }
}

/**
 * The height range a refetch of [from, to) takes: it grows until it cuts no file (a file's rows
 * are removed whole, compacted or not), given each file's lowest and highest height.
 */
export const heightScope = (range: { readonly from: bigint; readonly to: bigint }, spans: ReadonlyArray<readonly [bigint, bigint]>): { readonly from: bigint; readonly to: bigint } => {
  let { from, to } = range
  for (;;) {
    const meets = spans.filter(([lo, hi]) => hi >= from && lo < to)
    const lo = meets.reduce((m, [l]) => (l < m ? l : m), from)
    const hi = meets.reduce((m, [, h]) => (h + 1n > m ? h + 1n : m), to)
    if (lo === from && hi === to) return { from, to }
    from = lo
    to = hi
  }
}

/** The one size of all these windows, or undefined when they differ (or there are none). */
export const commonSize = (windows: ReadonlyArray<WindowOfSlice>): number | undefined => {
  const sizes = new Set(windows.map((w) => w.to - w.from))
  return sizes.size === 1 ? [...sizes][0] : undefined
}

/** The windows of these checkpoints (of one dataset), by slice. */
export const windowsOf = (states: ReadonlyArray<CheckpointState>): ReadonlyArray<WindowOfSlice> =>
  states.flatMap((s) => {
    const w = windowOf(s.params)
    return w === undefined ? [] : [{ slice: s.slice, ...w }]
  })

/** The dataset's tables: its own, its children's, and `_rejects` (whose files carry their owner). */
export const tablesOf = (d: Pick<AnyDataset, "name" | "children">): ReadonlyArray<string> => [d.name, ...(d.children ?? []).map((c) => c.name), rejectsDataset.name]

/** The compacted files of the dataset's tables with the slices each holds, and the tables' files. */
export const compactedOf = async (out: string, d: Pick<AnyDataset, "name" | "children">) => {
  const files = await Promise.all(tablesOf(d).map((t) => tableFiles(out, t, t === rejectsDataset.name ? undefined : d.name)))
  const compacted = files.flatMap((t) => t.compacted.filter((c) => c.owner === d.name).map((c): HeldTogether => ({ table: t.table, file: c.rel.slice(t.table.length + 1), slices: c.slices })))
  return { compacted, files }
}
