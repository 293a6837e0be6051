/**
 * An upstream that serves a larger case from a smaller case's recording: every listing of the
 * dataset is served `times` times over, one copy after the other, each copy's records with keys of
 * their own. It stands where the emulator would (the proxy records what it answers, as it records
 * the emulator), for sizes the emulator cannot reach in hours: its ids are hashes of bytes, so
 * `staking_transactions` at 1M rows would hash a P-chain of ~1.3M blocks first (README →
 * Performance, Sizes).
 *
 * What a copy is: the source's pages of that listing, byte for byte, but for
 * - the records' keys (`BenchDataset.copyKeys`): copy 0 keeps them, copy c rewrites them so no
 *   two copies share a key (nothing of chainetl's sees a repeat: no listing restarts, no row
 *   dropped as already committed);
 * - the page token: `rp<c>.<source token>`; the source's last page of a listing leads to copy
 *   c + 1's first page (`rp<c+1>.`), and copy `times − 1`'s last page ends the listing.
 * Requests outside the dataset's listing route (a latest-block lookup) are the source's, as
 * recorded. Every method reads the same pages (the proxy's recording), so the comparison holds;
 * what does not is the minimum of requests: each copy ends on a partial page, so a listing takes
 * up to `times − 1` requests more than ⌈rows / page size⌉.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { canonicalUrl, keyOf, RecordStore } from "./cache.ts"
import { readBody, send } from "./proxy.ts"
import type { Upstream } from "./upstream.ts"

const PREFIX = "rp"

/** The source request a (copy, token) stands for, and the copy; undefined for a foreign token. */
export const sourceOf = (url: string): { readonly copy: number; readonly url: string } | undefined => {
  const u = new URL(url, "http://x")
  const token = u.searchParams.get("pageToken")
  if (token === null) return { copy: 0, url: canonicalUrl(url) }
  const m = /^rp(\d+)\.(.*)$/s.exec(token)
  if (m === null) return undefined
  if (m[2] === "") u.searchParams.delete("pageToken")
  else u.searchParams.set("pageToken", m[2]!)
  return { copy: Number(m[1]), url: canonicalUrl(`${u.pathname}${u.search}`) }
}

const TOKEN = /"nextPageToken":"([^"]*)"/

/** The body of copy `copy` of a listing page: keys rewritten, the page token leading on. */
export const copyPage = (body: string, copy: number, times: number, copyKeys: (body: string, copy: number) => string): string => {
  const keyed = copy === 0 ? body : copyKeys(body, copy)
  const next = TOKEN.exec(keyed)?.[1]
  const token = next !== undefined && next !== "" ? `${PREFIX}${copy}.${next}` : copy + 1 < times ? `${PREFIX}${copy + 1}.` : undefined
  // the last copy's last page ends the listing as the source's last page did
  if (token === undefined) return keyed
  if (next !== undefined) return keyed.replace(TOKEN, `"nextPageToken":"${token}"`)
  // no token field on the source's last page: add one (a JSON object: its first character is "{")
  return `{"nextPageToken":"${token}",${keyed.slice(1)}`
}

/**
 * `sourceDir` is the smaller case's `recording/` folder; `listingPaths` are the paths of the
 * dataset's listings (BenchDataset.listings: chainetl's windows ask the same paths).
 */
export const repeatedPages = (sourceDir: string, times: number, listingPaths: ReadonlySet<string>, copyKeys: (body: string, copy: number) => string): Upstream => {
  let started: Promise<{ url: string; close: () => Promise<void> }> | undefined
  const store = RecordStore.open(sourceDir)
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req)
    const method = req.method ?? "GET"
    const url = req.url ?? "/"
    const isListing = listingPaths.has(new URL(url, "http://x").pathname)
    const source = isListing ? sourceOf(url) : { copy: 0, url }
    if (source === undefined || source.copy >= times) return send(res, 400, "text/plain", `not a page token of this replay: ${url}\n`)
    const entry = store.get(keyOf({ method, url: source.url, body }))
    if (entry === undefined) return send(res, 404, "text/plain", `the source recording has no ${method} ${source.url}\n`)
    const bytes = await store.read(entry)
    send(res, entry.status, entry.contentType, isListing ? copyPage(bytes.toString("utf8"), source.copy, times, copyKeys) : bytes)
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
