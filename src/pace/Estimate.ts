/**
 * The dry run's estimate of a run: requests (a lower and an upper bound and a likely figure), the
 * allowance it uses and the wall time that follows (Bound.ts: the larger of requests / rate and
 * the longest listing × round trip over the run's datasets together, a reader of another's output
 * after it: stagedBound), or the crawl's CPU over the share of a core the process gets, when that
 * is larger, its fixed part added to either (CpuCost.ts). Pure arithmetic over what the plan and the probes told (src/cli/dryRunPace.ts).
 *
 * A listing's pages are known only as a range: at least its first page; at most what the probed
 * pages' density says for the densest window of its kind. A window that was not probed is likely
 * what its probed neighbours in time were (interpolated between the two around it); without any,
 * the geometric mean of the range, the middle of a range that spans a factor rather than a
 * difference.
 */
import { allowanceShare, type BoundBy, stagedBound } from "./Bound.ts"
import { CPU_START_MS, crawlCpuMs } from "./CpuCost.ts"

/** Pages of one listing (slice), as far as they are known. */
export interface PagesGuess {
  readonly low: number
  readonly high: number
  /** Absent: the geometric mean of low and high. */
  readonly likely?: number
}

export interface DatasetGuess {
  readonly dataset: string
  readonly listings: ReadonlyArray<PagesGuess>
  /** Its stage in the run (src/pace/Order.ts stagesOf): absent, 0, beside every other dataset. */
  readonly stage?: number
}

export interface Range {
  readonly low: number
  readonly likely: number
  readonly high: number
}

export interface Estimate {
  readonly requests: Range
  readonly longestListing: Range
  /** Requests per second allowed. */
  readonly rate: number
  /** The round trip the wall time was computed with; null when not measured (--offline). */
  readonly roundTripMs: number | null
  /** Wall time of the crawl, ms; without a round trip the rate's (or the CPU's) part alone (a lower bound). */
  readonly wallMs: Range
  /** Share of the allowance the likely figures use over the likely wall time (0..1). */
  readonly share: number
  /** Slices the run crawls (one listing each). */
  readonly slices: number
  /** The crawl's CPU, likely, ms (CpuCost.ts). */
  readonly cpuMs: number
  /** The share of a core the process got when the estimate was made (0..1]; the CPU's wall time is cpuMs over it. */
  readonly coreShare: number
  readonly by: BoundBy | "CPU"
}

export const likelyPages = (g: PagesGuess): number => g.likely ?? Math.max(g.low, Math.round(Math.sqrt(g.low * g.high)))

const rangeOf = (values: ReadonlyArray<PagesGuess>, pick: (g: PagesGuess) => number, combine: (xs: number[]) => number) => combine(values.map(pick))
const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0)
const max = (xs: number[]) => xs.reduce((n, x) => Math.max(n, x), 0)

/** `coreShare`: the share of a core this process gets (CpuCost.ts coreShareNow); 1 on an idle machine. */
export const estimate = (datasets: ReadonlyArray<DatasetGuess>, rate: number, roundTripMs: number | null, coreShare = 1): Estimate => {
  const all = datasets.flatMap((d) => d.listings)
  const requests = { low: rangeOf(all, (g) => g.low, sum), likely: rangeOf(all, likelyPages, sum), high: rangeOf(all, (g) => g.high, sum) }
  const longestListing = { low: rangeOf(all, (g) => g.low, max), likely: rangeOf(all, likelyPages, max), high: rangeOf(all, (g) => g.high, max) }
  const rt = roundTripMs ?? 0
  const stages = [...new Set(datasets.map((d) => d.stage ?? 0))].sort((a, b) => a - b)
  const wallOf = (pick: (g: PagesGuess) => number) =>
    stagedBound(
      stages.map((stage) =>
        datasets.filter((d) => (d.stage ?? 0) === stage).map((d) => ({ requests: rangeOf([...d.listings], pick, sum), longestListing: rangeOf([...d.listings], pick, max) }))
      ),
      { rate, roundTripMs: rt }
    )
  // The crawl's fixed CPU (the first commits load DuckDB and the Parquet writer on the one
  // thread) holds every slice back while it runs, so it adds; the rest overlaps the service's
  // waits, so the larger of it and the service's bound holds.
  const slices = all.length
  const startMs = slices === 0 ? 0 : CPU_START_MS / coreShare
  const cpuOf = (requests: number) => crawlCpuMs(requests, slices) / coreShare - startMs
  const withCpu = (b: { ms: number; by: BoundBy }, requests: number) =>
    cpuOf(requests) > b.ms ? { ms: startMs + cpuOf(requests), by: "CPU" as const } : { ms: startMs + b.ms, by: b.by }
  const likely = withCpu(wallOf(likelyPages), requests.likely)
  const wallMs = { low: withCpu(wallOf((g) => g.low), requests.low).ms, likely: likely.ms, high: withCpu(wallOf((g) => g.high), requests.high).ms }
  const share = allowanceShare(requests.likely, likely.ms, rate)
  return { requests, longestListing, rate, roundTripMs, wallMs, share, slices, cpuMs: crawlCpuMs(requests.likely, slices), coreShare, by: likely.by }
}

