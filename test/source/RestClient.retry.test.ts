import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { RestClient } from "../../src/source/RestClient.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"
import { errorBody, json, sleep, startFakeServer } from "../support/fakeServer.ts"
import { testSource } from "../support/sourceSettings.ts"

const hostOf = (url: string) => new URL(url).host

describe("RestClient retries", () => {
  it.scopedLive("given 503 three times then 200, when getting, then it succeeds and counts 3 retries", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        hit.n <= 3 ? errorBody(res, 503, "Service Unavailable", "node of chain 43114 is down") : json(res, 200, { ok: hit.n })
      )
      const { body, stats } = yield* Effect.gen(function* () {
        const body = yield* (yield* RestClient).get("data", "/v1/chains/43114/blocks", { pageSize: 2 })
        return { body, stats: yield* (yield* SourceStats).snapshot }
      }).pipe(Effect.provide(testSource(server.url)))
      expect(body).toEqual({ ok: 4 })
      expect(server.hits.map((h) => h.query.get("pageSize"))).toEqual(["2", "2", "2", "2"])
      expect(stats[hostOf(server.url)]).toMatchObject({ requests: 4, retries: 3, serverErrors: 3, failures: 0, rateLimited: 0 })
    })
  )

  it.scopedLive("given a persistent 500, when getting, then it fails after the budget with an error naming the request", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => errorBody(res, 500, "Internal Server Error", "boom"))
      const { result, stats } = yield* Effect.gen(function* () {
        const result = yield* Effect.either((yield* RestClient).get("data", "/v1/networks/mainnet/delegators", { pageSize: 100, nodeIds: undefined }))
        return { result, stats: yield* (yield* SourceStats).snapshot }
      }).pipe(Effect.provide(testSource(server.url, { maxRetries: 2 })))
      expect(server.hits.length).toBe(3)
      const error = Either.getLeft(result).pipe((o) => o._tag === "Some" ? o.value : undefined)
      expect(error?.reason).toBe("HttpStatus")
      expect(error?.status).toBe(500)
      expect(error?.request).toBe("GET data /v1/networks/mainnet/delegators?pageSize=100")
      expect(error?.message).toBe(
        "HttpStatus on GET data /v1/networks/mainnet/delegators?pageSize=100 (HTTP 500): Internal Server Error: boom (gave up after 2 retries)"
      )
      expect(stats[hostOf(server.url)]).toMatchObject({ requests: 3, retries: 2, serverErrors: 3, failures: 1 })
    })
  )

  it.scopedLive("given a connection reset mid-body, when getting, then the attempt is retried and succeeds", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => {
        if (hit.n === 1) {
          res.writeHead(200, { "content-type": "application/json", "content-length": "1000" })
          res.write('{"blocks":[{"blockNumber":"1"},')
          setTimeout(() => res.socket?.destroy(), 20)
          return
        }
        json(res, 200, { blocks: [] })
      })
      const body = yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114/blocks")).pipe(
        Effect.provide(testSource(server.url))
      )
      expect(body).toEqual({ blocks: [] })
      expect(server.hits.length).toBe(2)
    })
  )

  it.scopedLive("given a refused connection, when getting, then it fails as Transport after retrying", () =>
    Effect.gen(function* () {
      // Bind and release a port so nothing listens on it.
      const server = yield* Effect.scoped(startFakeServer(() => undefined))
      const error = yield* Effect.flip(Effect.flatMap(RestClient, (c) => c.get("metrics", "/v2/chains/43114/metrics/txCount"))).pipe(
        Effect.provide(testSource(server.url, { maxRetries: 1 }))
      )
      expect(error.reason).toBe("Transport")
      expect(error.request).toBe("GET metrics /v2/chains/43114/metrics/txCount")
      expect(error.detail).toContain("ECONNREFUSED")
      expect(error.detail).toContain("(gave up after 1 retry)")
    })
  )

  it.scopedLive("given a truncated JSON body, when getting, then it is retried and the second answer is returned", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => {
        if (hit.n === 1) {
          const text = '{"results":[{"value":1,'
          res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
          res.end(text)
          return
        }
        json(res, 200, { results: [] })
      })
      const { body, stats } = yield* Effect.gen(function* () {
        const body = yield* (yield* RestClient).get("metrics", "/v2/chains/43114/metrics/txCount")
        return { body, stats: yield* (yield* SourceStats).snapshot }
      }).pipe(Effect.provide(testSource(server.url)))
      expect(body).toEqual({ results: [] })
      expect(stats[hostOf(server.url)]).toMatchObject({ requests: 2, retries: 1 })
    })
  )

  it.scopedLive("given a body that stalls past the timeout, when getting, then the attempt times out and is retried", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer(async (hit, res) => {
        if (hit.n === 1) {
          res.writeHead(200, { "content-type": "application/json", "content-length": "100" })
          res.write('{"blocks":')
          await sleep(3_000)
          res.end()
          return
        }
        json(res, 200, { blocks: [] })
      })
      const started = Date.now()
      const body = yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114/blocks")).pipe(
        Effect.provide(testSource(server.url, { timeoutMs: 300 }))
      )
      expect(body).toEqual({ blocks: [] })
      expect(server.hits.length).toBe(2)
      expect(Date.now() - started).toBeLessThan(2_500)
    })
  )

  it.scopedLive("given a stalled body every time, when getting, then the error is a Timeout naming the request", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer(async (_, res) => {
        res.writeHead(200, { "content-length": "100" })
        res.write("{")
        await sleep(2_000)
        res.end()
      })
      const error = yield* Effect.flip(Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114"))).pipe(
        Effect.provide(testSource(server.url, { timeoutMs: 150, maxRetries: 1 }))
      )
      expect(error.reason).toBe("Timeout")
      expect(error.message).toBe("Timeout on GET data /v1/chains/43114: the body of an HTTP 200 answer stalled: nothing arrived for 150 ms (gave up after 1 retry)")
    })
  )

  it.scopedLive("given a 400 saying the page token expired, when getting, then it fails as TokenExpired without retrying", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) =>
        errorBody(res, 400, "Bad Request", ["pageToken is invalid or expired; restart the listing"])
      )
      const error = yield* Effect.flip(
        Effect.flatMap(RestClient, (c) => c.get("metrics", "/v2/chains/43114/metrics/txCount", { pageToken: "6f1c" }))
      ).pipe(Effect.provide(testSource(server.url)))
      expect(error.reason).toBe("TokenExpired")
      expect(error.status).toBe(400)
      expect(error.detail).toBe("Bad Request: pageToken is invalid or expired; restart the listing")
      expect(server.hits.length).toBe(1)
    })
  )

  it.scopedLive("given another 400, when getting, then it fails as HttpStatus with the service's message", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => errorBody(res, 400, "Bad Request", "pageSize must not be greater than 100"))
      const error = yield* Effect.flip(Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114/blocks", { pageSize: 500 }))).pipe(
        Effect.provide(testSource(server.url))
      )
      expect(error.reason).toBe("HttpStatus")
      expect(error.detail).toBe("Bad Request: pageSize must not be greater than 100")
      expect(server.hits.length).toBe(1)
    })
  )

  it.scopedLive("given a 404, when getting, then it fails as HttpStatus without retrying", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => errorBody(res, 404, "Not Found", "Transaction 0xabc not found"))
      const { error, stats } = yield* Effect.gen(function* () {
        const error = yield* Effect.flip((yield* RestClient).get("data", "/v1/chains/43114/transactions/0xabc"))
        return { error, stats: yield* (yield* SourceStats).snapshot }
      }).pipe(Effect.provide(testSource(server.url)))
      expect(error.reason).toBe("HttpStatus")
      expect(error.status).toBe(404)
      expect(error.message).toBe("HttpStatus on GET data /v1/chains/43114/transactions/0xabc (HTTP 404): Not Found: Transaction 0xabc not found")
      expect(server.hits.length).toBe(1)
      expect(stats[hostOf(server.url)]).toMatchObject({ requests: 1, retries: 0, failures: 1 })
    })
  )

  it.scopedLive("given a POST, when sent, then the JSON body and query arrive and the answer is parsed", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => json(res, 200, { echo: JSON.parse(hit.body), ct: hit.headers["content-type"] }))
      const body = yield* Effect.flatMap(RestClient, (c) =>
        c.post("data", "/v1/networks/mainnet/blockchains/p-chain/utxos", { pageSize: 1024, includeSpent: false }, { addresses: "P-avax1a,P-avax1b" })
      ).pipe(Effect.provide(testSource(server.url)))
      expect(body).toEqual({ echo: { addresses: "P-avax1a,P-avax1b" }, ct: "application/json" })
      expect(server.hits[0]?.method).toBe("POST")
      expect(server.hits[0]?.query.toString()).toBe("pageSize=1024&includeSpent=false")
    })
  )
})
