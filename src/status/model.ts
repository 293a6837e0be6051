/**
 * What `chainetl status` says, computed from the checkpoints and run reports on disk (pure, so
 * tests feed it states): per windowed listing how far its history is complete (the watermark),
 * the windows still pending (failed, cut short or done with holes, nightly or backfill alike), and
 * per other dataset how its slices stand, their holes and the rows its view returns (live rows: a
 * replacing slice's earlier versions are gone from the view, so they are not counted); then the
 * last runs and every failed slice with its error. A hole (crawl/Holes.ts: a rejected record not
 * written since) keeps its window or slice from counting as complete.
 */
import type { CheckpointState } from "../crawl/Checkpoint.ts"
import { isComplete, openHoles } from "../crawl/Holes.ts"
import { FROM, TO, type Interval, windowOf } from "../crawl/Windows.ts"
import type { RunReport } from "../Runner.ts"

export interface ListingStatus {
  readonly dataset: string
  /** The listing's params without the window, e.g. {network, blockchain}. */
  readonly listing: Readonly<Record<string, string>>
  readonly windows: number
  readonly done: number
  /** Start of the oldest window on disk. */
  readonly since: number | null
  /**
   * Data is complete from `since` up to here (Unix seconds): the end of the run of windows done
   * without holes starting at `since`, or the as-of of the run that last completed its head window.
   */
  readonly watermark: number | null
  /** Rejected records not written since, over its windows; null when an older checkpoint did not count them. */
  readonly holes: number | null
  /** Windows failed, cut short or done with holes, oldest first. */
  readonly pending: ReadonlyArray<Interval & { readonly status: string; readonly holes: number | null; readonly error: string | null }>
  readonly lastRun: string | null
}

export interface DatasetStatus {
  readonly dataset: string
  readonly slices: number
  readonly done: number
  readonly failed: number
  readonly running: number
  /** Rejected records not written since, over its slices (a later run asks for them again); null when an older checkpoint did not count them. */
  readonly holes: number | null
  /** Rows its view returns now (null when the output could not be read): replaced versions are not counted. */
  readonly rows: number | null
  /** Rows its slices ever committed, every version of a replacing slice included. */
  readonly rowsWritten: number
  readonly lastRun: string | null
  readonly updatedAt: string | null
}

export interface RunLine {
  readonly runId: string
  readonly mode: string
  readonly status: string
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly slices: number
  readonly failed: number
  readonly rows: number
  readonly requests: number
  readonly rateLimited: number
  readonly waitMs: number
}

export interface Status {
  readonly listings: ReadonlyArray<ListingStatus>
  readonly datasets: ReadonlyArray<DatasetStatus>
  readonly runs: ReadonlyArray<RunLine>
  readonly failures: ReadonlyArray<{ readonly dataset: string; readonly slice: string; readonly runId: string; readonly error: string }>
}

/** Open holes over slices; null when some slice's are unknown. */
const holesOf = (states: ReadonlyArray<CheckpointState>): number | null => {
  const counts = states.map(openHoles)
  return counts.some((n) => n === undefined) ? null : counts.reduce<number>((n, k) => n + (k ?? 0), 0)
}

const latestOf = (states: ReadonlyArray<CheckpointState>): CheckpointState | undefined =>
  [...states].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).pop()

const withoutWindow = (params: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).filter(([k]) => k !== FROM && k !== TO))

const listingStatus = (dataset: string, states: ReadonlyArray<CheckpointState>): ListingStatus => {
  const windows = states
    .map((state) => ({ state, window: windowOf(state.params)! }))
    .sort((a, b) => a.window.from - b.window.from)
  let watermark: number | null = null
  let reach: number | null = windows[0]?.window.from ?? null
  for (const { state, window } of windows) {
    if (reach === null || window.from > reach || !isComplete(state)) break
    reach = window.to
    watermark = Math.min(window.to, state.completedAsOf ?? window.to)
    // a head window completed before its end is complete only up to that run
    if (watermark < window.to) break
  }
  return {
    dataset,
    listing: withoutWindow(states[0]?.params ?? {}),
    windows: windows.length,
    done: windows.filter((w) => w.state.status === "done").length,
    since: windows[0]?.window.from ?? null,
    watermark,
    holes: holesOf(states),
    pending: windows.filter((w) => !isComplete(w.state)).map((w) => ({ ...w.window, status: w.state.status, holes: openHoles(w.state) ?? null, error: w.state.error })),
    lastRun: latestOf(states)?.runId ?? null
  }
}

const runLine = (r: RunReport): RunLine => ({
  runId: r.runId,
  mode: r.mode ?? "run",
  status: r.status,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  slices: r.slices.length,
  failed: r.slices.filter((s) => s.status === "failed").length,
  rows: r.slices.reduce((n, s) => n + s.rows, 0),
  // reports written before per-slice costs existed have none: read as 0
  requests: r.slices.reduce((n, s) => n + (s.requests ?? 0), 0),
  rateLimited: r.slices.reduce((n, s) => n + (s.rateLimited ?? 0), 0),
  waitMs: r.slices.reduce((n, s) => n + (s.waitMs ?? 0), 0)
})

/**
 * `windowed`: names of the datasets whose slices are windows. `runs`: reports, any order; the
 * newest `lastRuns` are listed.
 */
export const statusOf = (
  checkpoints: ReadonlyArray<CheckpointState>,
  runs: ReadonlyArray<RunReport>,
  windowed: ReadonlyArray<string>,
  lastRuns = 5,
  /** Per dataset the rows its view returns (`SELECT count(*)`), as read by the caller. */
  liveRows: ReadonlyMap<string, number> = new Map()
): Status => {
  const listings = new Map<string, CheckpointState[]>()
  const datasets = new Map<string, CheckpointState[]>()
  for (const c of checkpoints) {
    if (windowed.includes(c.dataset) && windowOf(c.params) !== undefined) {
      const key = `${c.dataset}|${JSON.stringify(Object.entries(withoutWindow(c.params)).sort())}`
      listings.set(key, [...(listings.get(key) ?? []), c])
    } else {
      datasets.set(c.dataset, [...(datasets.get(c.dataset) ?? []), c])
    }
  }
  return {
    listings: [...listings.values()]
      .map((states) => listingStatus(states[0]!.dataset, states))
      .sort((a, b) => `${a.dataset}|${Object.values(a.listing).join("/")}`.localeCompare(`${b.dataset}|${Object.values(b.listing).join("/")}`)),
    datasets: [...datasets.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([dataset, states]) => ({
        dataset,
        slices: states.length,
        done: states.filter((s) => s.status === "done").length,
        failed: states.filter((s) => s.status === "failed").length,
        running: states.filter((s) => s.status === "running").length,
        holes: holesOf(states),
        rows: liveRows.get(dataset) ?? null,
        rowsWritten: states.reduce((n, s) => n + s.rowsCommitted, 0),
        lastRun: latestOf(states)?.runId ?? null,
        updatedAt: latestOf(states)?.updatedAt ?? null
      })),
    runs: [...runs].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, lastRuns).map(runLine),
    failures: checkpoints
      .filter((c) => c.status === "failed")
      .sort((a, b) => `${a.dataset}/${a.slice}`.localeCompare(`${b.dataset}/${b.slice}`))
      .map((c) => ({ dataset: c.dataset, slice: c.slice, runId: c.runId, error: c.error ?? "" }))
  }
}
