/**
 * Issue 14 items 1 and 2 against the emulator behind a proxy that makes its delegators listing
 * misbehave: a page token that sends the listing back to an earlier page (a cycle), and records
 * sent again on a later page or twice on one page. The crawler's own tests
 * (test/crawl/ListingGuard.test.ts) cover empty pages, fresh-token repeats, restarts and resumes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { fetchAll, query, runInProcess } from "../support/spine.ts"
import { tempFolders } from "../support/fixtures.ts"
import { campaignJob } from "./campaign.ts"
import { readCheckpoints } from "./compare.ts"
import { DELEGATORS, type Proxy, forward, pageCounter, startProxy } from "../support/proxy.ts"

type Rec = Record<string, unknown>

describe("a listing whose page token sends it back to an earlier page", () => {
  const cycleDir = tempFolders("cycle")
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let failed: RunReport
  let resumed: RunReport
  let startedAt = 0
  let failedAfterMs = 0
  let checkpointAfterFailure: unknown
  let cycle = true
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    const tokens: string[] = []
    proxy = await startProxy(emu.baseUrl, (req) => {
      if (req.url.pathname !== DELEGATORS || !cycle) return forward
      const page = req.url.searchParams.has("pageToken") ? tokens.indexOf(req.url.searchParams.get("pageToken")!) + 1 : 0
      return {
        kind: "forward",
        rewrite: (text) => {
          const body = JSON.parse(text) as { nextPageToken?: string }
          // page 2 names page 1's token as its next: 1 → 2 → 1 → … for ever
          if (page === 2) body.nextPageToken = tokens[0]!
          else if (body.nextPageToken !== undefined) tokens[page] = body.nextPageToken
          return JSON.stringify(body)
        }
      }
    })
    out = await cycleDir()
    const job = campaignJob(emu)
    startedAt = Date.now()
    failed = await runInProcess(out, emu, { datasets: ["delegators"], job, urls: { baseUrl: proxy.url } })
    failedAfterMs = Date.now() - startedAt
    checkpointAfterFailure = (await readCheckpoints(out))[0]
    cycle = false
    resumed = await runInProcess(out, emu, { datasets: ["delegators"], job, urls: { baseUrl: proxy.url } })
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given page 2 answers page 1's token, when crawled, then the slice fails naming the repeated token after 3 requests, within 30 s, pages 0 and 1 committed", async () => {
    const s = failed.slices[0]!
    expect(failed.status).toBe("failed")
    expect(s.status).toBe("failed")
    expect(s.error).toMatch(/^TokenRepeated on delegators \S+: page 2 answered the page token "[^"]+", already asked for after page 0 in this pass: the listing would cycle\./)
    expect(s.requests).toBe(3)
    expect(failedAfterMs).toBeLessThan(30_000)
    expect(checkpointAfterFailure).toMatchObject({ status: "failed", pagesCommitted: 2, rowsCommitted: 200 })
  })

  it("given the service mended, when the next run resumes, then every delegator is there once", async () => {
    expect(resumed.status).toBe("succeeded")
    expect(resumed.slices[0]!.pages).toBeGreaterThan(0)
    const clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    const rows = await query(path.join(out, "catalog.duckdb"), `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(clean.map((d) => String(d["txHash"])).sort())
  })
})

describe("a listing that sends records again", () => {
  const repeatsDir = tempFolders("repeats")
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let report: RunReport
  const sent: Rec[][] = []
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    const pageOf = pageCounter(DELEGATORS)
    proxy = await startProxy(emu.baseUrl, (req) => {
      const page = pageOf(req)
      if (page === undefined) return forward
      const at = page
      return {
        kind: "forward",
        rewrite: (text) => {
          const body = JSON.parse(text) as { delegators: Rec[] }
          sent[at] = body.delegators.map((d) => ({ ...d }))
          if (at === 1) {
            // page 0's record 5 again, with another amount; and this page's record 0 twice
            body.delegators.push({ ...sent[0]![5]!, amountDelegated: "1" })
            body.delegators.splice(3, 0, { ...body.delegators[0]! })
          }
          return JSON.stringify(body)
        }
      }
    })
    out = await repeatsDir()
    report = await runInProcess(out, emu, { datasets: ["delegators"], job: campaignJob(emu), urls: { baseUrl: proxy.url } })
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given a key of page 0 on page 1 and a key twice on page 1, when crawled, then every key is one row, the first version kept, and the two repeats counted", async () => {
    expect(report.status).toBe("succeeded")
    const clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    const catalog = path.join(out, "catalog.duckdb")
    const rows = await query(catalog, `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(clean.map((d) => String(d["txHash"])).sort())
    const first = sent[0]![5]!
    const kept = await query(catalog, `SELECT amount_delegated::VARCHAR AS amount FROM delegators WHERE tx_hash = '${String(first["txHash"])}'`)
    expect(kept).toEqual([{ amount: String(first["amountDelegated"]) }])
    expect(report.slices[0]!.duplicates).toBe(2)
  })
})
