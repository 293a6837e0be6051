/**
 * An upstream that serves a larger case from a smaller case's recording: every record of a
 * listing is served `times` times, its copies side by side. It stands where the emulator would
 * (the proxy records what it answers, as it records the emulator), for sizes the emulator cannot
 * reach in hours: its ids are hashes of bytes, so `staking_transactions` at 1M rows would hash a
 * P-chain of ~1.3M blocks first ("Sizes the emulator cannot reach" in
 * docs/performance.md#end-to-end-chainetl-against-what-a-user-would-write-instead).
 *
 * The listing it serves is the source listing made `times` times denser:
 * - copy c of a record (`copyRecord`) has keys of its own (c ≥ 1) and its block numbers h made
 *   h × times + c, so the copies of a block sit between the block before and the block after.
 *   The listing keeps the source's direction, a part's rows span a range of height no other part
 *   reaches, and compaction concatenates as it does a real crawl's (a first version served whole
 *   copies one after the other: a part holding the end of one and the start of the next spanned
 *   every height between them, and the months it crossed were sorted);
 * - pages are full (the request's page size) but the last, so a listing takes the minimum of
 *   requests, ⌈rows / page size⌉. A page token `rs…` says where the next page starts: which source
 *   page, the one before it, and how far into the source page's copies;
 * - a block's records can span two source pages. Its copies must still come out together, so a
 *   source page's copies are those of its records but the leading ones of the previous page's
 *   last block, plus the next page's leading records of its own last block. (A block spanning
 *   three pages is refused: the recordings hold none.)
 * Requests outside the dataset's listing routes (a latest-block lookup) are the source's, as
 * recorded. Every method reads the same pages (the proxy's recording), and a record's copies are
 * the same whichever listing (a window of chainetl's, a reference's one listing) serves them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { keyOf, RecordStore } from "./cache.ts"
import { copyRecord, type RepeatRule, spreadHeight } from "./datasets.ts"
import { elementsOf, membersOf, topLevelString } from "./jsonText.ts"
import { readBody, send } from "./proxy.ts"
import type { Upstream } from "./upstream.ts"

/** Where a served page starts: source page `cur` ("" the first, else its token), the one before (null: none), `off` copies in. */
export interface SpreadState {
  readonly prev: string | null
  readonly cur: string
  readonly off: number
}

const PREFIX = "rs"

export const encodeToken = (s: SpreadState): string => `${PREFIX}${Buffer.from(JSON.stringify([s.prev, s.cur, s.off])).toString("base64url")}`

/** The state a token stands for; undefined for a token not of this server's. */
export const decodeToken = (token: string): SpreadState | undefined => {
  if (!token.startsWith(PREFIX)) return undefined
  try {
    const [prev, cur, off] = JSON.parse(Buffer.from(token.slice(PREFIX.length), "base64url").toString("utf8")) as [unknown, unknown, unknown]
    if ((prev !== null && typeof prev !== "string") || typeof cur !== "string" || typeof off !== "number" || !Number.isSafeInteger(off) || off < 0) return undefined
    return { prev, cur, off }
  } catch {
    return undefined
  }
}

/** A source listing page as text: the records, their top-level heights, and the text around them without its page token. */
export interface SourcePage {
  readonly before: string
  readonly after: string
  readonly records: ReadonlyArray<string>
  readonly heights: ReadonlyArray<bigint>
  readonly next: string | undefined
}

