/**
 * The service the pace bench crawls: pages recorded from the emulator once, then served from
 * memory after a fixed latency, so the run sees a real service's round trip and none of the
 * emulator's CPU. In "record" mode a page not seen yet is fetched upstream and kept; in "replay"
 * mode too, but counted as a miss and still answered after the latency (the recording crawl plans
 * its windows with no latency, so a measured backfill that cuts its long listings asks for pieces
 * it never recorded: src/crawl/SplitListings.ts). It keeps what the bench reports: requests, misses,
 * the span from the first request's arrival to the last answer, and the most requests it held at
 * once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { keyOf } from "../e2e/cache.ts"
import { readBody, send } from "../e2e/proxy.ts"

interface Page {
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
}

export interface ReplayCounters {
  requests: number
  misses: number
  /** performance.now() of the first request and of the last answer; NaN before any. */
  first: number
  last: number
  inFlight: number
  maxInFlight: number
  /** Each request's arrival, ms after the first: where a run left the allowance unused. */
  readonly arrivals: number[]
}

export interface PaceReplay {
  readonly url: string
  mode: "record" | "replay"
  latencyMs: number
  readonly pages: number
  readonly counters: ReplayCounters
  reset(): void
  close(): Promise<void>
}

const fresh = (): ReplayCounters => ({ requests: 0, misses: 0, first: Number.NaN, last: Number.NaN, inFlight: 0, maxInFlight: 0, arrivals: [] })

export const startReplay = async (upstream: () => Promise<string>): Promise<PaceReplay> => {
  const pages = new Map<string, Page>()
  const state = { mode: "record" as "record" | "replay", latencyMs: 0, counters: fresh() }

  const fetchUpstream = async (req: IncomingMessage, url: string, body: Buffer): Promise<Page> => {
    const init: RequestInit = { method: req.method ?? "GET", headers: req.headers["content-type"] ? { "content-type": req.headers["content-type"] } : {} }
    if (body.length > 0) init.body = body
    const r = await fetch(`${await upstream()}${url}`, init)
    return { status: r.status, contentType: r.headers.get("content-type") ?? "application/json", body: Buffer.from(await r.arrayBuffer()) }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const c = state.counters
    const arrived = performance.now()
    if (Number.isNaN(c.first)) c.first = arrived
    c.requests++
    c.arrivals.push(Math.round(arrived - c.first))
    c.inFlight++
    c.maxInFlight = Math.max(c.maxInFlight, c.inFlight)
    try {
      const body = await readBody(req)
      const url = req.url ?? "/"
      const key = keyOf({ method: req.method ?? "GET", url, body })
      let page = pages.get(key)
      if (page === undefined) {
        if (state.mode === "replay") c.misses++
        page = await fetchUpstream(req, url, body)
        // only answers worth replaying: an error page would make every replay fail the same way
        if (page.status >= 200 && page.status < 300) pages.set(key, page)
      }
      // the latency counts from arrival, as a service's round trip does
      const wait = state.latencyMs - (performance.now() - arrived)
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      send(res, page.status, page.contentType, page.body)
    } finally {
      c.inFlight--
      c.last = performance.now()
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain", String(e))
      else res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode
    },
    set mode(m) {
      state.mode = m
    },
    get latencyMs() {
      return state.latencyMs
    },
    set latencyMs(ms) {
      state.latencyMs = ms
    },
    get pages() {
      return pages.size
    },
    get counters() {
      return state.counters
    },
    reset: () => {
      state.counters = fresh()
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
  }
}
