import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { RateLimiter } from "../../src/source/RateLimiter.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"
import { errorBody, json, startFakeServer } from "../support/fakeServer.ts"
import { testSource } from "../support/sourceSettings.ts"

const hostOf = (url: string) => new URL(url).host

describe("RestClient on 429", () => {
  it.scopedLive("given a 429 with Retry-After: 1, when getting, then it waits about a second and succeeds", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        hit.n === 1
          ? errorBody(res, 429, "Too Many Requests", "slow down", { "retry-after": "1" })
          : json(res, 200, { ok: true })
      )
      const { body, stats } = yield* Effect.gen(function* () {
        const body = yield* (yield* RestClient).get("metrics", "/v1/avg_tps/43114")
        return { body, stats: yield* (yield* SourceStats).snapshot }
      }).pipe(Effect.provide(testSource(server.url)))
      expect(body).toEqual({ ok: true })
      const [first, second] = server.hits
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(950)
      expect(stats[hostOf(server.url)]).toMatchObject({ requests: 2, retries: 1, rateLimited: 1, failures: 0 })
      expect(stats[hostOf(server.url)]!.retryAfterWaitMs).toBeGreaterThanOrEqual(1_000)
    })
  )

  it.scopedLive("given Retry-After: 0 on every answer, when getting, then it does not busy-loop and fails as RateLimited", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => errorBody(res, 429, "Too Many Requests", "slow down", { "retry-after": "0" }))
      const error = yield* Effect.flip(Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114/blocks"))).pipe(
        // minimum wait 100 ms, 4 waits on 429 allowed
        Effect.provide(testSource(server.url, { retry: { retryAfterMinMs: 100, maxRateLimitedRetries: 4 } }))
      )
      expect(error.reason).toBe("RateLimited")
      expect(error.status).toBe(429)
      expect(error.detail).toBe("Too Many Requests: slow down (gave up after 4 waits on 429)")
      expect(server.hits.length).toBe(5)
      // Within any 300 ms at most 3 requests arrive (a busy loop would send hundreds).
      for (const h of server.hits) {
        expect(server.hits.filter((o) => o.at >= h.at && o.at < h.at + 300).length).toBeLessThanOrEqual(3)
      }
      expect(server.hits.at(-1)!.at - server.hits[0]!.at).toBeGreaterThanOrEqual(400)
    })
  )

  it.scopedLive("given a missing or absurd Retry-After, when getting, then the wait is clamped between the floor and the ceiling", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => {
        if (hit.n === 1) return errorBody(res, 429, "Too Many Requests", "no header")
        if (hit.n === 2) return errorBody(res, 429, "Too Many Requests", "a day", { "retry-after": "86400" })
        json(res, 200, { ok: true })
      })
      const started = Date.now()
      const body = yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114")).pipe(
        Effect.provide(testSource(server.url, { retry: { retryAfterMinMs: 50, retryAfterMaxMs: 300 } }))
      )
      expect(body).toEqual({ ok: true })
      const [a, b, c] = server.hits
      expect(b!.at - a!.at).toBeGreaterThanOrEqual(45)
      expect(c!.at - b!.at).toBeGreaterThanOrEqual(290)
      expect(Date.now() - started).toBeLessThan(3_000)
    })
  )

  it.scopedLive("given 429s, when they are retried, then they do not spend the transient budget", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        hit.n <= 3 ? errorBody(res, 429, "Too Many Requests", "slow down", { "retry-after": "0" }) : json(res, 200, { ok: true })
      )
      const body = yield* Effect.flatMap(RestClient, (c) => c.get("data", "/v1/chains/43114")).pipe(
        Effect.provide(testSource(server.url, { maxRetries: 0, retry: { retryAfterMinMs: 10 } }))
      )
      expect(body).toEqual({ ok: true })
      expect(server.hits.length).toBe(4)
    })
  )

  it.scopedLive("given a 429, when the limiter sees it, then the host's rate is halved and climbs back after successes", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        hit.n === 1 ? errorBody(res, 429, "Too Many Requests", "slow down", { "retry-after": "0" }) : json(res, 200, { ok: true })
      )
      const host = hostOf(server.url)
      const rates = yield* Effect.gen(function* () {
        const rest = yield* RestClient
        const limiter = yield* RateLimiter
        const before = yield* limiter.currentRate(host)
        yield* rest.get("data", "/v1/chains/43114")
        const afterThrottle = yield* limiter.currentRate(host)
        // one success already counted by the retried request; nine more complete a run of ten
        yield* Effect.repeatN(rest.get("data", "/v1/chains/43114"), 8)
        const afterSuccesses = yield* limiter.currentRate(host)
        return { before, afterThrottle, afterSuccesses }
      }).pipe(Effect.provide(testSource(server.url, { rateLimit: 40, retry: { retryAfterMinMs: 10 } })))
      expect(rates).toEqual({ before: 40, afterThrottle: 20, afterSuccesses: 22 })
    })
  )
})
