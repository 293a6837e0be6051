/**
 * `chainetl report` as a data engineer meets it after a night: a small output crawled from the
 * emulator (two runs: the second walks a later height range, leaving a hole in node_x_blocks, and
 * asks for a chain the service does not have, so one slice fails), the page written by the CLI,
 * then opened in the Chromium npm installs (test/support/browser.ts). Every chart must have drawn
 * (marks with a size, ink in the screenshot), the page must log no error and ask for nothing, and
 * every figure it prints must equal what DuckDB says over the catalog, the files on disk or the
 * run reports.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Either } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EMULATOR_JOB } from "../../src/cli/runCommand.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { type Job, loadJobFile } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { type Browser, inkOf, launchChromium, openFile, type Watched } from "../support/browser.ts"
import { type CliExit, REPO, runCli } from "../reliability/cli.ts"
import { tempFolders } from "../support/fixtures.ts"
import { filesUnder, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("report")

type Json = Record<string, unknown>

/** How the test itself counts each dataset's rows per day: its listing columns and its day. */
const DAYS: Readonly<Record<string, { readonly listing: ReadonlyArray<string>; readonly day: string; readonly gaps: boolean }>> = {
  primary_blocks: { listing: ["network", "blockchain"], day: "date", gaps: true },
  staking_transactions: { listing: ["network"], day: "date", gaps: true },
  node_x_blocks: { listing: ["network"], day: "date", gaps: true },
  evm_blocks: { listing: ["chain_id"], day: "date", gaps: true },
  token_transfers: { listing: ["chain_id"], day: "date", gaps: true },
  delegators: { listing: ["network"], day: "snapshot_date", gaps: true },
  utxos: { listing: ["network", "blockchain"], day: "snapshot_date", gaps: true },
  chain_metrics: { listing: ["chain_id", "metric", "time_interval"], day: "CAST(timezone('UTC', ingested_at) AS DATE)", gaps: false }
}
const HEIGHTS: Readonly<Record<string, { readonly listing: ReadonlyArray<string>; readonly height: string }>> = {
  primary_blocks: { listing: ["network", "blockchain"], height: "block_number" },
  evm_blocks: { listing: ["chain_id"], height: "block_number" },
  node_x_blocks: { listing: ["network"], height: "height" }
}
const EXAMPLES = ["avax_staked_per_day", "evm_daily_tx_count", "token_transfer_volume_per_day", "top_delegators_by_net_reward", "utxo_balance_per_address", "validators_most_delegations"]

const listingSql = (cols: ReadonlyArray<string>) => `concat_ws('/', ${cols.map((c) => `${c}::VARCHAR`).join(", ")})`

/** Runs in the page (plain JavaScript: no DOM types here): each row of a table as its key attribute and figures. */
const tableRows = (page: Page, table: string, key: string) =>
  page.evaluate(`[...document.querySelectorAll('table[data-table="${table}"] tbody tr')].map((tr) => ({
    key: tr.getAttribute("${key}"),
    dataset: tr.closest("[data-dataset]")?.getAttribute("data-dataset") ?? null,
    figures: Object.fromEntries([...tr.querySelectorAll("[data-figure]")].map((td) => [td.dataset.figure, td.dataset.value])),
    cells: [...tr.children].map((td) => td.textContent)
  }))`) as Promise<Array<{ key: string | null; dataset: string | null; figures: Record<string, string>; cells: string[] }>>

