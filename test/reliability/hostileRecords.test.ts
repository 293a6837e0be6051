/**
 * Issue 14, rule 3: records a service should never send become rejects or rows, never a failed
 * slice or altered text. A proxy in front of the emulator spoils pages of two listings:
 * - delegators' page 0: record 4's `nodeId` carries bytes that are not UTF-8 (0xC3 0x28): that
 *   record goes to `_rejects` with the reason, and no row holds a U+FFFD the service never sent;
 *   record 9 carries a field nested 100,000 levels deep, and record 12 an integer above 2^64 in a
 *   field no document lists and a field named `__proto__`: the page parses (no recursion to
 *   overflow), both are rows, and each unknown field is counted;
 * - delegators' page 1: five records out of range or of the wrong type (a 60-digit amount, a
 *   negative amount, a start in the year 300,000, an end before year 1, addresses as a string);
 * - the first page of P-chain blocks: a negative height, a transaction count past INTEGER, a
 *   block size past BIGINT.
 * Each spoiled record of pages 1 and the blocks' is sent in its own spelling (keys reversed, odd
 * whitespace, an escaped letter, `1.0e3`): its `_rejects.raw` must be those exact characters, its
 * reason must say what is wrong, and every other record of its page must be a row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { fetchAll, query, runInProcess } from "../support/spine.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { DELEGATORS, type Proxy, forward, pageCounter, startProxy } from "../support/proxy.ts"

const BLOCKS = "/v1/networks/mainnet/blockchains/p-chain/blocks"
const DEPTH = 100_000
/** Stands for the invalid bytes in the text until the bytes are rewritten. */
const PLACEHOLDER = "@@NOT-UTF8@@"

type Rec = Record<string, unknown>

/** Delegators' page 1: which records are spoiled, how, and the reason each must get. */
const DELEGATOR_SPOILS: ReadonlyArray<readonly [index: number, spoil: (r: Rec) => void, reason: RegExp]> = [
  [1, (r) => void (r["amountDelegated"] = "123456789012345678901234567890123456789012345678901234567890"), /^column amount_delegated out of range: 60 digits, more than the 38 of DECIMAL\(38,0\)$/],
  [3, (r) => void (r["amountDelegated"] = "-25000000000"), /^column amount_delegated out of range: -25000000000 is negative; the column holds no negative values$/],
  // the year 300,000 in seconds, and a time before year 1: no instant a chain has
  [5, (r) => void (r["startTimestamp"] = 9_466_848_000_000), /\["startTimestamp"\].*expected a Unix timestamp in seconds between 2000 and 2200$/],
  [7, (r) => void (r["endTimestamp"] = -62_198_755_200), /\["endTimestamp"\].*expected a Unix timestamp in seconds between 2000 and 2200$/],
  [9, (r) => void (r["rewardAddresses"] = "P-avax1notalist"), /\["rewardAddresses"\].*Expected ReadonlyArray<string>, actual "P-avax1notalist"$/]
]

/** The first page of P-chain blocks. */
const BLOCK_SPOILS: ReadonlyArray<readonly [index: number, spoil: (r: Rec) => void, reason: RegExp]> = [
  [2, (r) => void (r["blockNumber"] = "-7"), /^column block_number out of range: -7 is negative; the column holds no negative values$/],
  [5, (r) => void (r["txCount"] = 2 ** 31), /^column tx_count out of range: 2147483648 is outside INTEGER \(0 to 2147483647\)$/],
  [8, (r) => void (r["blockSizeBytes"] = 2n ** 64n), /^column block_size_bytes out of range: 18446744073709551616 is outside BIGINT \(0 to 9223372036854775807\)$/]
]

/**
 * A record in a spelling of its own: keys in reverse order, a space before each colon, newlines,
 * its first capital N escaped as \u004e, and an unknown field spelled 1.0e3. The same values.
 */
