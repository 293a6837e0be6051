import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { RestClient } from "../../src/source/RestClient.ts"
import { errorBody, json, sleep, startFakeServer } from "../support/fakeServer.ts"
import { testSource } from "../support/sourceSettings.ts"

const KEY = "k3y-Th4t-Must-N0t-Leak-91f2"
const KEY2 = "k3y-Tw0-Must-N0t-Leak-either-77c1"

describe("RestClient API key", () => {
  it.scopedLive("given a key, when calling data and metrics, then only data gets the header", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => json(res, 200, {}))
      yield* Effect.gen(function* () {
        const rest = yield* RestClient
        yield* rest.get("data", "/v1/chains/43114")
        yield* rest.get("metrics", "/v2/chains/43114/metrics/txCount")
        yield* rest.post("data", "/v1/networks/mainnet/blockchains/p-chain/utxos", undefined, { addresses: "P-avax1x" })
      }).pipe(Effect.provide(testSource(server.url, { apiKey: KEY })))
      expect(server.hits.map((h) => h.headers["x-service-api-key"])).toEqual([KEY, undefined, KEY])
    })
  )

  it.scopedLive("given a configured header name, when calling data, then the key travels under that name only", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => json(res, 200, {}))
      yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114")).pipe(
        Effect.provide(testSource(server.url, { apiKey: KEY, apiKeyHeader: "X-Partner-Key" }))
      )
      expect(server.hits[0]?.headers["x-partner-key"]).toBe(KEY)
      expect(server.hits[0]?.headers["x-service-api-key"]).toBeUndefined()
    })
  )

  it.scopedLive("given no key, when calling data, then no key header is sent", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => json(res, 200, {}))
      yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114")).pipe(Effect.provide(testSource(server.url)))
      expect(Object.keys(server.hits[0]!.headers)).not.toContain("x-service-api-key")
    })
  )

  it.scopedLive("given two keys (CHAINETL_API_KEYS), when calling data and metrics, then every data request carries one of them, both are used, and metrics gets none", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => json(res, 200, {}))
      yield* Effect.gen(function* () {
        const rest = yield* RestClient
        yield* Effect.forEach(Array.from({ length: 12 }), () => rest.get("data", "/v1/chains/43114"), { concurrency: 4 })
        yield* rest.get("metrics", "/v2/chains/43114/metrics/txCount")
      }).pipe(Effect.provide(testSource(server.url, { apiKeys: `alpha=${KEY},beta=${KEY2}`, keyBudgets: { alpha: { rate: 100, burst: 2 }, beta: { rate: 100, burst: 2 } } })))
      const sent = server.hits.map((h) => h.headers["x-service-api-key"])
      expect(sent.at(-1)).toBeUndefined()
      expect(new Set(sent.slice(0, -1))).toEqual(new Set([KEY, KEY2]))
    })
  )

  it.scopedLive.each([
    { keys: "one key (CHAINETL_API_KEY)", overrides: { apiKey: KEY }, secrets: [KEY] },
    { keys: "two keys (CHAINETL_API_KEYS)", overrides: { apiKeys: `alpha=${KEY},beta=${KEY2}` }, secrets: [KEY, KEY2] }
  ])("given $keys, when every kind of failure happens, then no key is in an error or log line", ({ overrides: keys, secrets }) =>
    Effect.gen(function* () {
      const server = yield* startFakeServer(async (hit, res) => {
        switch (hit.path) {
          case "/500":
            return errorBody(res, 500, "Internal Server Error", "boom")
          case "/404":
            return errorBody(res, 404, "Not Found", "nothing here")
          case "/401":
            // a careless service that echoes the credential back
            return errorBody(res, 401, "Unauthorized", `key ${String(hit.headers["x-service-api-key"])} is not valid`)
          case "/429":
            return errorBody(res, 429, "Too Many Requests", "slow down", { "retry-after": "0" })
          case "/token":
            return errorBody(res, 400, "Bad Request", "Invalid page token")
          case "/decode":
            res.writeHead(200, { "content-length": "3" })
            return res.end("{{{")
          case "/reset":
            res.writeHead(200, { "content-length": "100" })
            res.write("{")
            return setTimeout(() => res.socket?.destroy(), 10)
          case "/slow":
            res.writeHead(200, { "content-length": "100" })
            res.write("{")
            await sleep(1_000)
            return res.end()
        }
      })
      const dead = yield* Effect.scoped(startFakeServer(() => undefined))

      const lines: Array<string> = []
      const observe = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void lines.push(line)))),
          Logger.withMinimumLogLevel(LogLevel.All)
        )
      const overrides = { ...keys, maxRetries: 1, timeoutMs: 200, retry: { retryAfterMinMs: 10, maxRateLimitedRetries: 1 } }

      // the 401 last: after it no request goes to that host (source/AuthStop.ts)
      const paths = ["/500", "/404", "/429", "/token", "/decode", "/reset", "/slow", "/401"]
      const errors = yield* Effect.forEach(paths, (p) => Effect.flip(Effect.flatMap(RestClient, (c) => c.get("data", p, { pageSize: 1 })))).pipe(
        observe,
        Effect.provide(testSource(server.url, overrides))
      )
      const refused = yield* Effect.flip(Effect.flatMap(RestClient, (c) => c.get("data", "/refused"))).pipe(
        observe,
        Effect.provide(testSource(dead.url, overrides))
      )
      const all = [...errors, refused]

      expect(all.map((e) => e.reason)).toEqual([
        "HttpStatus", "HttpStatus", "RateLimited", "TokenExpired", "Decode", "Transport", "Timeout", "Auth", "Transport"
      ])
      expect(errors[7]?.detail).toContain("refused the request (Unauthorized: key <redacted> is not valid)")
      // the requests did carry it, so its absence below means something
      expect(server.hits.every((h) => secrets.includes(String(h.headers["x-service-api-key"])))).toBe(true)
      expect(lines.length).toBeGreaterThan(0)

      for (const secret of secrets) {
        for (const e of all) {
          expect(e.message).not.toContain(secret)
          expect(JSON.stringify(e)).not.toContain(secret)
          expect(String(e)).not.toContain(secret)
        }
        expect(lines.join("\n")).not.toContain(secret)
      }
    })
  )
})
