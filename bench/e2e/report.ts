/** Medians per method, the ratios the issue's targets are stated in, the table and results.json. */
import * as fs from "node:fs"
import * as os from "node:os"
import type { ListingRequests } from "./listings.ts"
import type { MethodName } from "./methods.ts"
import { median } from "./outputs.ts"

/** One measured run of one method. */
export interface RunResult {
  readonly method: MethodName
  readonly repeat: number
  readonly exitCode: number
  readonly error?: string
  readonly wallSeconds: number
  readonly cpuSeconds: number
  /** Of cpuSeconds, the kernel's (page faults, I/O): a large share points at memory churn. */
  readonly systemSeconds?: number
  readonly peakRssBytes: number
  readonly rows: number
  readonly files: number
  readonly bytes: number
  readonly medianFileBytes: number
  readonly requests: number
  /** Requests the recording did not have (must be 0: such a run did not read identical pages). */
  readonly misses: number
  readonly rowsPerSecond: number
  readonly rowsPerCpuSecond: number
  readonly load: number
  /** chainetl's requests against the minimum over the listings it crawled (from its run report). */
  readonly listings?: ListingRequests
}

export type MethodMedians = Omit<RunResult, "method" | "repeat" | "exitCode" | "error" | "listings">

export interface CaseResult {
  readonly dataset: string
  readonly shape: string
  readonly size: string
  readonly scale: number
  /** Served from a smaller case's recording, each record `times` times (`--pages-of`); scale is that case's. */
  readonly pagesOf?: {
    readonly size: string
    readonly times: number
    /** Served as they were made, not recorded (`--stream-pages`): the rows counted from the source's, times `times`. */
    readonly streamed?: true
  }
  readonly seed: number
  /** Records served by the listings (counted when the pages were saved). */
  readonly rows: number
  readonly listings: number
  /** Σ over the references' listings of ⌈rows / page size⌉ (at least 1 each). */
  readonly minRequests: number
  /**
   * chainetl's own minimum: Σ over the listings it crawled (its windows) of ⌈rows / page size⌉,
   * and its requests beyond that, retries excluded; from its first measured run (a replay asks
   * the same every time).
   */
  readonly chainetlListings?: ListingRequests
  readonly since: string
  readonly to: string
  readonly medians: Partial<Record<MethodName, MethodMedians>>
  readonly ratios: Record<string, { readonly rowsPerCpuSecond: number; readonly rowsPerSecond: number; readonly peakRss: number }>
  /** Every method wrote as many rows as the listings hold. */
  readonly rowsEqual: boolean
  readonly runs: ReadonlyArray<RunResult>
  readonly cpuProfile?: unknown
}

const FIELDS = ["wallSeconds", "cpuSeconds", "peakRssBytes", "rows", "files", "bytes", "medianFileBytes", "requests", "misses", "rowsPerSecond", "rowsPerCpuSecond", "load"] as const

export const mediansOf = (runs: ReadonlyArray<RunResult>): MethodMedians | undefined => {
  const ok = runs.filter((r) => r.exitCode === 0)
  if (ok.length === 0) return undefined
  return Object.fromEntries(FIELDS.map((f) => [f, median(ok.map((r) => r[f]))])) as unknown as MethodMedians
}

export const ratiosOf = (medians: Partial<Record<MethodName, MethodMedians>>): CaseResult["ratios"] => {
  const out: Record<string, { rowsPerCpuSecond: number; rowsPerSecond: number; peakRss: number }> = {}
  const c = medians.chainetl
  for (const ref of ["plain", "naive", "duckdb-only", "baseline"] as const) {
    const r = medians[ref]
    if (c === undefined || r === undefined) continue
    out[`chainetl/${ref}`] = {
      rowsPerCpuSecond: c.rowsPerCpuSecond / r.rowsPerCpuSecond,
      rowsPerSecond: c.rowsPerSecond / r.rowsPerSecond,
      peakRss: c.peakRssBytes / r.peakRssBytes
    }
  }
  return out
}

const int = (x: number): string => Math.round(x).toLocaleString("en-US")

export const formatTable = (cases: ReadonlyArray<CaseResult>): string => {
  const header = ["dataset", "size", "method", "rows", "rows/s", "rows/CPU-s", "CPU s", "wall s", "peak RSS MB", "requests (min)", "files", "median file KB"]
  const lines: string[][] = []
  for (const c of cases) {
    for (const [method, m] of Object.entries(c.medians)) {
      lines.push([
        c.dataset,
        c.pagesOf === undefined ? c.size : `${c.size} (${c.pagesOf.size} ×${c.pagesOf.times})`,
        method,
        int(m.rows),
        int(m.rowsPerSecond),
        int(m.rowsPerCpuSecond),
        m.cpuSeconds.toFixed(2),
        m.wallSeconds.toFixed(2),
        (m.peakRssBytes / 2 ** 20).toFixed(0),
        method === "duckdb-only"
          ? "0 (saved pages)"
          : method === "chainetl" && c.chainetlListings !== undefined
            ? `${int(m.requests)} (${int(c.minRequests)}; own ${int(c.chainetlListings.minRequests)})`
            : `${int(m.requests)} (${int(c.minRequests)})`,
        int(m.files),
        (m.medianFileBytes / 1024).toFixed(1)
      ])
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const row = (cells: ReadonlyArray<string>) => `| ${cells.map((x, i) => x.padEnd(widths[i]!)).join(" | ")} |`
  const ratios = cases.map(
    (c) =>
      `${c.dataset} ${c.size}: ` +
      Object.entries(c.ratios)
        .map(([k, r]) => `${k.replace("/", " ÷ ")} ${r.rowsPerCpuSecond.toFixed(2)} (rows/CPU-s), ${r.rowsPerSecond.toFixed(2)} (rows/s)`)
        .join("; ") +
      (c.rowsEqual ? "" : "  [ROW COUNTS DIFFER]")
  )
  const requests = cases.flatMap((c) => (c.chainetlListings === undefined ? [] : [`${c.dataset} ${c.size}: ${formatListingRequests(c)}`]))
  return [row(header), row(widths.map((w) => "-".repeat(w))), ...lines.map(row), "", ...ratios, ...(requests.length > 0 ? ["", ...requests] : [])].join("\n")
}

/** chainetl's requests against its own listings' minimum and the references'. */
export const formatListingRequests = (c: CaseResult): string => {
  const l = c.chainetlListings!
  const over = l.overMinimum.slice(0, 3).map((o) => `${o.slice} ${o.requests} for ${o.records} records`)
  return (
    `chainetl ${int(l.requests)} requests to ${int(l.listings)} listings (retries excluded, ${int(l.retries)} retries; ${int(l.outsideListings)} outside listings), ` +
    `their minimum ${int(l.minRequests)}: ${l.beyondMin === 0 ? "none beyond it" : `${int(l.beyondMin)} beyond it (${[...over, ...(l.overMinimum.length > 3 ? ["…"] : [])].join(", ")})`}; ` +
    `the references' ${int(c.minRequests)} over ${int(c.listings)} listings`
  )
}

export const writeResults = (file: string, settings: Record<string, unknown>, cases: ReadonlyArray<CaseResult>): void => {
  const doc = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg() },
    settings,
    cases
  }
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
}
