/**
 * chainetl's requests against the fewest its own listings allow (issue 11: "requests = ⌈rows /
 * max page size⌉ per listing"). The references page through one listing per route; chainetl cuts
 * a windowed dataset into windows, each its own listing, so the minimum that says whether chainetl
 * asks for anything it does not need is over the listings it crawled: Σ over its slices of
 * max(1, ⌈records / page size⌉), from the run's report (`<out>/_runs/<run id>.json`).
 */
import * as fs from "node:fs"
import * as path from "node:path"

/** The fields of a run report's slice this reads (src/crawl/Crawler.ts SliceResult). */
interface ReportSlice {
  readonly slice: string
  readonly status: string
  readonly error?: string
  readonly pages: number
  readonly rows: number
  readonly rejects: number
  readonly duplicates: number
  readonly restarts: number
  readonly requests: number
  readonly retries: number
}

/** A listing that took more requests than its records need. */
export interface ListingOverMinimum {
  readonly slice: string
  readonly records: number
  readonly minRequests: number
  /** Retries excluded. */
  readonly requests: number
}

export interface ListingRequests {
  /** Listings chainetl crawled: its slices (one per window and listing base when windowed). */
  readonly listings: number
  /** Σ over those of max(1, ⌈records / page size⌉); records = rows + rejects + duplicates dropped. */
  readonly minRequests: number
  /** Requests its slices made, retries excluded. */
  readonly requests: number
  readonly retries: number
  /** `requests` beyond `minRequests` (retries excluded: a retry is the service's doing, not a page more). */
  readonly beyondMin: number
  readonly overMinimum: ReadonlyArray<ListingOverMinimum>
  /** Requests the proxy saw that no slice made (planning, a node's height): not pages of a listing. */
  readonly outsideListings: number
}

export class RunReportMissing extends Error {
  readonly _tag = "RunReportMissing"
}

/**
 * The minimum over the report's slices, with `pageSize` the route's maximum page size; `seen`: all
 * the requests the proxy counted in the run.
 */
export const listingRequests = (slices: ReadonlyArray<ReportSlice>, pageSize: number, seen: number): ListingRequests => {
  let minRequests = 0
  let requests = 0
  let retries = 0
  const overMinimum: ListingOverMinimum[] = []
  // a slice skipped as final, or never started, listed nothing
  const crawled = slices.filter((s) => s.status === "done" || s.status === "failed")
  for (const s of crawled) {
    const records = s.rows + s.rejects + s.duplicates
    // an empty window still costs the one request that finds it empty
    const min = Math.max(1, Math.ceil(records / pageSize))
    const made = s.requests - s.retries
    minRequests += min
    requests += made
    retries += s.retries
    if (made > min) overMinimum.push({ slice: s.slice, records, minRequests: min, requests: made })
  }
  return { listings: crawled.length, minRequests, requests, retries, beyondMin: requests - minRequests, overMinimum, outsideListings: seen - requests - retries }
}

/** The one run report a fresh output folder holds after one chainetl run. */
export const readRunReport = (out: string): { readonly slices: ReadonlyArray<ReportSlice> } => {
  const dir = path.join(out, "_runs")
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".json")) : []
  if (files.length !== 1) throw new RunReportMissing(`expected one run report in ${dir}, found ${files.length}`)
  return JSON.parse(fs.readFileSync(path.join(dir, files[0]!), "utf8")) as { slices: ReadonlyArray<ReportSlice> }
}

/** The first failed slices of the run report under `out`, with why (none if there is no report). */
export const failedSlices = (out: string, most = 3): string[] => {
  try {
    return readRunReport(out)
      .slices.filter((s) => s.status === "failed")
      .slice(0, most)
      .map((s) => `  ${s.slice}: ${s.error ?? "failed"}`)
  } catch (e) {
    if (e instanceof RunReportMissing) return []
    throw e
  }
}
