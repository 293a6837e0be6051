import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { JsonRpcClient } from "../../src/source/JsonRpcClient.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"
import { errorBody, json, startFakeServer } from "../support/fakeServer.ts"
import { testSource } from "../support/sourceSettings.ts"

const KEY = "node-must-not-see-this-key"

describe("JsonRpcClient", () => {
  it.scopedLive("given a result, when calling the P-chain, then it posts JSON-RPC 2.0 to /ext/bc/P and returns the result", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, result: { height: "1234" } })
      )
      const result = yield* Effect.flatMap(JsonRpcClient, (c) =>
        c.call("P", "platform.getBlockByHeight", { height: 1234, encoding: "json" })
      ).pipe(Effect.provide(testSource(`${server.url}/node`, { apiKey: KEY })))
      expect(result).toEqual({ height: "1234" })
      const hit = server.hits[0]!
      expect([hit.method, hit.path, hit.headers["content-type"]]).toEqual(["POST", "/node/ext/bc/P", "application/json"])
      expect(JSON.parse(hit.body)).toEqual({
        jsonrpc: "2.0",
        id: 1,
        method: "platform.getBlockByHeight",
        params: { height: 1234, encoding: "json" }
      })
      expect(hit.headers["x-service-api-key"]).toBeUndefined()
    })
  )

  it.scopedLive("given no params, when calling an AVM chain by id, then params is sent as {}", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, result: { height: "7" } }))
      const chain = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
      const results = yield* Effect.flatMap(JsonRpcClient, (c) =>
        Effect.all([c.call(chain, "avm.getHeight"), c.call("X", "avm.getHeight")])
      ).pipe(Effect.provide(testSource(server.url)))
      expect(results).toEqual([{ height: "7" }, { height: "7" }])
      expect(server.hits.map((h) => h.path)).toEqual([`/ext/bc/${chain}`, "/ext/bc/X"])
      expect(server.hits.map((h) => JSON.parse(h.body))).toEqual([
        { jsonrpc: "2.0", id: 1, method: "avm.getHeight", params: {} },
        { jsonrpc: "2.0", id: 2, method: "avm.getHeight", params: {} }
      ])
    })
  )

  it.scopedLive("given an error object, when calling, then it fails as Rpc with code and message, not retried", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, error: { code: -32000, message: "couldn't get block at height 99999999" } })
      )
      const error = yield* Effect.flip(Effect.flatMap(JsonRpcClient, (c) => c.call("P", "platform.getBlockByHeight", { height: 99999999 }))).pipe(
        Effect.provide(testSource(server.url))
      )
      expect(error.reason).toBe("Rpc")
      expect(error.message).toBe("Rpc on POST node /ext/bc/P platform.getBlockByHeight (HTTP 200): code -32000: couldn't get block at height 99999999")
      expect(server.hits.length).toBe(1)
    })
  )

  it.scopedLive("given method-not-found, when calling, then it fails as Rpc at once", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, error: { code: -32601, message: "the method platform.nope does not exist/is not available" } })
      )
      const error = yield* Effect.flip(Effect.flatMap(JsonRpcClient, (c) => c.call("P", "platform.nope"))).pipe(Effect.provide(testSource(server.url)))
      expect(error.detail).toBe("code -32601: the method platform.nope does not exist/is not available")
      expect(server.hits.length).toBe(1)
    })
  )

  it.scopedLive("given an internal error (-32603) once, when calling, then it is retried like a 500", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) => {
        const id = JSON.parse(hit.body).id
        if (hit.n === 1) return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32603, message: "internal error" } })
        json(res, 200, { jsonrpc: "2.0", id, result: { txFee: "1000000" } })
      })
      const result = yield* Effect.flatMap(JsonRpcClient, (c) => c.call("X", "avm.getTxFee")).pipe(Effect.provide(testSource(server.url)))
      expect(result).toEqual({ txFee: "1000000" })
      expect(server.hits.length).toBe(2)
    })
  )

  it.scopedLive("given 503 then a result, when calling, then the HTTP retry applies and stats count the node host", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((hit, res) =>
        hit.n === 1 ? errorBody(res, 503, "Service Unavailable", "busy") : json(res, 200, { jsonrpc: "2.0", id: JSON.parse(hit.body).id, result: {} })
      )
      const stats = yield* Effect.gen(function* () {
        yield* (yield* JsonRpcClient).call("P", "platform.getHeight")
        return yield* (yield* SourceStats).snapshot
      }).pipe(Effect.provide(testSource(server.url)))
      expect(stats[new URL(server.url).host]).toMatchObject({ requests: 2, retries: 1, serverErrors: 1 })
    })
  )

  it.scopedLive("given an answer to another id, when calling, then it fails as Decode", () =>
    Effect.gen(function* () {
      const server = yield* startFakeServer((_, res) => json(res, 200, { jsonrpc: "2.0", id: 999, result: {} }))
      const error = yield* Effect.flip(Effect.flatMap(JsonRpcClient, (c) => c.call("P", "platform.getHeight"))).pipe(
        Effect.provide(testSource(server.url))
      )
      expect(error.reason).toBe("Decode")
      expect(error.detail).toBe("response id 999 is not request id 1")
    })
  )

  it("given a test layer, when a crawler calls, then the handler answers without HTTP", () =>
    Effect.runPromise(
      Effect.gen(function* () {
        const rpc = yield* (yield* JsonRpcClient).call("P", "platform.getHeight")
        const rest = yield* (yield* RestClient).get("data", "/v1/chains/43114", { pageSize: 1 })
        expect(rpc).toEqual({ method: "platform.getHeight", params: {} })
        expect(rest).toEqual({ path: "/v1/chains/43114", query: { pageSize: 1 } })
      }).pipe(
        Effect.provide(JsonRpcClient.layerTest(({ method, params }) => Effect.succeed({ method, params }))),
        Effect.provide(RestClient.layerTest(({ path, query }) => Effect.succeed({ path, query })))
      )
    )
  )
})
