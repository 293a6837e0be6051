import { describe, expect, it } from "vitest"
import { createRouter } from "../../src/http/router.ts"
import { getJson, testRoutes, useEmulator } from "./fixtures.ts"

const start = useEmulator()

describe("router templates", () => {
  const router = createRouter(testRoutes)

  it("given the contract-metadata and native-balance templates, when each path is matched, then each finds its own route", () => {
    expect(router.match("GET", "/v1/chains/43114/addresses/0xabc")?.route.seedRoute).toBe(16)
    const native = router.match("GET", "/v1/chains/43114/addresses/0xabc/balances:getNative")
    expect(native?.route.seedRoute).toBe(9)
    expect(native?.params).toEqual({ chainId: "43114", address: "0xabc" })
  })

  it("given a literal colon segment and a parameter template of the same depth, when matched, then the literal wins", () => {
    const catchAll = { method: "GET", host: "data", path: "/v1/networks/{network}/blockchains/{blockchainId}/{resource}", seedRoute: 99, handle: () => ({}) } as const
    const withCatchAll = createRouter([catchAll, ...testRoutes])
    const staking = withCatchAll.match("GET", "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking")
    expect(staking?.route.seedRoute).toBe(4)
    expect(staking?.params).toEqual({ network: "mainnet", blockchainId: "p-chain" })
    expect(withCatchAll.match("GET", "/v1/networks/mainnet/blockchains/p-chain/blocks")?.params.resource).toBe("blocks")
  })

  it("given a percent-encoded colon in the literal segment, when matched, then it still finds route 9", () => {
    expect(router.match("GET", "/v1/chains/43114/addresses/0xabc/balances%3AgetNative")?.route.seedRoute).toBe(9)
  })

  it("given encoded characters in a parameter, when matched, then the parameter is decoded", () => {
    expect(router.match("GET", "/v1/chains/43114/addresses/a%2Fb")?.params.address).toBe("a/b")
  })

  it("given a POST to a GET template, when matched, then nothing matches", () => {
    expect(router.match("POST", "/v1/chains/43114/addresses/0xabc")).toBeUndefined()
  })

  it("given one route declared twice, when the router is built, then it refuses", () => {
    expect(() => createRouter([testRoutes[0]!, testRoutes[0]!])).toThrow("route GET /v1/test/items is declared twice")
  })
})

describe("routing over HTTP", () => {
  it("given the native-balance path, when fetched, then route 9 answers with both parameters", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/chains/43114/addresses/0xabc/balances:getNative`)
    expect(status).toBe(200)
    expect(body).toEqual({ route: 9, chainId: "43114", address: "0xabc" })
  })

  it("given a trailing slash, when fetched, then the route still answers", async () => {
    const e = await start()
    expect((await getJson(`${e.baseUrl}/v1/test/chains/43114/addresses/0xabc/`)).body.route).toBe(16)
  })

  it("given an unknown path, when fetched, then 404 with the error body", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/nowhere`)
    expect(status).toBe(404)
    expect(body).toEqual({ message: "Cannot GET /v1/nowhere", statusCode: 404, error: "Not Found" })
  })

  it("given an unknown metrics path, when fetched, then the 404 message is an array", async () => {
    const e = await start()
    expect((await getJson(`${e.metricsUrl}/v2/nowhere`)).body).toEqual({ message: ["Cannot GET /v2/nowhere"], statusCode: 404, error: "Not Found" })
  })

  it("given the wrong method on a known path, when requested, then 404 as the official services answer", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items`, { method: "POST", body: "{}" })
    expect(status).toBe(404)
    expect(body).toEqual({ message: "Cannot POST /v1/test/items", statusCode: 404, error: "Not Found" })
  })

  it("given malformed JSON in a POST body, when sent, then 400", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/echo`, { method: "POST", body: '{"addresses":' })
    expect(status).toBe(400)
    expect(body.error).toBe("Bad Request")
    expect(body.message).toMatch(/^malformed JSON body: /)
  })

  it("given a JSON POST body, when sent, then the handler receives it parsed", async () => {
    const e = await start()
    const { body } = await getJson(`${e.baseUrl}/v1/test/echo`, { method: "POST", body: '{"addresses":"avax1a,avax1b"}' })
    expect(body).toEqual({ body: { addresses: "avax1a,avax1b" } })
  })

  it("given a handler that throws HttpError(404), when fetched, then its message and status come back", async () => {
    const e = await start()
    expect((await getJson(`${e.baseUrl}/v1/test/missing`)).body).toEqual({ message: "no such thing", statusCode: 404, error: "Not Found" })
    expect((await getJson(`${e.metricsUrl}/v2/test/missing`)).body).toEqual({ message: ["no such metric"], statusCode: 404, error: "Not Found" })
  })

  it("given a handler that throws an unexpected error, when fetched, then 500 Internal Server Error", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/boom`)
    expect(status).toBe(500)
    expect(body).toEqual({ message: "internal error: kaput", statusCode: 500, error: "Internal Server Error" })
  })

  it("given a bad percent-encoding in a parameter, when fetched, then 400", async () => {
    const e = await start()
    expect((await getJson(`${e.baseUrl}/v1/test/chains/43114/addresses/%E0%A4%A`)).status).toBe(400)
  })
})
