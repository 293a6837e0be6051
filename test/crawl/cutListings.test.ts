/**
 * A backfill cuts its long listings (src/crawl/SplitListings.ts) before the crawl: four weeks of
 * C-chain blocks in 14-day windows (the emulator of seed 3, 3 windows of up to ~11 pages), crawled
 * once as planned and once with every listing over its cap cut (no minimum listing time and a rate so high that the
 * cap is one page: every window of more pages is cut). The pieces tile the windows, the rows are the same,
 * and a second backfill over the same range leaves the pieces as they are.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { windowOf } from "../../src/crawl/Windows.ts"
import type { RunOptions, RunReport } from "../../src/Runner.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { cChainBackfill } from "../support/cChainBackfill.ts"
import { tempFolders } from "../support/fixtures.ts"

const DAY = 86_400
const FROM = Date.parse("2024-12-01T00:00:00Z") / 1000
const TO = Date.parse("2024-12-29T00:00:00Z") / 1000

const outs = tempFolders("cut-listings")

describe("a backfill's long listings cut into windows of their own", () => {
  let emu: RunningEmulator
  let whole: { out: string; report: RunReport }
  let cut: { out: string; report: RunReport; again: RunReport }

  beforeAll(async () => {
    emu = await startEmulator({ seed: 3 })
    const backfill = (out: string, cutListings?: RunOptions["cutListings"]) =>
      cChainBackfill(emu, out, { from: FROM, to: TO, window: 14 * DAY, ...(cutListings === undefined ? {} : { cutListings }) })
    const plain = await outs()
    whole = { out: plain, report: await backfill(plain) }
    const into = await outs()
    const report = await backfill(into, { rate: 1_000_000, minSeconds: 0 })
    cut = { out: into, report, again: await backfill(into, { rate: 1_000_000, minSeconds: 0 }) }
  }, 180_000)
  afterAll(async () => {
    await emu?.close()
  })

  it("given windows of up to ~11 pages and a cap of one page, when backfilled, then each long window is crawled as pieces that tile it exactly", () => {
    const windows = whole.report.slices.map((s) => windowOf(s.params)!).sort((a, b) => a.from - b.from)
    const pieces = cut.report.slices.map((s) => windowOf(s.params)!).sort((a, b) => a.from - b.from)
    expect(whole.report.status).toBe("succeeded")
    expect(cut.report.status).toBe("succeeded")
    expect(windows.length).toBe(3)
    expect(pieces.length).toBeGreaterThan(windows.length)
    // end to start, from the range's start to its end: no gap, no overlap
    expect(pieces[0]!.from).toBe(FROM)
    expect(pieces.at(-1)!.to).toBe(TO)
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.from).toBe(pieces[i - 1]!.to)
    // every piece inside one of the planned windows
    for (const p of pieces) expect(windows.some((w) => p.from >= w.from && p.to <= w.to)).toBe(true)
    // the longest listing is shorter than the longest window's
    expect(Math.max(...cut.report.slices.map((s) => s.pages))).toBeLessThan(Math.max(...whole.report.slices.map((s) => s.pages)))
  })

  it("given both outputs, when compared in DuckDB, then the cut crawl holds exactly the rows of the whole one", async () => {
    const diffs = (await compareCatalogs(cut.out, whole.out)).filter((d) => d.dataset === "primary_blocks")
    expect(diffs.map((d) => ({ onlyCut: d.onlyA, onlyWhole: d.onlyB, same: d.rowsA === d.rowsB }))).toEqual([{ onlyCut: 0, onlyWhole: 0, same: true }])
    expect(diffs[0]!.rowsB).toBeGreaterThan(1_000)
  })

  it("given the pieces' checkpoints, when the same backfill runs again, then it plans no window but the pieces (final ones not even those) and cuts nothing more", async () => {
    const pieces = new Set(cut.report.slices.map((s) => s.slice))
    expect(cut.again.status).toBe("succeeded")
    expect(cut.again.slices.filter((s) => !pieces.has(s.slice))).toEqual([])
    const checkpoints = (await fs.readdir(path.join(cut.out, "_state", "checkpoints", "primary_blocks"))).filter((f) => f.endsWith(".json"))
    expect(new Set(checkpoints.map((f) => f.slice(0, -".json".length)))).toEqual(pieces)
  })
})
