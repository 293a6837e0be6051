/**
 * Issue 14, rule 3 (in part): records a service should never send become rejects or rows, never a
 * failed slice or altered text. A proxy in front of the emulator spoils delegators' first page:
 * - record 4's `nodeId` carries bytes that are not UTF-8 (0xC3 0x28): that record goes to `_rejects`
 *   with the reason, and no row holds a U+FFFD the service never sent;
 * - record 9 carries a field nested 100,000 levels deep, and record 12 an integer above 2^64 in a
 *   field no document lists: the page parses (no recursion to overflow), both are rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts"
import type { RunReport } from "../../src/Runner.ts"
import { fetchAll, query } from "../support/spine.ts"
import { campaignJob, tempDir } from "./campaign.ts"
import { type Proxy, forward, runInProcess, startProxy } from "./support.ts"

const DELEGATORS = "/v1/networks/mainnet/delegators"
const DEPTH = 100_000
/** Stands for the invalid bytes in the text until the bytes are rewritten. */
const PLACEHOLDER = "@@NOT-UTF8@@"

type Rec = Record<string, unknown>

describe("hostile records: invalid UTF-8, deep nesting beside a big integer", () => {
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let report: RunReport
  let firstPage: Rec[] = []
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    proxy = await startProxy(emu.baseUrl, (req) => {
      if (req.url.pathname !== DELEGATORS || req.url.searchParams.has("pageToken")) return forward
      return {
        kind: "forward",
        rewrite: (text) => {
          const body = JSON.parse(text) as { delegators: Rec[] }
          firstPage = body.delegators.map((r) => ({ ...r }))
          body.delegators[4]!["nodeId"] = `NodeID-${PLACEHOLDER}`
          body.delegators[9]!["deepNote"] = "DEEP"
          body.delegators[12]!["sortKey"] = "BIG"
          return JSON.stringify(body)
            .replace('"deepNote":"DEEP"', `"deepNote":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`)
            .replace('"sortKey":"BIG"', '"sortKey":123456789012345678901234567890')
        },
        rewriteBytes: (bytes) => {
          const at = bytes.indexOf(PLACEHOLDER)
          return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28]), bytes.subarray(at + PLACEHOLDER.length)])
        }
      }
    })
    out = await tempDir("hostile")
    report = await runInProcess(out, emu, { datasets: ["delegators"], job: campaignJob(emu), urls: { baseUrl: proxy.url }, partRows: 1000 })
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given a record with bytes that are not UTF-8, when the run ends, then it is a reject with the reason and the slice succeeded", async () => {
    expect(report.slices[0]!.status).toBe("done")
    const rejects = await query(path.join(out, "catalog.duckdb"), "SELECT page, reason, json_extract_string(raw, '$.txHash') AS tx FROM _rejects")
    expect(rejects).toEqual([{ page: 0, reason: expect.stringMatching(/not valid UTF-8/) as unknown, tx: firstPage[4]!["txHash"] }])
  })

  it("given the rest of the listing, when the run ends, then every other delegation is a row and none holds a replacement character", async () => {
    const clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    const expected = clean.map((d) => String(d["txHash"])).filter((h) => h !== firstPage[4]!["txHash"]).sort()
    const rows = await query(path.join(out, "catalog.duckdb"), `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(expected)
    const altered = await query(path.join(out, "catalog.duckdb"), `SELECT count(*)::INTEGER AS n FROM delegators WHERE node_id LIKE '%' || chr(65533) || '%'`)
    expect(altered).toEqual([{ n: 0 }])
  })

  it("given a record nested 100,000 levels deep and a big integer on the same page, when parsed, then both records are rows and the unknown fields are counted", async () => {
    const rows = await query(
      path.join(out, "catalog.duckdb"),
      `SELECT count(*)::INTEGER AS n FROM delegators WHERE tx_hash IN ('${String(firstPage[9]!["txHash"])}', '${String(firstPage[12]!["txHash"])}')`
    )
    expect(rows).toEqual([{ n: 2 }])
    expect(report.slices[0]!.unknownFields).toEqual({ deepNote: 1, sortKey: 1 })
  })
})
