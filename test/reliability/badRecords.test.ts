/**
 * Item 4: bad input. A proxy in front of the emulator spoils delegators' pages one way each:
 * - page 1: four records broken (wrong type, missing required field, unparseable number, absurd
 *   timestamp): they go to `_rejects` with dataset, slice, page, the raw record and the reason,
 *   and the page's other 96 records are kept;
 * - page 2: every record carries a field no document lists: ignored, and counted in the run report;
 * - page 3: not JSON at all: retried, then the slice fails saying so, pages 0–2 committed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { fetchAll, query, runInProcess } from "../support/spine.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { readCheckpoints } from "./compare.ts"
import { DELEGATORS, type Proxy, forward, pageCounter, startProxy } from "../support/proxy.ts"

const NOT_JSON = "<html><body><h1>502 Bad Gateway</h1></body></html>"

type Rec = Record<string, unknown>

/** Page 1's records 3, 7, 11 and 15, each broken its own way. */
const SPOIL: ReadonlyArray<readonly [index: number, spoil: (r: Rec) => void]> = [
  [3, (r) => void (r["amountDelegated"] = 250_000_000_000)], // a number where the document says string
  [7, (r) => void delete r["txHash"]], // required, missing
  [11, (r) => void (r["amountDelegated"] = "12x5")], // not a number
  [15, (r) => void (r["startTimestamp"] = 99_999_999_999_999)] // year ~3.2 million
]

describe("bad records, unknown fields and a page that is not JSON", () => {
  const badDir = tempFolders("bad")
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
      // page 3 and every retry of it: a gateway's HTML error page with status 200
      if (page >= 3) return { kind: "answer", status: 200, body: NOT_JSON, headers: { "content-type": "text/html" } }
      const at = page
      return {
        kind: "forward",
        rewrite: (text) => {
          const body = JSON.parse(text) as { delegators: Rec[] }
          if (at === 1) for (const [i, spoil] of SPOIL) spoil(body.delegators[i]!)
          if (at === 2) for (const r of body.delegators) r["unexpectedField"] = { note: "added by the test" }
          sent[at] = body.delegators
          return JSON.stringify(body)
        }
      }
    })
    out = await badDir()
    report = await runInProcess(out, emu, { datasets: ["delegators"], job: campaignJob(emu), urls: { baseUrl: proxy.url }, source: { maxRetries: 2 } })
  }, 120_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given four broken records on page 1, when the run ends, then each is in _rejects with dataset, slice, page, raw record and reason", async () => {
    const slice = report.slices[0]!.slice
    const rejects = await query(
      path.join(out, "catalog.duckdb"),
      `SELECT dataset, slice, page, raw, reason FROM _rejects ORDER BY json_extract_string(raw, '$.nodeId'), raw`
    )
    const expected = SPOIL.map(([i]) => sent[1]![i]!)
      .map((r) => ({ dataset: "delegators", slice, page: 1, raw: r }))
      .sort((a, b) => (String(a.raw["nodeId"]) < String(b.raw["nodeId"]) ? -1 : 1))
    expect(rejects.map((r) => ({ ...r, raw: JSON.parse(String(r["raw"])) as Rec, reason: undefined }))).toEqual(
      expected.map((e) => ({ ...e, reason: undefined }))
    )
    // the reason names the field and what was wrong (after the record's type, which it spells out first)
    const why = (r: Rec) => {
      const reason = String(rejects.find((x) => String(x["raw"]) === JSON.stringify(r))?.["reason"])
      return reason.slice(reason.indexOf('└─ ["'))
    }
    const decimal = "(a string matching the pattern ^-?[0-9]{1,78}$ <-> BigInt) └─ Encoded side transformation failure └─"
    expect(why(sent[1]![3]!)).toBe(
      `└─ ["amountDelegated"] └─ ${decimal} a string matching the pattern ^-?[0-9]{1,78}$ └─ From side refinement failure └─ Expected string, actual 250000000000`
    )
    expect(why(sent[1]![7]!)).toBe('└─ ["txHash"] └─ is missing')
    expect(why(sent[1]![11]!)).toBe(`└─ ["amountDelegated"] └─ ${decimal} expected a decimal integer string`)
    expect(why(sent[1]![15]!)).toBe(
      '└─ ["startTimestamp"] └─ (int & between(946684800, 7258118400) <-> DateFromSelf) └─ Encoded side transformation failure └─ expected a Unix timestamp in seconds between 2000 and 2200'
    )
    expect(report.slices[0]!.rejects).toBe(4)
  })

  it("given page 1 with four broken records, when the run ends, then its other 96 records are rows", async () => {
    const clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    const broken = new Set(SPOIL.map(([i]) => i + 100))
    const expected = clean.slice(0, 300).filter((_, i) => !broken.has(i)).map((d) => String(d["txHash"])).sort()
    const rows = await query(path.join(out, "catalog.duckdb"), `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(expected)
  })

  it("given page 2 whose records carry an unknown field, when the run ends, then the rows are whole and the run report counts the field", async () => {
    const rows = await query(path.join(out, "catalog.duckdb"), `SELECT count(*)::INTEGER AS n FROM delegators WHERE tx_hash IN (${sent[2]!.map((r) => `'${String(r["txHash"])}'`).join(",")})`)
    expect(rows).toEqual([{ n: 100 }])
    expect(report.slices[0]!.unknownFields).toEqual({ unexpectedField: 100 })
  })

  it("given page 3 is an HTML page, when fetched, then it is retried and the slice fails saying the body is not JSON, pages 0 to 2 committed", async () => {
    const s = report.slices[0]!
    expect(report.status).toBe("failed")
    expect(s.status).toBe("failed")
    expect(s.error).toMatch(
      new RegExp(`^Decode on GET data ${DELEGATORS}\\?.*pageToken=\\S+ \\(HTTP 200\\): body is not valid JSON \\(${NOT_JSON.length} bytes\\): .* \\(gave up after 2 retries\\)$`)
    )
    expect(proxy.hits.filter((h) => h.url.pathname === DELEGATORS).length).toBe(3 + 3)
    expect((await readCheckpoints(out))[0]).toMatchObject({ status: "failed", pagesCommitted: 3, rowsCommitted: 296, rejectsCommitted: 4 })
  })
})
