/**
 * The record-and-replay proxy the bench puts in front of the emulator. A request seen before is
 * answered from the recording with its exact bytes (one positioned read, nothing parsed), so the
 * methods measured all read identical pages and the emulator's own cost (~170 µs a row) stays out
 * of the measurement. In "record" mode a request not seen before is forwarded upstream, its
 * response recorded and then served from the same bytes; in "replay" mode it is a 599 and counted,
 * so a measured run can never quietly reach the emulator. In "pass" mode every request is forwarded
 * and nothing is recorded: a deterministic upstream (repeatedPages.ts) whose pages would not fit
 * the disk serves every run the same pages as they are made.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { keyOf, type RecordStore } from "./cache.ts"

export type ProxyMode = "record" | "replay" | "pass"

export interface ProxyCounters {
  requests: number
  /** Served from the recording. */
  hits: number
  /** Forwarded upstream to be recorded (record mode) or refused (replay mode); pass mode counts none. */
  misses: number
  bytes: number
}

export interface ReplayProxy {
  readonly url: string
  mode: ProxyMode
  readonly counters: ProxyCounters
  /** Zeroes the counters: the harness reads them per measured run. */
  reset(): void
  close(): Promise<void>
}

/** A request's whole body. */
export const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** A whole response: status, content type, length and body. */
export const send = (res: ServerResponse, status: number, contentType: string, body: Buffer | string): void => {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) })
  res.end(body)
}

/**
 * `upstream` gives the base URL to forward misses to; it is called on the first miss only, so a
 * replay that finds everything recorded never starts the emulator.
 */
export const startProxy = async (store: RecordStore, upstream: () => Promise<string>, mode: ProxyMode): Promise<ReplayProxy> => {
  const counters: ProxyCounters = { requests: 0, hits: 0, misses: 0, bytes: 0 }
  // concurrent clients asking the same page while it is being recorded share one upstream request
  const inFlight = new Map<string, Promise<void>>()
  const state = { mode }

  const forward = async (method: string, url: string, headers: IncomingMessage["headers"], body: Buffer) => {
    const base = await upstream()
    const init: RequestInit = { method, headers: { ...(headers["content-type"] ? { "content-type": headers["content-type"] } : {}) } }
    if (body.length > 0) init.body = body
    const response = await fetch(`${base}${url}`, init)
    return { status: response.status, contentType: response.headers.get("content-type") ?? "application/json", bytes: Buffer.from(await response.arrayBuffer()) }
  }

  const record = async (key: string, method: string, url: string, headers: IncomingMessage["headers"], body: Buffer): Promise<void> => {
    const { status, contentType, bytes } = await forward(method, url, headers, body)
    // only answers worth replaying: an error page would make every replay fail the same way
    if (status >= 200 && status < 300) {
      store.put(key, status, contentType, bytes)
    } else {
      throw Object.assign(new Error(`upstream ${status} for ${method} ${url}: ${bytes.toString().slice(0, 200)}`), { status, bytes })
    }
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req)
    const method = req.method ?? "GET"
    const url = req.url ?? "/"
    counters.requests++
    if (state.mode === "pass") {
      const answer = await forward(method, url, req.headers, body)
      counters.bytes += answer.bytes.length
      return send(res, answer.status, answer.contentType, answer.bytes)
    }
    const key = keyOf({ method, url, body })
    let entry = store.get(key)
    if (entry === undefined) {
      counters.misses++
      if (state.mode === "replay") return send(res, 599, "text/plain", Buffer.from(`not recorded: ${method} ${url}\n`))
      let pending = inFlight.get(key)
      if (pending === undefined) {
        pending = record(key, method, url, req.headers, body).finally(() => inFlight.delete(key))
        inFlight.set(key, pending)
      }
      try {
        await pending
      } catch (e) {
        const err = e as Error & { status?: number; bytes?: Buffer }
        return send(res, err.status ?? 502, "text/plain", err.bytes ?? Buffer.from(String(err.message)))
      }
      entry = store.get(key)!
    } else {
      counters.hits++
    }
    const bytes = await store.read(entry)
    counters.bytes += bytes.length
    send(res, entry.status, entry.contentType, bytes)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain", Buffer.from(String(e)))
      else res.destroy()
    })
  })
  // loopback only: the recordings are served to this machine's benchmark runs and nobody else
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode
    },
    set mode(m: ProxyMode) {
      state.mode = m
    },
    counters,
    reset: () => {
      counters.requests = 0
      counters.hits = 0
      counters.misses = 0
      counters.bytes = 0
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      })
  }
}