/**
 * Pages of a probed listing from its first page: one when it has no next page; else the window's
 * length over the time its first page covers (records in time order), at least two. `coveredS`
 * zero or unknown: at least two, no more known. `otherEnd`: the records of the window's other end
 * over as long a stretch, as a share of the first page's (a listing's first page covers its newest
 * or its oldest days, which are not the window's mean): the likely pages are then the two ends'
 * mean, and the most the denser end's.
 */
export const pagesFromFirstPage = (hasNext: boolean, windowS: number | undefined, coveredS: number | undefined, otherEnd?: number): PagesGuess => {
  if (!hasNext) return { low: 1, high: 1, likely: 1 }
  if (windowS === undefined || coveredS === undefined || coveredS <= 0) return { low: 2, high: 2 }
  const pages = Math.max(2, Math.ceil(windowS / coveredS))
  if (otherEnd === undefined) return { low: 2, high: pages, likely: pages }
  // the density between the two ends taken to change evenly: the window holds their mean. (Their
  // logarithmic mean, for a use growing by a constant factor, came within 15 % on the pace bench's
  // 365-day windows but guessed 2 pages for an 8-page C-chain window whose far stretch was quiet:
  // the even mean never guesses under half the first page's count, which a cut can rely on)
  const likely = Math.max(2, Math.ceil((pages * (1 + otherEnd)) / 2))
  return { low: 2, high: Math.max(likely, Math.ceil(pages * Math.max(1, otherEnd))), likely }
}

/**
 * Evenly spread picks of `k` among `n` windows in time order (0 the oldest), the newest always
 * among them: the windows a dry run asks for their first page.
 */
export const spread = (n: number, k: number): ReadonlyArray<number> => {
  if (n <= 0 || k <= 0) return []
  if (k >= n) return Array.from({ length: n }, (_, i) => i)
  if (k === 1) return [n - 1]
  const picks = new Set<number>()
  for (let j = 0; j < k; j++) picks.add(Math.round(((n - 1) * j) / (k - 1)))
  return [...picks].sort((a, b) => a - b)
}

/**
 * Likely pages of each of `n` windows in time order from the probed ones (index → pages): a
 * window between two probes is interpolated linearly, one before the first or after the last
 * takes the nearest probe's. No probe: undefined for every window.
 */
export const interpolate = (n: number, probed: ReadonlyMap<number, number>): ReadonlyArray<number | undefined> => {
  const at = [...probed.keys()].sort((a, b) => a - b)
  return Array.from({ length: n }, (_, i) => {
    if (at.length === 0) return undefined
    const exact = probed.get(i)
    if (exact !== undefined) return exact
    const after = at.find((p) => p > i)
    const before = [...at].reverse().find((p) => p < i)
    if (before === undefined) return probed.get(after!)!
    if (after === undefined) return probed.get(before)!
    const a = probed.get(before)!
    const b = probed.get(after)!
    return Math.max(1, Math.round(a + ((b - a) * (i - before)) / (after - before)))
  })
}
