/**
 * A backfill hands the first pages its probes asked to the crawl (src/crawl/ProbedPages.ts):
 * four weeks of C-chain blocks in four whole 7-day windows (the emulator of seed 3: 381 blocks in
 * the first two, 1,067 in the last two), every window probed and none cut (no minimum listing time, a rate so low that the cap
 * is far above any window), against the same backfill without probes. A proxy in front of the
 * emulator counts the requests of each window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { windowOf } from "../../src/crawl/Windows.ts"
import type { RunOptions, RunReport } from "../../src/Runner.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { cChainBackfill } from "../support/cChainBackfill.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type ProxiedRequest, type Proxy, startProxy } from "../support/proxy.ts"

const DAY = 86_400
// on the 7-day grid (days since the epoch a multiple of 7): four whole windows
const FROM = Date.parse("2024-12-05T00:00:00Z") / 1000
const TO = Date.parse("2025-01-02T00:00:00Z") / 1000

const outs = tempFolders("probed-first-pages")

/** The window a block listing's request asks for, and whether it asks for its first page. */
const asked = (req: ProxiedRequest) => {
  const start = req.url.searchParams.get("startTimestamp")
  if (!req.url.pathname.endsWith("/blocks") || start === null) return undefined
  return { from: Number(start) + 1, to: Number(req.url.searchParams.get("endTimestamp")), first: !req.url.searchParams.has("pageToken") }
}

interface Backfilled {
  readonly out: string
  readonly report: RunReport
  readonly hits: ReadonlyArray<ProxiedRequest>
}

describe("a backfill's probed first pages handed to the crawl", () => {
  let emu: RunningEmulator
  let plain: Backfilled
  let probed: Backfilled

  beforeAll(async () => {
    emu = await startEmulator({ seed: 3 })
    const backfill = async (cutListings?: RunOptions["cutListings"]): Promise<Backfilled> => {
      // a few ms a request, so the probes measure a round trip (none measured: nothing is probed past the newest window)
      const proxy: Proxy = await startProxy(emu.baseUrl, () => ({ kind: "forward", delayMs: 5 }))
      const out = await outs()
      try {
        const report = await cChainBackfill(emu, out, { from: FROM, to: TO, window: 7 * DAY, baseUrl: proxy.url, ...(cutListings === undefined ? {} : { cutListings }) })
        return { out, report, hits: [...proxy.hits] }
      } finally {
        await proxy.close()
      }
    }
    plain = await backfill()
    probed = await backfill({ rate: 0.01, minSeconds: 0 })
  }, 180_000)
  afterAll(async () => {
    await emu?.close()
  })

  const windows = () => probed.report.slices.map((s) => ({ id: s.slice, ...windowOf(s.params)! }))
  const of = (hits: ReadonlyArray<ProxiedRequest>, w: { from: number; to: number }) =>
    hits.flatMap((h) => {
      const a = asked(h)
      return a !== undefined && a.from === w.from && a.to === w.to ? [a] : []
    })

  it("given four whole windows, each probed and none cut, when backfilled, then each window's first page is asked once and every other request is a far end's probe", () => {
    expect(probed.report.status).toBe("succeeded")
    expect(plain.report.status).toBe("succeeded")
    // nothing cut: the same three windows as the plain backfill's
    expect(windows().map((w) => w.id).sort()).toEqual(plain.report.slices.map((s) => s.slice).sort())
    expect(windows().length).toBe(4)
    for (const w of windows()) {
      const mine = of(probed.hits, w)
      expect(mine.filter((a) => a.first).length).toBe(1)
      // as many requests for the window as without probes: its first page was not asked again
      expect(mine.length).toBe(of(plain.hits, w).length)
    }
    // the windows' listings run to several pages (6 in the longest)
    expect(Math.max(...windows().map((w) => of(probed.hits, w).length))).toBeGreaterThan(4)
    // the rest are the probes of each window's far end (a first page over a stretch no window is)
    const windowed = new Set(windows().map((w) => `${w.from}-${w.to}`))
    const others = probed.hits.flatMap((h) => {
      const a = asked(h)
      return a === undefined || windowed.has(`${a.from}-${a.to}`) ? [] : [a]
    })
    expect(others.length).toBeGreaterThan(0)
    expect(others.every((a) => a.first && a.to - a.from < 4 * DAY)).toBe(true)
    expect(probed.hits.length).toBe(plain.hits.length + others.length)
  })

  it("given both outputs, when compared in DuckDB, then the probed backfill holds exactly the rows of the plain one", async () => {
    const diffs = (await compareCatalogs(probed.out, plain.out)).filter((d) => d.dataset === "primary_blocks")
    expect(diffs.map((d) => ({ onlyProbed: d.onlyA, onlyPlain: d.onlyB, same: d.rowsA === d.rowsB }))).toEqual([{ onlyProbed: 0, onlyPlain: 0, same: true }])
    expect(diffs[0]!.rowsB).toBeGreaterThan(1_000)
  })

  it("given the run reports, when their counts are read, then each slice counts its handed first page's request, and the host counts every request once", () => {
    const host = (r: RunReport) => Object.values(r.hosts).reduce((n, h) => n + h.requests, 0)
    for (const w of windows()) {
      const slice = probed.report.slices.find((s) => s.slice === w.id)!
      expect(slice.requests).toBe(of(probed.hits, w).length)
      expect(slice.requests).toBe(plain.report.slices.find((s) => s.slice === w.id)!.requests)
      expect(slice.pages).toBe(plain.report.slices.find((s) => s.slice === w.id)!.pages)
    }
    // the probed run's hosts saw its far ends' probes besides the plain run's requests, nothing twice
    expect(host(probed.report)).toBe(probed.hits.length)
    expect(host(plain.report)).toBe(plain.hits.length)
  })
})