export const readSourcePage = (body: string, items: string): SourcePage => {
  const members = membersOf(body)
  const array = members.find((m) => m.key === items)
  if (array === undefined || body.charCodeAt(array.valueStart) !== 0x5b) throw new Error(`a listing page without its "${items}" array`)
  const records = elementsOf(body, array.valueStart, array.valueEnd)
  const heights = records.map((r) => {
    const h = topLevelString(r, "blockNumber")
    if (h === undefined || !/^\d+$/.test(h)) throw new Error(`a record without a decimal blockNumber: ${r.slice(0, 120)}`)
    return BigInt(h)
  })
  let before = body.slice(0, array.valueStart + 1)
  let after = body.slice(array.valueEnd - 1)
  const at = members.findIndex((m) => m.key === "nextPageToken")
  const token = members[at]
  if (token === undefined) return { before, after, records, heights, next: undefined }
  const next = JSON.parse(body.slice(token.valueStart, token.valueEnd)) as string | null
  // the page without its token, on whichever side of the array it stands: a served page sets its own (pageText)
  const following = members[at + 1]
  const [from, to] = following !== undefined ? [token.start, following.start] : [members[at - 1]!.valueEnd, token.valueEnd]
  if (to <= array.start) before = `${before.slice(0, from)}${before.slice(to)}`
  else after = `${after.slice(0, from - (array.valueEnd - 1))}${after.slice(to - (array.valueEnd - 1))}`
  return { before, after, records, heights, next: typeof next === "string" && next !== "" ? next : undefined }
}

/** How many of `heights`' leading entries equal `height`. */
const leadingAt = (heights: ReadonlyArray<bigint>, height: bigint | undefined): number => {
  let n = 0
  while (n < heights.length && heights[n] === height) n++
  return n
}

/**
 * The records a source page contributes (the `prev`, `cur`, `next` pages around it; see the
 * header on blocks across pages), each copied `times` times, in the listing's order. The order is
 * made at once; a copy's text only when `slice` asks for it: a spread is served over `times`
 * pages, and at ×250 the spreads made whole held 1.6–2.8 GB in the bench's process.
 */
export interface Spread {
  readonly length: number
  /** Copies `[from, to)` as texts. */
  readonly slice: (from: number, to: number) => string[]
}

export const spreadOf = (prev: SourcePage | undefined, cur: SourcePage, next: SourcePage | undefined, times: number, rule: RepeatRule): Spread => {
  const drop = leadingAt(cur.heights, prev?.heights.at(-1))
  const take = next === undefined ? 0 : leadingAt(next.heights, cur.heights.at(-1))
  if ((drop > 0 && drop === cur.records.length) || (take > 0 && take === next!.records.length)) {
    throw new Error("a block's records span three source pages: --pages-of cannot keep its copies together")
  }
  const own = cur.records.slice(drop).map((text, i) => ({ text, height: cur.heights[drop + i]! }))
  const pulled = next === undefined ? [] : next.records.slice(0, take).map((text, i) => ({ text, height: next.heights[i]! }))
  const copies = [...own, ...pulled].flatMap((r) => Array.from({ length: times }, (_, c) => ({ height: spreadHeight(r.height, c, times), text: r.text, copy: c })))
  // stable: records of one block keep their source order within each copy
  copies.sort((a, b) => (a.height === b.height ? 0 : (a.height < b.height) === (rule.order === "asc") ? -1 : 1))
  return { length: copies.length, slice: (from, to) => copies.slice(from, to).map((c) => copyRecord(c.text, c.copy, times, rule.keyField)) }
}

/** Every copy of `spreadOf`, as texts. */
export const spreadRecords = (prev: SourcePage | undefined, cur: SourcePage, next: SourcePage | undefined, times: number, rule: RepeatRule): string[] => {
  const spread = spreadOf(prev, cur, next, times, rule)
  return spread.slice(0, spread.length)
}

/** A page's text with `records` in its items array and `token` as its next page token (none: no such member). */
export const pageText = (source: SourcePage, records: ReadonlyArray<string>, token: string | undefined): string => {
  const open = source.before.indexOf("{") + 1
  const before = token === undefined ? source.before : `${source.before.slice(0, open)}"nextPageToken":${JSON.stringify(token)},${source.before.slice(open)}`
  return `${before}${records.join(",")}${source.after}`
}

/** Thrown for a source response the server cannot spread: it answers with `status`. */
class NotServed extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

/**
 * `sourceDir` is the smaller case's `recording/` folder; `listings` maps each listing route of the
 * dataset to its items array (BenchDataset.listings: chainetl's windows ask the same routes).
 */