describe("chainetl report, opened in a real browser", () => {
  let emu: RunningEmulator
  let out: string
  let browser: Browser
  let watched: Watched
  let night1: RunReport
  let db: DuckDBInstance
  let reported: CliExit
  let before: ReadonlyArray<string>
  let after: ReadonlyArray<string>
  const snapshot = async () =>
    Promise.all((await filesUnder(out)).filter((f) => f !== "report.html").map(async (f) => `${f} ${(await fs.stat(path.join(out, f))).mtimeMs}`))
  const sql = async (text: string): Promise<Json[]> => {
    const conn = await db.connect()
    try {
      return (await conn.runAndReadAll(text)).getRowObjectsJson() as Json[]
    } finally {
      conn.closeSync()
    }
  }

  beforeAll(async () => {
    emu = await startEmulator()
    out = await tempOut()
    const file = Either.getOrThrow(await loadJobFile(EMULATOR_JOB))
    const job: Job = {
      ...file,
      networks: ["mainnet"],
      primaryBlockchains: ["p-chain"],
      evmChains: ["43114"],
      addressSets: file.addressSets.filter((a) => a.network === "mainnet"),
      // the one metric an analysis reads, and the three months the windows cover
      metrics: { ...file.metrics, metrics: ["txCount"] },
      incremental: { primary_blocks: { window: "30d", since: "2024-10-01" }, staking_transactions: { window: "30d", since: "2024-10-01" } },
      nodeXHeights: { from: "1", to: "40" },
      nodeHeightWindow: "20"
    }
    // validators left out (a request per node): its analysis still ranks the nodes by delegations
    const datasets = ["primary_blocks", "staking_transactions", "delegators", "evm_blocks", "chain_metrics", "utxos", "token_transfers", "node_x_blocks"]
    night1 = await Effect.runPromise(runSpine(out, emu, { job, datasets }))
    expect(night1.status).toBe("succeeded")
    // heights 40 to 79 never asked; chain 99999 unknown to the service: its slice fails
    const night2 = await Effect.runPromise(runSpine(out, emu, { job: { ...job, nodeXHeights: { from: "80", to: "120" }, evmChains: ["43114", "99999"] }, datasets: ["node_x_blocks", "evm_blocks"] }))
    expect(night2.status).toBe("failed")
    db = await DuckDBInstance.create(path.join(out, "catalog.duckdb"), { access_mode: "READ_ONLY" })
    // every test reads the page this one report made, whatever order they run in
    before = await snapshot()
    reported = await runCli(["report", "--out", out])
    after = await snapshot()
    browser = await launchChromium()
    watched = await openFile(browser, path.join(out, "report.html"))
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    db?.closeSync()
    await emu?.close()
    if (out !== undefined) await fs.rm(out, { recursive: true, force: true })
  })

  it("given the output, when chainetl report runs, then it writes <out>/report.html and nothing else in the folder changes", () => {
    expect([reported.code, reported.stderr]).toEqual([0, ""])
    expect(reported.stdout).toContain(`report: ${path.join(out, "report.html")} (8 datasets with rows, `)
    expect(after).toEqual(before)
  })

  it("given the page in chromium, when it loads, then it logs no error and asks for nothing but itself", () => {
    expect(watched.errors).toEqual([])
    expect(watched.requests).toEqual([`file://${path.join(out, "report.html")}`])
  })

  it("given every chart, when the page is screenshot, then each drew marks with a size and ink on the screen, and the page is not one colour", async () => {
    const charts = (await watched.page.evaluate(`[...document.querySelectorAll("figure.chart")].map((f) => {
      const box = f.querySelector("svg").getBoundingClientRect()
      const marks = [...f.querySelectorAll("svg .role-mark > path, svg .role-mark > line")].map((m) => m.getBBox())
      return { id: f.dataset.chart, x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height, marks: marks.length, sized: marks.filter((b) => b.width > 0 || b.height > 0).length }
    })`)) as Array<{ id: string; x: number; y: number; width: number; height: number; marks: number; sized: number }>
    const datasets = Object.keys(DAYS).sort()
    // one rows-per-day and one files chart per dataset with rows, the span, the runs, each analysis
    expect(charts.map((c) => c.id).sort()).toEqual(
      ["freshness/span", "runs/slices", ...datasets.map((d) => `rows/${d}`), ...datasets.map((d) => `files/${d}`), ...EXAMPLES.map((e) => `example/${e}`)].sort()
    )
    for (const c of charts) expect([c.id, c.marks > 0, c.sized]).toEqual([c.id, true, c.marks])
    const shot = await watched.page.screenshot({ fullPage: true })
    const [page, ...inks] = await inkOf(browser, shot, [{ x: 0, y: 0, width: 1280, height: 100_000 }, ...charts])
    expect(page!.colours).toBeGreaterThan(20)
    charts.forEach((c, i) => {
      // axes and labels alone are a few hundred pixels in black and grey; marks add their colours
      expect([c.id, inks[i]!.inked > 500, inks[i]!.colours >= 3]).toEqual([c.id, true, true])
    })
  }, 60_000)

  it("given the datasets table, when its figures are read, then rows, days, gaps, heights, files and sizes equal the catalog's and the disk's", async () => {
    const rows = await tableRows(watched.page, "datasets", "data-dataset")
    expect(rows.map((r) => r.key).sort()).toEqual(Object.keys(DAYS).sort())
    for (const { key, figures } of rows) {
      const d = key!
      const { listing, day, gaps } = DAYS[d]!
      const [truth] = await sql(`SELECT count(*)::VARCHAR AS rows, strftime(min(${day}), '%Y-%m-%d') AS first, strftime(max(${day}), '%Y-%m-%d') AS last FROM ${d}`)
      const [gap] = await sql(`SELECT coalesce(sum(span - days), 0)::VARCHAR AS n FROM (SELECT max(${day}) - min(${day}) + 1 AS span, count(DISTINCT ${day}) AS days FROM ${d} GROUP BY ${listingSql(listing)})`)
      const h = HEIGHTS[d]
      const [heights] = h === undefined ? [{ n: "" }] : await sql(`SELECT coalesce(sum(span - n), 0)::VARCHAR AS n FROM (SELECT max(${h.height}) - min(${h.height}) + 1 AS span, count(DISTINCT ${h.height}) AS n FROM ${d} GROUP BY ${listingSql(h.listing)})`)
      const files = (await filesUnder(path.join(out, d))).filter((f) => f.endsWith(".parquet"))
      const bytes = (await Promise.all(files.map((f) => fs.stat(path.join(out, d, f))))).reduce((n, s) => n + BigInt(s.size), 0n)
      expect([d, figures]).toEqual([
        d,
        expect.objectContaining({
          rows: truth!["rows"],
          "first-day": truth!["first"],
          "last-day": truth!["last"],
          "gap-days": gaps ? gap!["n"] : "",
          "missing-heights": d === "node_x_blocks" ? "40" : heights!["n"],
          partitions: String(new Set(files.map((f) => path.dirname(f))).size),
          files: String(files.length),
          bytes: bytes.toString()
        })
      ])
    }
  })

  it("given each dataset's rows per day and partitions, when read from the page, then each listing-day and each folder equals the catalog's count and the files on disk", async () => {
    const perDay = await tableRows(watched.page, "rows-per-day", "data-day")
    const partitions = await tableRows(watched.page, "partitions", "data-partition")
    for (const [d, { listing, day }] of Object.entries(DAYS)) {
      const truth = await sql(`SELECT ${listingSql(listing)} AS listing, strftime(${day}, '%Y-%m-%d') AS day, count(*)::VARCHAR AS n FROM ${d} GROUP BY ALL ORDER BY ALL`)
      expect([d, perDay.filter((r) => r.dataset === d).map((r) => [r.cells[0], r.key, r.figures["day-rows"]])]).toEqual([d, truth.map((t) => [t["listing"], t["day"], t["n"]])])
      const folders = new Map<string, { files: number; bytes: bigint }>()
      for (const f of (await filesUnder(path.join(out, d))).filter((f) => f.endsWith(".parquet"))) {
        const acc = folders.get(path.dirname(f)) ?? { files: 0, bytes: 0n }
        folders.set(path.dirname(f), { files: acc.files + 1, bytes: acc.bytes + BigInt((await fs.stat(path.join(out, d, f))).size) })
      }
      const shown = partitions.filter((p) => p.dataset === d)
      expect([d, shown.map((p) => [p.key, p.figures["files"], p.figures["bytes"]])]).toEqual([d, [...folders].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, String(v.files), v.bytes.toString()])])
      const [total] = await sql(`SELECT count(*)::VARCHAR AS n FROM ${d}`)
      expect([d, shown.reduce((n, p) => n + BigInt(p.figures["rows"]!), 0n).toString()]).toEqual([d, total!["n"]])
    }
  })

  it("given the hole left between the two height walks, when the gaps are read, then node_x_blocks misses exactly heights 40 to 79, and the snapshot and block datasets miss none", async () => {
    const heightGaps = await tableRows(watched.page, "height-gaps", "data-listing")
    expect(heightGaps.map((g) => [g.dataset, g.key, g.figures["from"], g.figures["to"], g.figures["missing-heights"]])).toEqual([["node_x_blocks", "mainnet", "40", "79", "40"]])
    const dayGaps = await tableRows(watched.page, "day-gaps", "data-listing")
    // every listed range of primary_blocks was asked for by a finished window: the service had no block those days
    expect(dayGaps.filter((g) => g.dataset === "primary_blocks").every((g) => g.figures["crawled"] === "true")).toBe(true)
    expect([...new Set(dayGaps.map((g) => g.dataset))].filter((d) => ["delegators", "utxos", "evm_blocks"].includes(d!))).toEqual([])
  })

  it("given the checkpoints and the catalog, when freshness is read, then watermarks are the first night's as-of and the heights scanned are the highest committed", async () => {
    const watermarks = await tableRows(watched.page, "watermarks", "data-listing")
    expect(watermarks.map((w) => [w.dataset, w.key, w.figures["watermark"], w.figures["windows"], w.figures["done"]])).toEqual([
      ["primary_blocks", "mainnet/p-chain", String(night1.asOf), "4", "4"],
      ["staking_transactions", "mainnet", String(night1.asOf), "4", "4"]
    ])
    const heights = await tableRows(watched.page, "heights", "data-listing")
    const [evm] = await sql("SELECT max(block_number)::VARCHAR AS h FROM evm_blocks WHERE chain_id = '43114'")
    expect(heights.filter((h) => h.dataset !== "token_transfers").map((h) => [h.dataset, h.key, h.figures["height"]])).toEqual([
      ["node_x_blocks", "mainnet", "119"],
      ["evm_blocks", "43114", evm!["h"]]
    ])
  })

  it("given the run reports, when the runs are read, then each run's status and failed slices are the report's, and the failed slice is named with its error", async () => {
    const reports = await Promise.all((await fs.readdir(path.join(out, "_runs"))).map(async (f) => JSON.parse(await fs.readFile(path.join(out, "_runs", f), "utf8")) as RunReport))
    const runs = await tableRows(watched.page, "runs", "data-run")
    expect(runs.map((r) => [r.key, r.figures["status"], r.figures["failed"], r.figures["slices"]])).toEqual(
      reports
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .map((r) => [r.runId, r.status, String(r.slices.filter((s) => s.status === "failed").length), String(r.slices.length)])
    )
    const failures = await tableRows(watched.page, "run-failures", "data-slice")
    expect(failures.map((f) => [f.cells[1], f.key])).toEqual([["evm_blocks", expect.stringMatching(/^99999-/)]])
    expect(failures[0]!.cells[3]).toContain("chain 99999 is not supported")
    expect((await tableRows(watched.page, "failing", "data-slice")).map((f) => f.key)).toEqual([failures[0]!.key])
  })

  it("given the example analyses, when their answers are read from the page, then each is the catalog's answer to the same file", async () => {
    const shown = (await watched.page.evaluate(`[...document.querySelectorAll('table[data-table="example"]')].map((t) => ({
      name: t.dataset.example,
      columns: [...t.querySelectorAll("thead th")].map((th) => th.textContent),
      rows: [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((td) => td.textContent))
    }))`)) as Array<{ name: string; columns: string[]; rows: string[][] }>
    expect(shown.map((s) => s.name)).toEqual(EXAMPLES)
    for (const s of shown) {
      const text = await fs.readFile(path.join(REPO, "examples", `${s.name}.sql`), "utf8")
      const conn = await db.connect()
      const answer = await conn.runAndReadAll(text)
      conn.closeSync()
      expect([s.name, s.rows.length > 0]).toEqual([s.name, true])
      expect([s.name, s.columns, s.rows]).toEqual([s.name, answer.columnNames(), answer.getRowsJson().map((r) => r.map((v) => (v === null ? "NULL" : typeof v === "object" ? JSON.stringify(v) : String(v))))])
    }
  })
})
