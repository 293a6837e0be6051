/**
 * A proxy in front of a service (the emulator) that can fail, delay or rewrite chosen requests:
 * a flaky upstream whose flakiness a test decides. Whoever starts one closes it.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

export interface ProxiedRequest {
  readonly method: string
  readonly url: URL
  readonly headers: IncomingMessage["headers"]
}

/** What the proxy does with a request: forward it (after `delayMs`, its answer rewritten), or answer it itself. */
export type ProxyDecision =
  | {
      readonly kind: "forward"
      readonly delayMs?: number
      /** Held until this settles (a gate the test opens). */
      readonly after?: Promise<unknown>
      readonly rewrite?: (body: string) => string
      /** Rewrites the body's bytes after `rewrite` (bytes a string cannot carry: invalid UTF-8). */
      readonly rewriteBytes?: (body: Buffer) => Buffer
      /** Send the body in pieces of `chunkBytes`, one every `everyMs` (a large body arriving slowly). */
      readonly pace?: { readonly chunkBytes: number; readonly everyMs: number }
      /** Send the headers and this many bytes of the body, then nothing more (a stalled connection). */
      readonly stallAfterBytes?: number
    }
  | { readonly kind: "answer"; readonly status: number; readonly body: string; readonly headers?: Record<string, string> }

export interface Proxy {
  readonly url: string
  /** Every request seen, in order. */
  readonly hits: ProxiedRequest[]
  close(): Promise<void>
}

/** Headers of one connection, not of the request: fetch sets its own. */
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"])

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = []
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c)
  return Buffer.concat(chunks)
}

/** A plain HTTP proxy to `target` (an emulator's root) that asks `decide` about each request. */
export const startProxy = async (target: string, decide: (req: ProxiedRequest) => ProxyDecision): Promise<Proxy> => {
  const hits: ProxiedRequest[] = []
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", target)
      const seen: ProxiedRequest = { method: req.method ?? "GET", url, headers: req.headers }
      hits.push(seen)
      const body = await readAll(req)
      const decision = decide(seen)
      if (decision.kind === "answer") {
        res.writeHead(decision.status, { "content-type": "application/json", ...decision.headers })
        res.end(decision.body)
        return
      }
      if (decision.delayMs !== undefined && decision.delayMs > 0) await new Promise((r) => setTimeout(r, decision.delayMs))
      if (decision.after !== undefined) await decision.after
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && !HOP_BY_HOP.has(k)) headers[k] = v
      const upstream = await fetch(url, { method: seen.method, headers, ...(body.length > 0 ? { body } : {}) })
      const received = Buffer.from(await upstream.arrayBuffer())
      const text = decision.rewrite === undefined ? received : Buffer.from(decision.rewrite(received.toString("utf8")))
      const bytes = decision.rewriteBytes === undefined ? text : decision.rewriteBytes(text)
      const out: Record<string, string> = { "content-type": upstream.headers.get("content-type") ?? "application/json" }
      const retryAfter = upstream.headers.get("retry-after")
      if (retryAfter !== null) out["retry-after"] = retryAfter
      if (decision.stallAfterBytes !== undefined) {
        res.writeHead(upstream.status, { ...out, "content-length": String(bytes.length) })
        res.write(bytes.subarray(0, decision.stallAfterBytes))
        return
      }
      if (decision.pace !== undefined) {
        res.writeHead(upstream.status, { ...out, "content-length": String(bytes.length) })
        for (let at = 0; at < bytes.length; at += decision.pace.chunkBytes) {
          if (res.destroyed) return
          res.write(bytes.subarray(at, at + decision.pace.chunkBytes))
          await new Promise((r) => setTimeout(r, decision.pace!.everyMs))
        }
        res.end()
        return
      }
      res.writeHead(upstream.status, out)
      res.end(bytes)
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: `proxy: ${String(e)}`, statusCode: 502, error: "Bad Gateway" }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

export const forward: ProxyDecision = { kind: "forward" }

/**
 * Counts the pages of one listing as the proxy sees them: the request of `pathname` without a
 * page token is page 0, each following one the next; other paths are undefined.
 */
export const pageCounter = (pathname: string) => {
  let page = -1
  return (req: ProxiedRequest): number | undefined => {
    if (req.url.pathname !== pathname) return undefined
    page = req.url.searchParams.has("pageToken") ? page + 1 : 0
    return page
  }
}

/** Route 8, the delegators listing the resume tests break after its first page. */
export const DELEGATORS = "/v1/networks/mainnet/delegators"

/**
 * A proxy whose delegators listing answers 503 to every page after the first (a page token) until
 * `heal()`; everything else is forwarded. The first page commits, the slice then fails past its
 * retries, and the run after healing shows whether it resumed from its checkpoint.
 */
export const startBrokenDelegators = async (target: string): Promise<Proxy & { readonly heal: () => void }> => {
  let broken = true
  const proxy = await startProxy(target, (req) =>
    broken && req.url.pathname === DELEGATORS && req.url.searchParams.has("pageToken")
      ? { kind: "answer", status: 503, body: JSON.stringify({ message: "upstream maintenance", statusCode: 503, error: "Service Unavailable" }) }
      : forward
  )
  return Object.assign(proxy, { heal: () => void (broken = false) })
}
