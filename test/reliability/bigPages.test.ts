/**
 * Issue 14 item 4: big pages are read, and bounded. A proxy in front of the emulator pads every
 * record of delegators' first page with 400 KB (a 40 MB page) and sends it in 2 MB pieces 200 ms
 * apart (~4 s) to a client whose request timeout is 2 s: the timeout is the silence between
 * pieces, not the time the body takes, so the page is read. (The proxy builds the 40 MB page once,
 * before the runs: built under a status line it took over 2 s on a loaded 2-core machine.) The same page with the body cap at
 * 8 MB fails its slice at once (TooLarge, not retried) naming CHAINETL_MAX_BODY_MB; a page whose
 * body stops after 1 KB fails on the timeout (retried once), well within 30 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { fetchAll, query, runInProcess } from "../support/spine.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { DELEGATORS, type Proxy, type ProxyDecision, forward, startProxy } from "../support/proxy.ts"

const PAD = "x".repeat(400_000)

// built once per upstream text and warmed before the runs: building 40 MB under a status line
// took over 2 s on a loaded machine (load 11), which the client rightly took for a silent server
const built = new Map<string, string>()
const padded = (text: string): string => {
  const hit = built.get(text)
  if (hit !== undefined) return hit
  const body = JSON.parse(text) as { delegators: Array<Record<string, unknown>> }
  for (const d of body.delegators) d["padding"] = PAD
  const page = JSON.stringify(body)
  built.set(text, page)
  return page
}

describe("a 40 MB page arriving over 4 s, a body cap, a stalled body", () => {
  const bigDir = tempFolders("big")
  let emu: RunningEmulator
  let proxy: Proxy
  let mode: "slow" | "stall" = "slow"
  let clean: Array<Record<string, unknown>> = []
  const runs: Record<"slow" | "capped" | "stall", { report: RunReport; ms: number; out: string }> = {} as never
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    // the emulator's first answer builds its world (seconds): not the 1 s timeout's business
    clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    proxy = await startProxy(emu.baseUrl, (req): ProxyDecision => {
      if (req.url.pathname !== DELEGATORS) return forward
      if (mode === "stall") return req.url.searchParams.has("pageToken") ? { kind: "forward", stallAfterBytes: 1024 } : forward
      return req.url.searchParams.has("pageToken") ? forward : { kind: "forward", rewrite: padded, pace: { chunkBytes: 2 << 20, everyMs: 200 } }
    })
    // the page the runs ask for first, built now (the proxy keeps it): sortOrder and pageSize as the pipeline sends them
    await (await fetch(`${proxy.url}${DELEGATORS}?sortOrder=asc&pageSize=100`)).text()
    expect(built.size).toBe(1)
    const job = campaignJob(emu)
    const once = async (name: "slow" | "capped" | "stall", source: Record<string, number>) => {
      const out = await bigDir()
      const started = Date.now()
      const report = await runInProcess(out, emu, { datasets: ["delegators"], job, urls: { baseUrl: proxy.url }, source: { timeoutMs: 2_000, maxRetries: 1, ...source } })
      runs[name] = { report, ms: Date.now() - started, out }
    }
    await once("slow", {})
    await once("capped", { maxBodyMb: 8 })
    mode = "stall"
    await once("stall", {})
  }, 180_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given a 40 MB first page sent in 2 MB pieces 200 ms apart, when the timeout is 2 s, then it is read whole and every delegator is written", async () => {
    const { report, ms, out } = runs.slow
    expect(report.status).toBe("succeeded")
    const s = report.slices[0]!
    expect(s.retries).toBe(0)
    expect(s.bytes).toBeGreaterThan(40_000_000)
    expect(s.unknownFields).toEqual({ padding: 100 })
    // the runs got the page warmed before them, not one built under their timeout
    expect(built.size).toBe(1)
    // the page took longer than the timeout to arrive
    expect(ms).toBeGreaterThan(3_000)
    const rows = await query(path.join(out, "catalog.duckdb"), `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(clean.map((d) => String(d["txHash"])).sort())
  })

  it("given the body cap at 8 MB, when the 40 MB page comes, then the slice fails once, not retried, naming the cap and CHAINETL_MAX_BODY_MB", () => {
    const s = runs.capped.report.slices[0]!
    expect(s.status).toBe("failed")
    expect(s.error).toMatch(
      new RegExp(`^TooLarge on GET data ${DELEGATORS}\\?\\S+ \\(HTTP 200\\): the answer's body is larger than 8 MB \\(CHAINETL_MAX_BODY_MB\\); raise CHAINETL_MAX_BODY_MB if this machine has the memory for such pages$`)
    )
    expect(s.requests).toBe(1)
    expect(s.rows).toBe(0)
  })

  it("given a page whose body stops after 1 KB, when read, then it fails on the stall (retried once), within 30 s, the first page committed", () => {
    const { report, ms } = runs.stall
    const s = report.slices[0]!
    expect(s.status).toBe("failed")
    expect(s.error).toMatch(/^Timeout on GET data \S+pageToken=\S+: the body of an HTTP 200 answer stalled: nothing arrived for 2000 ms \(gave up after 1 retry\)$/)
    expect(s.requests).toBe(3)
    expect(s.rows).toBe(100)
    expect(ms).toBeLessThan(30_000)
  })
})
