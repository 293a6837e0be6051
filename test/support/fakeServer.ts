/**
 * A scripted node:http server on 127.0.0.1, one per test, that records every request it sees
 * (time, path, headers, body) and answers with whatever the test's handler does.
 */
import { Effect, type Scope } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface Hit {
  readonly n: number
  readonly at: number
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

export type Handler = (hit: Hit, res: Http.ServerResponse) => unknown

export interface FakeServer {
  readonly url: string
  readonly hits: Array<Hit>
  /** Most requests being handled at the same time. */
  readonly maxInFlight: () => number
}

export const json = (res: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** The error body of the REST services. */
export const errorBody = (res: Http.ServerResponse, status: number, error: string, message: string | Array<string>, headers: Record<string, string> = {}) =>
  json(res, status, { message, statusCode: status, error }, headers)

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const startFakeServer = (handler: Handler): Effect.Effect<FakeServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Http.Server; fake: FakeServer }>((resolve) => {
          const hits: Array<Hit> = []
          let inFlight = 0
          let maxInFlight = 0
          const server = Http.createServer((req, res) => {
            const chunks: Array<Buffer> = []
            req.on("data", (c: Buffer) => chunks.push(c))
            req.on("end", () => {
              inFlight += 1
              maxInFlight = Math.max(maxInFlight, inFlight)
              res.on("close", () => {
                inFlight -= 1
              })
              const url = new URL(req.url ?? "/", "http://fake")
              const hit: Hit = {
                n: hits.length + 1,
                at: Date.now(),
                method: req.method ?? "",
                path: url.pathname,
                query: url.searchParams,
                headers: req.headers,
                body: Buffer.concat(chunks).toString("utf8")
              }
              hits.push(hit)
              void Promise.resolve(handler(hit, res)).catch(() => res.destroy())
            })
          })
          server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as AddressInfo
            resolve({ server, fake: { url: `http://127.0.0.1:${port}`, hits, maxInFlight: () => maxInFlight } })
          })
        })
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  ).pipe(Effect.map(({ fake }) => fake))
