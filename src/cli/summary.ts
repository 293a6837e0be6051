/**
 * What a run prints at the end: rows and parts per dataset, elapsed time, and one example query
 * against the fresh catalog with its result, so a new user sees the data is there and how to ask.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as path from "node:path"
import type { RunReport } from "../Runner.ts"
import type { RunPace } from "../CrawlPace.ts"
import { isoSeconds } from "../Time.ts"
import { SHOWN_HOLE_KEYS } from "../crawl/SliceResult.ts"
import type { RejectedIn } from "./exitCode.ts"
import { table } from "./table.ts"

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`

/** The crawl's pace: share of the allowance and what held it back (src/CrawlPace.ts). */
export const paceLine = (p: RunPace): string => {
  const rt = p.roundTripMs === null ? "" : `, round trip ${Math.round(p.roundTripMs)} ms, ${p.inFlight} in flight, ${p.slicesAtOnce} slices at once`
  const share = p.rate === null ? "" : ` = ${Math.round(p.share * 100)} % of the allowance (${p.rate}/s)`
  const why =
    p.heldBy === "a long sequential listing"
      ? `a long sequential listing (${p.longestListing} pages, each page's token from the page before)`
      : p.heldBy === "CPU"
        ? `CPU (${seconds(p.cpuMs)} of it)`
        : p.heldBy === "round trip"
          ? "the round trip (too few requests in flight for the rate: --concurrency / CHAINETL_CONCURRENCY, or too few listings)"
          : "the rate"
  return `pace: ${p.requests} requests in ${seconds(p.crawlMs)} of crawl${share}${rt}; held back by ${why}`
}

export const EXAMPLE_QUERY = `SELECT network, blockchain, count(*) AS blocks, max(block_number) AS latest_block, max(block_timestamp) AS latest_time
FROM primary_blocks GROUP BY ALL ORDER BY ALL`

