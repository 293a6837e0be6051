/**
 * One HTTP attempt on node:http / node:https: send the request, wait for the status line, read
 * the body as it arrives. Nothing else: retries, the limiter, status meaning and stats are
 * SourceHttp's.
 *
 * Why not @effect/platform's HttpClient: with the body read as an Effect Stream under
 * `Stream.timeoutFail` it cost several times the CPU a request of our whole RestClient on this
 * transport (limiter, stats, retry, parse included), when requests were chainetl's biggest
 * per-page cost (`npm run bench -- --http`; docs/performance.md, "Why the code is shaped so"). The timeouts here are two node timers, not fibers racing.
 *
 * The failures keep what went wrong and nothing of the request (its headers carry the API key):
 * - no status line within `timeoutMs` of sending → Timeout;
 * - a body silent for `timeoutMs` (a stalled connection; a large body still arriving is fine) → Timeout;
 * - a socket error before or during the body → Transport, with its code (ECONNRESET, ECONNREFUSED);
 * - a body past `maxBodyBytes` → TooLarge, never retried.
 * Interrupting the attempt (a run stopping) destroys the socket.
 */
import * as http from "node:http"
import * as https from "node:https"
import { Context, Effect, Layer } from "effect"
import { SourceError } from "../Errors.ts"
import { type AttemptFailure, attemptFailure } from "./Retry.ts"

export interface Exchange {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** Sent as is, with `content-type: application/json`. */
  readonly body?: string
}

export interface Limits {
  /** The longest wait for the status line, and the longest silence within the body. */
  readonly timeoutMs: number
  readonly maxBodyBytes: number
}

export interface Answer {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly bytes: Uint8Array
}

export interface TransportService {
  readonly send: (exchange: Exchange, limits: Limits, label: string) => Effect.Effect<Answer, AttemptFailure>
}

const mb = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 100) / 100)

/** `ECONNRESET socket hang up`: the code when there is one, then the message. */
const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return `${typeof code === "string" ? `${code} ` : ""}${error.message}`
  }
  return String(error)
}

/** How many stale kept-alive sockets one request may meet before its error counts. */
const MAX_STALE_SOCKETS = 3

/** The errors of writing to a connection the server has already closed. */
const isStaleSocket = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code
  return code === "ECONNRESET" || code === "EPIPE"
}

export const makeNodeTransport = (): TransportService & { readonly close: () => void } => {
  // Sockets are kept alive between requests: one TCP connection serves a listing's pages.
  const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) }

  const send = (exchange: Exchange, limits: Limits, label: string): Effect.Effect<Answer, AttemptFailure> =>
    Effect.async<Answer, AttemptFailure>((resume) => {
      const url = new URL(exchange.url)
      const secure = url.protocol === "https:"
      const headers: Record<string, string> = { ...exchange.headers }
      if (exchange.body !== undefined) {
        headers["content-type"] = "application/json"
        headers["content-length"] = String(Buffer.byteLength(exchange.body))
      }
      let settled = false
      let timer: NodeJS.Timeout | undefined
      const settle = (outcome: Effect.Effect<Answer, AttemptFailure>) => {
        if (settled) return
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        resume(outcome)
      }
      const fail = (reason: "Transport" | "Timeout" | "TooLarge", detail: string, status?: number) => {
        const error = new SourceError({ reason, request: label, detail, ...(status === undefined ? {} : { status }) })
        settle(Effect.fail(attemptFailure(error, reason === "TooLarge" ? "never" : "transient")))
        request.destroy()
      }
      let request: http.ClientRequest
      let staleSockets = 0
      const start = () => {
        request = (secure ? https : http).request(url, {
          method: exchange.method,
          headers,
          agent: secure ? agents["https:"] : agents["http:"]
        })
        if (timer !== undefined) clearTimeout(timer)
        timer = setTimeout(() => fail("Timeout", `no answer within ${limits.timeoutMs} ms`), limits.timeoutMs)
        request.on("error", (e) => {
          // a kept-alive socket the server closed while it was idle: the request never reached the
          // server, so it is sent again on a new connection, not counted as an attempt (as Node's
          // docs and undici do). CI at load 8 saw it as one request the emulator never received
          if (!settled && request.reusedSocket && isStaleSocket(e) && staleSockets++ < MAX_STALE_SOCKETS) return start()
          fail("Transport", describeError(e))
        })
        request.on("response", onResponse)
        request.end(exchange.body)
      }
      const onResponse = (response: http.IncomingMessage) => {
        const status = response.statusCode ?? 0
        const chunks: Buffer[] = []
        let size = 0
        // from here the timer measures silence: each piece of the body starts it again
        clearTimeout(timer)
        timer = setTimeout(
          () => fail("Timeout", `the body of an HTTP ${status} answer stalled: nothing arrived for ${limits.timeoutMs} ms`),
          limits.timeoutMs
        )
        response.on("data", (chunk: Buffer) => {
          if (settled) return
          size += chunk.length
          if (size > limits.maxBodyBytes) {
            return fail(
              "TooLarge",
              `the answer's body is larger than ${mb(limits.maxBodyBytes)} MB (CHAINETL_MAX_BODY_MB); raise CHAINETL_MAX_BODY_MB if this machine has the memory for such pages`,
              status
            )
          }
          chunks.push(chunk)
          timer?.refresh()
        })
        response.on("error", (e) => fail("Transport", `body of an HTTP ${status} answer broke off: ${describeError(e)}`))
        // a connection closed before the body's end (no error event on some resets)
        response.on("aborted", () => fail("Transport", `body of an HTTP ${status} answer broke off: ECONNRESET aborted`))
        response.on("end", () => {
          const retryAfter = response.headers["retry-after"]
          settle(
            Effect.succeed({
              status,
              retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
              bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
            })
          )
        })
      }
      start()
      return Effect.sync(() => {
        settled = true
        if (timer !== undefined) clearTimeout(timer)
        request.destroy()
      })
    })

  const close = () => {
    agents["http:"].destroy()
    agents["https:"].destroy()
  }

  return { send, close }
}

export class Transport extends Context.Tag("chainetl/Transport")<Transport, TransportService>() {
  /** node:http with keep-alive agents, closed with the layer's scope. */
  static readonly layer: Layer.Layer<Transport> = Layer.scoped(
    Transport,
    Effect.acquireRelease(Effect.sync(makeNodeTransport), (t) => Effect.sync(t.close))
  )
}
