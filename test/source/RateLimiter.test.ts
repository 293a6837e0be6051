import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { JsonRpcClient } from "../../src/source/JsonRpcClient.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"
import { busiestWindow } from "../support/keyWindows.ts"
import { json, sleep, startFakeServer } from "../support/fakeServer.ts"
import { testSource } from "../support/sourceSettings.ts"

describe("RateLimiter", () => {
  it.scopedLive("given many concurrent callers, when they share a host, then in-flight and rate stay within the limits", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer(async (hit, res) => {
        await sleep(30)
        if (hit.path.startsWith("/ext/bc/")) return json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, result: {} })
        json(res, 200, { n: hit.n })
      })
      const rate = 20
      const burst = 3
      const { stats, elapsed } = yield* Effect.gen(function* () {
        const rest = yield* RestClient
        const rpc = yield* JsonRpcClient
        const started = Date.now()
        // REST and JSON-RPC callers on one host draw from the same limiter.
        yield* Effect.forEach(
          Array.from({ length: 40 }, (_, i) => i),
          (i) => (i % 4 === 0 ? rpc.call("P", "platform.getHeight") : rest.get(i % 2 ? "data" : "metrics", `/r/${i}`)),
          { concurrency: "unbounded", discard: true }
        )
        return { stats: yield* (yield* SourceStats).snapshot, elapsed: Date.now() - started }
      }).pipe(Effect.provide(testSource(server.url, { rateLimit: rate, rateBurst: burst, concurrency: 3 })))

      expect(server.hits.length).toBe(40)
      expect(server.maxInFlight()).toBeLessThanOrEqual(3)
      // Token bucket: at most rate·1s + burst in any second; +2 for timer slack.
      expect(busiestWindow(server.hits.map((h) => h.at), 1_000)).toBeLessThanOrEqual(rate + burst + 2)
      // 37 requests beyond the burst at 20/s cannot take much less than 1.85 s.
      expect(elapsed).toBeGreaterThanOrEqual(1_500)
      expect(stats[new URL(server.url).host]!.limiterWaitMs).toBeGreaterThan(0)
    })
  )
})