const queryCatalog = async (out: string, sql: string) => {
  const db = await DuckDBInstance.create(path.join(out, "catalog.duckdb"), { access_mode: "READ_ONLY" })
  const conn = await db.connect()
  try {
    const reader = await conn.runAndReadAll(sql)
    return { columns: reader.columnNames(), rows: reader.getRows().map((r) => r.map((v) => String(v))) }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

export interface DatasetTotals {
  readonly slices: number
  readonly failed: number
  readonly pages: number
  /** Rows new to the output. */
  readonly newRows: number
  /** Rows of replacing slices, in place of their previous version. */
  readonly replacingRows: number
  readonly rejects: number
  /** Records rejected and not written, in its slices once the run is over (Holes.ts); null when some slice's are unknown. */
  readonly holes: number | null
  /** Of those, holes this run's pages met (re-rejected records included). */
  readonly holesMet: number
  /** The first hole keys (heights of a height walk), in report order. */
  readonly holeKeys: ReadonlyArray<string>
  readonly parts: number
  readonly requests: number
  readonly retries: number
  readonly rateLimited: number
  readonly waitMs: number
}

/** Per dataset, in report order: what the run did. */
export const summaryByDataset = (report: RunReport): ReadonlyMap<string, DatasetTotals> => {
  const byDataset = new Map<string, DatasetTotals>()
  for (const s of report.slices) {
    const d =
      byDataset.get(s.dataset) ??
      { slices: 0, failed: 0, pages: 0, newRows: 0, replacingRows: 0, rejects: 0, holes: 0, holesMet: 0, holeKeys: [], parts: 0, requests: 0, retries: 0, rateLimited: 0, waitMs: 0 }
    // a slice not crawled has no holes (a final one has none; one not run keeps what it had)
    const holes = s.status === "done" || s.status === "failed" ? s.holes : 0
    byDataset.set(s.dataset, {
      slices: d.slices + 1,
      failed: d.failed + (s.status === "failed" ? 1 : 0),
      pages: d.pages + s.pages,
      newRows: d.newRows + (s.replacing === true ? 0 : s.rows),
      replacingRows: d.replacingRows + (s.replacing === true ? s.rows : 0),
      rejects: d.rejects + s.rejects,
      holes: d.holes === null || holes === undefined ? null : d.holes + holes,
      holesMet: d.holesMet + (s.holesMet ?? 0),
      holeKeys: d.holeKeys.length >= SHOWN_HOLE_KEYS ? d.holeKeys : [...d.holeKeys, ...(s.holeKeys ?? [])].slice(0, SHOWN_HOLE_KEYS),
      parts: d.parts + s.parts,
      requests: d.requests + s.requests,
      retries: d.retries + s.retries,
      rateLimited: d.rateLimited + s.rateLimited,
      waitMs: d.waitMs + s.waitMs
    })
  }
  return byDataset
}

/**
 * The datasets whose records this run could not map: rejects it wrote, or holes it met again (a
 * record rejected before is not written again). Any makes the run's exit code 3.
 */
export const rejectedIn = (report: RunReport): ReadonlyArray<RejectedIn> =>
  [...summaryByDataset(report)]
    .filter(([, d]) => d.rejects > 0 || d.holesMet > 0)
    .map(([dataset, d]) => ({ dataset, rejects: d.rejects, holes: d.holes ?? d.holesMet, keys: d.holeKeys }))

const holesCell = (d: DatasetTotals): number | string => d.holes ?? "?"

const rangeText = (report: RunReport): string => {
  const b = report.backfill
  if (b === null) return "the range"
  return b.unit === "time" ? `[${isoSeconds(b.from)}, ${isoSeconds(b.to)})` : `heights [${b.from}, ${b.to})`
}

export const printSummary = (out: string, report: RunReport, elapsedMs: number) =>
  Effect.promise(async () => {
    const byDataset = summaryByDataset(report)
    if (report.mode === "backfill" && report.slices.every((s) => s.status === "skipped")) {
      console.log("")
      console.log(`backfill: nothing to do: ${rangeText(report)} is already complete on disk for ${report.datasets.join(", ")} (no window or cell left to crawl); nothing was fetched`)
      console.log(`run ${report.runId} ${report.status} in ${(elapsedMs / 1000).toFixed(1)} s; output ${out}`)
      return
    }
    console.log("")
    console.log(
      table(
        ["dataset", "slices", "failed", "pages", "new rows", "replacing", "rejects", "holes", "files", "requests", "retries", "429s", "waited"],
        [...byDataset].map(([name, d]) => [name, d.slices, d.failed, d.pages, d.newRows, d.replacingRows, d.rejects, holesCell(d), d.parts, d.requests, d.retries, d.rateLimited, seconds(d.waitMs)])
      )
    )
    const replacing = [...byDataset.values()].reduce((n, d) => n + d.replacingRows, 0)
    console.log(
      `\nnew rows: not in the output before this run. replacing: rows of slices written again whole, each in place of its previous version (an open month, the TPS series): ${replacing} this run; the views hold the new version only`
    )
    if ([...byDataset.values()].some((d) => d.rejects > 0 || d.holes !== 0)) {
      console.log(
        "rejects: records that could not be mapped, each in _rejects with its reason. holes: rejected records not written since, so their keys or windows are not complete on disk; the next run asks for them again (? : not counted yet by a checkpoint from an earlier chainetl)"
      )
    }
    console.log("")
    const hosts = Object.values(report.hosts)
    const limiterMs = hosts.reduce((n, h) => n + h.limiterWaitMs, 0)
    const retryAfterMs = hosts.reduce((n, h) => n + h.retryAfterWaitMs, 0)
    console.log(`run ${report.runId} ${report.status} in ${(elapsedMs / 1000).toFixed(1)} s; output ${out}`)
    console.log(
      `requests: ${hosts.reduce((n, h) => n + h.requests, 0)} (${hosts.reduce((n, h) => n + h.retries, 0)} retries, ${hosts.reduce((n, h) => n + h.rateLimited, 0)} answered 429); ` +
        `waited ${seconds(limiterMs)} on the rate limiter and ${seconds(retryAfterMs)} on Retry-After (summed over concurrent requests)`
    )
    if (report.pace !== undefined) console.log(paceLine(report.pace))
    if (report.keys.length > 1 || report.keys.some((k) => k.refused !== null)) {
      const keys = report.keys.map((k) => `${k.name} ${k.requests}${k.rateLimited > 0 ? ` (${k.rateLimited} answered 429)` : ""}${k.refused === null ? "" : ` (REFUSED, not used after: ${k.refused})`}`)
      console.log(`API keys: ${keys.join(", ")}`)
    }
    console.log(`catalog: ${path.join(out, "catalog.duckdb")} (views: ${report.datasets.join(", ")}, _rejects)`)
    if (report.datasets.includes("primary_blocks")) {
      const result = await queryCatalog(out, EXAMPLE_QUERY).catch((e: unknown) => ({ error: String(e) }))
      console.log("")
      console.log(`example: duckdb ${path.join(out, "catalog.duckdb")}`)
      console.log(`D ${EXAMPLE_QUERY.replace(/\n/g, "\n  ")};`)
      if ("error" in result) console.log(`(query failed: ${result.error})`)
      else console.log(table(result.columns, result.rows))
    }
  })