const ownSpelling = (r: Rec): string => {
  const value = (v: unknown) => (typeof v === "bigint" ? v.toString() : JSON.stringify(v).replace(/"N/, '"\\u004e'))
  const fields = Object.entries(r).reverse().map(([k, v]) => `${JSON.stringify(k)} : ${value(v)}`)
  return `{\n  ${fields.join(",\n  ")},\n\t"feeHint": 1.0e3 }`
}

/** `items` of `body` written with the spoiled records (by index) in their own spelling. */
const pageText = (body: Rec, items: string, spoiled: ReadonlyMap<number, string>): string => {
  const records = body[items] as unknown[]
  const marked = { ...body, [items]: records.map((r, i) => (spoiled.has(i) ? `@@RECORD-${i}@@` : r)) }
  let text = JSON.stringify(marked)
  for (const [i, raw] of spoiled) text = text.replace(`"@@RECORD-${i}@@"`, () => raw)
  return text
}

/** Spoils `records` at the given indexes and gives each spoiled record's text as it will be sent. */
const spoilAll = (records: Rec[], spoils: ReadonlyArray<readonly [number, (r: Rec) => void, RegExp]>): Map<number, string> =>
  new Map(
    spoils.map(([i, spoil]) => {
      spoil(records[i]!)
      return [i, ownSpelling(records[i]!)] as const
    })
  )

describe("hostile records: invalid UTF-8, deep nesting, values out of range, wrong types", () => {
  const hostileDir = tempFolders("hostile")
  let emu: RunningEmulator
  let proxy: Proxy
  let out: string
  let report: RunReport
  let firstPage: Rec[] = []
  let secondPage: Rec[] = []
  let blocks: Rec[] = []
  /** The exact text of each spoiled record as sent, by its key. */
  const sentDelegators = new Map<string, string>()
  const sentBlocks = new Map<string, string>()
  beforeAll(async () => {
    emu = await startEmulator({ seed: 1 })
    const delegatorPage = pageCounter(DELEGATORS)
    proxy = await startProxy(emu.baseUrl, (req) => {
      const page = delegatorPage(req)
      // the first P-chain page of any window (not the one-block probe for the newest time)
      if (req.url.pathname === BLOCKS && req.url.searchParams.get("pageSize") !== "1" && blocks.length === 0) {
        return {
          kind: "forward",
          rewrite: (text) => {
            const body = JSON.parse(text) as { blocks: Rec[] }
            if (blocks.length > 0 || body.blocks.length < 10) return text
            blocks = body.blocks.map((r) => ({ ...r }))
            const spoiled = spoilAll(body.blocks, BLOCK_SPOILS)
            for (const [i, raw] of spoiled) sentBlocks.set(String(body.blocks[i]!["blockHash"]), raw)
            return pageText(body, "blocks", spoiled)
          }
        }
      }
      if (page === 1) {
        return {
          kind: "forward",
          rewrite: (text) => {
            const body = JSON.parse(text) as { delegators: Rec[] }
            secondPage = body.delegators.map((r) => ({ ...r }))
            const spoiled = spoilAll(body.delegators, DELEGATOR_SPOILS)
            for (const [i, raw] of spoiled) sentDelegators.set(String(body.delegators[i]!["txHash"]), raw)
            return pageText(body, "delegators", spoiled)
          }
        }
      }
      if (page !== 0) return forward
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
            .replace('"sortKey":"BIG"', '"sortKey":123456789012345678901234567890,"__proto__":{"polluted":true}')
        },
        rewriteBytes: (bytes) => {
          const at = bytes.indexOf(PLACEHOLDER)
          return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28]), bytes.subarray(at + PLACEHOLDER.length)])
        }
      }
    })
    out = await hostileDir()
    report = await runInProcess(out, emu, { datasets: ["delegators", "primary_blocks"], job: campaignJob(emu), urls: { baseUrl: proxy.url }, partRows: 1000 })
  }, 180_000)
  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  const catalog = () => path.join(out, "catalog.duckdb")

  it("given spoiled records on three pages, when the run ends, then every slice succeeded", () => {
    expect(report.slices.filter((s) => s.status !== "done" && s.status !== "skipped")).toEqual([])
    expect(blocks.length).toBeGreaterThanOrEqual(10)
    expect(report.slices.find((s) => s.dataset === "delegators")!.rejects).toBe(1 + DELEGATOR_SPOILS.length)
    expect(report.slices.reduce((n, s) => n + (s.dataset === "primary_blocks" ? s.rejects : 0), 0)).toBe(BLOCK_SPOILS.length)
  })

  it("given a record with bytes that are not UTF-8, when the run ends, then it is a reject with the reason", async () => {
    const rejects = await query(catalog(), "SELECT page, reason, json_extract_string(raw, '$.txHash') AS tx FROM _rejects WHERE dataset = 'delegators' AND page = 0")
    expect(rejects).toEqual([{ page: 0, reason: expect.stringMatching(/not valid UTF-8/) as unknown, tx: firstPage[4]!["txHash"] }])
  })

  it("given delegations out of range or of the wrong type, when the run ends, then each is a reject with its exact text as sent and its reason", async () => {
    const rejects = await query(catalog(), "SELECT page, raw, reason FROM _rejects WHERE dataset = 'delegators' AND page = 1")
    expect(rejects).toHaveLength(DELEGATOR_SPOILS.length)
    for (const [i, , reason] of DELEGATOR_SPOILS) {
      const sent = sentDelegators.get(String(secondPage[i]!["txHash"]))!
      const reject = rejects.find((r) => r["raw"] === sent)
      // byte for byte: the record's spelling, whitespace and key order as the proxy sent them
      expect(reject, `record ${i}: ${sent.slice(0, 80)}`).toBeDefined()
      expect(Buffer.from(String(reject!["raw"])).equals(Buffer.from(sent))).toBe(true)
      expect(String(reject!["reason"])).toMatch(reason)
    }
  })

  it("given blocks with a negative height, a count past INTEGER and a size past BIGINT, when the run ends, then each is a reject with its exact text and the column in its reason", async () => {
    const rejects = await query(catalog(), "SELECT raw, reason FROM _rejects WHERE dataset = 'primary_blocks'")
    expect(rejects).toHaveLength(BLOCK_SPOILS.length)
    for (const [i, , reason] of BLOCK_SPOILS) {
      const sent = sentBlocks.get(String(blocks[i]!["blockHash"]))!
      expect(sent).toContain("1.0e3")
      const reject = rejects.find((r) => r["raw"] === sent)
      expect(reject, `block ${i}: ${sent.slice(0, 80)}`).toBeDefined()
      expect(String(reject!["reason"])).toMatch(reason)
    }
  })

  it("given the rest of the delegators' listing, when the run ends, then every other delegation is a row and none holds a replacement character", async () => {
    const clean = await fetchAll(`${emu.baseUrl}${DELEGATORS}`, "delegators", { sortOrder: "asc" })
    const rejected = new Set([String(firstPage[4]!["txHash"]), ...DELEGATOR_SPOILS.map(([i]) => String(secondPage[i]!["txHash"]))])
    const expected = clean.map((d) => String(d["txHash"])).filter((h) => !rejected.has(h)).sort()
    const rows = await query(catalog(), `SELECT tx_hash FROM delegators ORDER BY tx_hash COLLATE "C"`)
    expect(rows.map((r) => r["tx_hash"])).toEqual(expected)
    const altered = await query(catalog(), `SELECT count(*)::INTEGER AS n FROM delegators WHERE node_id LIKE '%' || chr(65533) || '%'`)
    expect(altered).toEqual([{ n: 0 }])
  })

  it("given the spoiled page of blocks, when the run ends, then its other blocks are rows", async () => {
    const spoiled = new Set(BLOCK_SPOILS.map(([i]) => i))
    const others = blocks.filter((_, i) => !spoiled.has(i)).map((b) => `'${String(b["blockHash"])}'`)
    const rows = await query(catalog(), `SELECT count(*)::INTEGER AS n FROM primary_blocks WHERE block_hash IN (${others.join(",")})`)
    expect(rows).toEqual([{ n: others.length }])
    const rejectedRows = await query(catalog(), `SELECT count(*)::INTEGER AS n FROM primary_blocks WHERE block_hash IN (${BLOCK_SPOILS.map(([i]) => `'${String(blocks[i]!["blockHash"])}'`).join(",")})`)
    expect(rejectedRows).toEqual([{ n: 0 }])
  })

  it("given a record nested 100,000 levels deep and a big integer on the same page, when parsed, then both records are rows and the unknown fields are counted", async () => {
    const rows = await query(
      catalog(),
      `SELECT count(*)::INTEGER AS n FROM delegators WHERE tx_hash IN ('${String(firstPage[9]!["txHash"])}', '${String(firstPage[12]!["txHash"])}')`
    )
    expect(rows).toEqual([{ n: 2 }])
    // the spoiled records' feeHint is not counted: a rejected record's fields are not the dataset's
    // a field named __proto__ is a field like any other (JSON.parse makes it an own property), counted and polluting nothing
    const unknown = report.slices.find((s) => s.dataset === "delegators")!.unknownFields
    expect(Object.entries(unknown).sort()).toEqual([["__proto__", 1], ["deepNote", 1], ["sortKey", 1]])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})