export const repeatedPages = (sourceDir: string, times: number, listings: ReadonlyMap<string, string>, rule: RepeatRule, defaultPageSize: number): Upstream => {
  let started: Promise<{ url: string; close: () => Promise<void> }> | undefined
  const store = RecordStore.open(sourceDir)
  // a served page reads up to three source pages, and the next request the same ones: the last few parsed
  const parsed = new Map<string, SourcePage>()
  const sourcePage = async (base: URL, ref: string, items: string): Promise<SourcePage> => {
    const u = new URL(base)
    if (ref !== "") u.searchParams.set("pageToken", ref)
    const url = `${u.pathname}${u.search}`
    const cached = parsed.get(url)
    if (cached !== undefined) return cached
    const entry = store.get(keyOf({ method: "GET", url, body: Buffer.alloc(0) }))
    if (entry === undefined) throw new NotServed(404, `the source recording has no GET ${url}`)
    if (entry.status !== 200) throw new NotServed(502, `the source recorded ${entry.status} for GET ${url}`)
    const page = readSourcePage((await store.read(entry)).toString("utf8"), items)
    parsed.set(url, page)
    if (parsed.size > 32) parsed.delete(parsed.keys().next().value!)
    return page
  }

  // a source page's copies fill `times` served pages in a row: ordered once
  const spreads = new Map<string, Spread>()
  const spreadAt = async (base: URL, state: SpreadState, items: string): Promise<{ readonly cur: SourcePage; readonly spread: Spread }> => {
    const cur = await sourcePage(base, state.cur, items)
    const key = `${base.pathname}${base.search}\n${state.prev}\n${state.cur}`
    let spread = spreads.get(key)
    if (spread === undefined) {
      const prev = state.prev === null ? undefined : await sourcePage(base, state.prev, items)
      const next = cur.next === undefined ? undefined : await sourcePage(base, cur.next, items)
      spread = spreadOf(prev, cur, next, times, rule)
      spreads.set(key, spread)
      if (spreads.size > 8) spreads.delete(spreads.keys().next().value!)
    }
    return { cur, spread }
  }

  const servePage = async (url: string, items: string): Promise<string> => {
    const u = new URL(url, "http://x")
    const token = u.searchParams.get("pageToken")
    u.searchParams.delete("pageToken")
    const decoded = token === null ? { prev: null, cur: "", off: 0 } : decodeToken(token)
    if (decoded === undefined) throw new NotServed(400, `not a page token of this replay: ${token}`)
    const pageSize = Number(u.searchParams.get("pageSize") ?? defaultPageSize)
    let state: SpreadState = decoded
    let envelope: SourcePage | undefined
    const rows: string[] = []
    for (;;) {
      const { cur, spread } = await spreadAt(u, state, items)
      envelope ??= cur
      const taken = spread.slice(state.off, state.off + pageSize - rows.length)
      rows.push(...taken)
      state = { ...state, off: state.off + taken.length }
      if (state.off < spread.length) break
      if (cur.next === undefined) return pageText(envelope, rows, undefined)
      state = { prev: state.cur, cur: cur.next, off: 0 }
      if (rows.length >= pageSize) break
    }
    return pageText(envelope, rows, encodeToken(state))
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req)
    const method = req.method ?? "GET"
    const url = req.url ?? "/"
    const items = listings.get(new URL(url, "http://x").pathname)
    if (items === undefined || method !== "GET") {
      const entry = store.get(keyOf({ method, url, body }))
      if (entry === undefined) return send(res, 404, "text/plain", `the source recording has no ${method} ${url}\n`)
      return send(res, entry.status, entry.contentType, await store.read(entry))
    }
    try {
      send(res, 200, "application/json; charset=utf-8", await servePage(url, items))
    } catch (e) {
      if (!(e instanceof NotServed)) throw e
      send(res, e.status, "text/plain", `${e.message}\n`)
    }
  }
  return {
    url: async () => {
      started ??= new Promise((resolve) => {
        const server = createServer((req, res) => void handle(req, res).catch((e: unknown) => send(res, 500, "text/plain", String(e))))
        server.listen(0, "127.0.0.1", () =>
          resolve({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            close: () => new Promise<void>((done) => server.close(() => done()))
          })
        )
      })
      return (await started).url
    },
    close: async () => {
      if (started !== undefined) await (await started).close()
      store.close()
    }
  }
}
