import { describe, expect, it } from "vitest"
import { resolveRpcEndpoint } from "../../src/http/jsonrpc.ts"
import { BLOCKCHAIN_ID } from "../../src/world/constants.ts"
import { rpc, useEmulator } from "./fixtures.ts"

const start = useEmulator()

describe("JSON-RPC endpoints", () => {
  it("given the X alias, when resolved, then it is the X-chain of nodeNetwork", () => {
    expect(resolveRpcEndpoint("/ext/bc/X", "mainnet")).toEqual({ chain: "X", network: "mainnet", blockchainId: BLOCKCHAIN_ID.mainnet.X })
    expect(resolveRpcEndpoint("/ext/bc/X", "fuji")).toEqual({ chain: "X", network: "fuji", blockchainId: BLOCKCHAIN_ID.fuji.X })
  })

  it("given the fuji X-chain id on a mainnet node, when resolved, then fuji is served", () => {
    expect(resolveRpcEndpoint(`/ext/bc/${BLOCKCHAIN_ID.fuji.X}`, "mainnet")).toEqual({ chain: "X", network: "fuji", blockchainId: BLOCKCHAIN_ID.fuji.X })
  })

  it("given the P-chain id shared by both networks, when resolved, then nodeNetwork is served", () => {
    expect(resolveRpcEndpoint(`/ext/bc/${BLOCKCHAIN_ID.fuji.P}`, "fuji")?.network).toBe("fuji")
    expect(resolveRpcEndpoint(`/ext/bc/${BLOCKCHAIN_ID.mainnet.P}`, "mainnet")).toEqual({ chain: "P", network: "mainnet", blockchainId: BLOCKCHAIN_ID.mainnet.P })
  })

  it("given the C-chain or an unknown id, when resolved, then nothing is served", () => {
    expect(resolveRpcEndpoint("/ext/bc/C", "mainnet")).toBeUndefined()
    expect(resolveRpcEndpoint("/ext/bc/nope", "mainnet")).toBeUndefined()
  })
})

describe("JSON-RPC over HTTP", () => {
  it("given params omitted, when a method is called, then the handler gets {} and the id is echoed", async () => {
    const e = await start()
    const { status, body } = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 7, method: "test.echo" })
    expect(status).toBe(200)
    expect(body).toEqual({ jsonrpc: "2.0", id: 7, result: { params: {}, chain: "X", network: "mainnet", blockchainId: BLOCKCHAIN_ID.mainnet.X } })
  })

  it("given the fuji X-chain id in the path, when called, then the handler sees fuji", async () => {
    const e = await start()
    const { body } = await rpc(`${e.nodeUrl}/ext/bc/${BLOCKCHAIN_ID.fuji.X}`, { jsonrpc: "2.0", id: 1, method: "test.echo", params: { a: 1 } })
    expect(body.result).toMatchObject({ params: { a: 1 }, network: "fuji" })
  })

  it("given nodeNetwork fuji, when the X alias is called, then the handler sees fuji", async () => {
    const e = await start({ nodeNetwork: "fuji" })
    expect((await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.echo" })).body.result.network).toBe("fuji")
  })

  it("given a body that is not JSON, when posted, then HTTP 200 with -32700 and id null", async () => {
    const e = await start()
    const { status, body } = await rpc(`${e.nodeUrl}/ext/bc/X`, '{"jsonrpc":')
    expect(status).toBe(200)
    expect(body.jsonrpc).toBe("2.0")
    expect(body.id).toBeNull()
    expect(body.error.code).toBe(-32700)
  })

  it.each([
    ["a number", 5],
    ["a missing method", { jsonrpc: "2.0", id: 1 }],
    ["a wrong version", { jsonrpc: "1.0", id: 1, method: "test.echo" }]
  ])("given %s, when posted, then -32600 invalid request", async (_, request) => {
    const e = await start()
    expect((await rpc(`${e.nodeUrl}/ext/bc/X`, request)).body.error.code).toBe(-32600)
  })

  it("given an unknown method, when called, then -32601 naming it", async () => {
    const e = await start()
    const { body } = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 3, method: "avm.nothing" })
    expect(body).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "the method avm.nothing does not exist/is not available" } })
  })

  it("given a P-chain method, when called on the X endpoint, then -32601", async () => {
    const e = await start()
    expect((await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.fail" })).body.error.code).toBe(-32601)
  })

  it("given a handler that throws a plain error, when called, then -32000 with its message", async () => {
    const e = await start()
    const { body } = await rpc(`${e.nodeUrl}/ext/bc/P`, { jsonrpc: "2.0", id: 1, method: "test.fail" })
    expect(body.error).toEqual({ code: -32000, message: "node is sad" })
  })

  it("given a handler that throws RpcError, when called, then its code, message and data", async () => {
    const e = await start()
    const { body } = await rpc(`${e.nodeUrl}/ext/bc/P`, { jsonrpc: "2.0", id: 1, method: "test.badParams" })
    expect(body.error).toEqual({ code: -32602, message: "missing subnetID", data: { field: "subnetID" } })
  })

  it("given params that are neither an object nor a one-object array, when called, then -32602", async () => {
    const e = await start()
    expect((await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.echo", params: [1, 2] })).body.error.code).toBe(-32602)
    const wrapped = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.echo", params: [{ a: 1 }] })
    expect(wrapped.body.result.params).toEqual({ a: 1 })
  })

  it("given a batch, when posted, then each request is answered in order", async () => {
    const e = await start()
    const { body } = await rpc(`${e.nodeUrl}/ext/bc/X`, [
      { jsonrpc: "2.0", id: 1, method: "test.echo", params: { n: 1 } },
      { jsonrpc: "2.0", id: 2, method: "nope" }
    ])
    expect(body.map((r: { id: number }) => r.id)).toEqual([1, 2])
    expect(body[0].result.params).toEqual({ n: 1 })
    expect(body[1].error.code).toBe(-32601)
  })

  it("given an empty batch, when posted, then -32600", async () => {
    const e = await start()
    expect((await rpc(`${e.nodeUrl}/ext/bc/X`, [])).body.error.code).toBe(-32600)
  })

  it("given a GET or an unknown chain, when requested, then 404 with the error body", async () => {
    const e = await start()
    const get = await fetch(`${e.nodeUrl}/ext/bc/X`)
    expect(get.status).toBe(404)
    expect(await get.json()).toEqual({ message: "Cannot GET /ext/bc/X", statusCode: 404, error: "Not Found" })
    expect((await rpc(`${e.nodeUrl}/ext/bc/C`, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).status).toBe(404)
  })
})
