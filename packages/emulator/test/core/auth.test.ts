import { describe, expect, it } from "vitest"
import { createRateLimiter } from "../../src/http/rateLimit.ts"
import { validateResponse } from "../../../../test/support/openapi.ts"
import { getJson, useEmulator } from "./fixtures.ts"

const start = useEmulator()
const withKey = (key: string) => ({ headers: { "x-service-api-key": key } })

describe("API key, optional mode (default)", () => {
  it("given no key and any key, when a chain-data route is fetched, then both get 200", async () => {
    const e = await start()
    expect((await getJson(`${e.baseUrl}/v1/test/items`)).status).toBe(200)
    expect((await getJson(`${e.baseUrl}/v1/test/items`, withKey("anything"))).status).toBe(200)
  })

  it("given validKeys, when an unknown key is sent, then 401 even though keys are optional", async () => {
    const e = await start({ auth: { validKeys: ["good"] } })
    expect((await getJson(`${e.baseUrl}/v1/test/items`)).status).toBe(200)
    expect((await getJson(`${e.baseUrl}/v1/test/items`, withKey("bad"))).status).toBe(401)
  })
})

describe("API key, required mode", () => {
  const auth = { mode: "required", validKeys: ["good", "weak"], unprivilegedKeys: ["weak"] } as const

  it("given no key, when a chain-data route is fetched, then 401 Unauthorized with the error body", async () => {
    const e = await start({ auth })
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items`)
    expect(status).toBe(401)
    expect(body).toEqual({ message: "missing API key: send it in the x-service-api-key header", statusCode: 401, error: "Unauthorized" })
    expect(validateResponse("data", "/v1/networks/{network}/delegators", "get", 401, body)).toEqual([])
  })

  it("given an unknown key, when fetched, then 401 invalid API key", async () => {
    const e = await start({ auth })
    expect((await getJson(`${e.baseUrl}/v1/test/items`, withKey("nope"))).body).toEqual({ message: "invalid API key", statusCode: 401, error: "Unauthorized" })
  })

  it("given an unprivileged key, when fetched, then 403 Forbidden", async () => {
    const e = await start({ auth })
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items`, withKey("weak"))
    expect(status).toBe(403)
    expect(body).toEqual({ message: "this API key does not have access to this resource", statusCode: 403, error: "Forbidden" })
  })

  it("given a valid key, when fetched, then 200", async () => {
    const e = await start({ auth })
    expect((await getJson(`${e.baseUrl}/v1/test/items`, withKey("good"))).status).toBe(200)
  })

  it("given no key, when a metrics route is fetched, then 200: the metrics service takes no key", async () => {
    const e = await start({ auth })
    expect((await getJson(`${e.metricsUrl}/v2/test/points`)).status).toBe(200)
    expect((await getJson(`${e.metricsUrl}/v2/test/points`, withKey("nope"))).status).toBe(200)
  })
})

describe("rate limiting", () => {
  it("given a keyless limit of 2 per second, when 3 requests arrive at once, then the third gets 429 with Retry-After", async () => {
    const e = await start({ rateLimit: { keylessPerSecond: 2 } })
    const statuses = [(await getJson(`${e.baseUrl}/v1/test/items`)).status, (await getJson(`${e.baseUrl}/v1/test/items`)).status]
    const third = await getJson(`${e.baseUrl}/v1/test/items`)
    expect(statuses).toEqual([200, 200])
    expect(third.status).toBe(429)
    expect(third.headers.get("retry-after")).toBe("1")
    expect(third.body).toEqual({ message: "rate limit exceeded", statusCode: 429, error: "Too Many Requests" })
    expect(e.state().requests.rateLimited).toBe(1)
  })

  it("given keyless exhausted, when a keyed request follows, then the key's own higher bucket serves it", async () => {
    const e = await start({ rateLimit: { keylessPerSecond: 1, keyedPerSecond: 5 } })
    await getJson(`${e.baseUrl}/v1/test/items`)
    expect((await getJson(`${e.baseUrl}/v1/test/items`)).status).toBe(429)
    const keyed = await Promise.all(Array.from({ length: 5 }, () => getJson(`${e.baseUrl}/v1/test/items`, withKey("k"))))
    expect(keyed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
  })

  it("given a metrics limit of 1, when two metrics requests arrive, then the second gets 429 with an array message", async () => {
    const e = await start({ rateLimit: { metricsPerSecond: 1 } })
    await getJson(`${e.metricsUrl}/v2/test/points`)
    const second = await getJson(`${e.metricsUrl}/v2/test/points`)
    expect(second.status).toBe(429)
    expect(second.body.message).toEqual(["rate limit exceeded"])
  })

  it("given a bucket of rate 0.5 per second drained, when asked, then Retry-After is 2 seconds and a refill lets it through", () => {
    let ms = 0
    const limiter = createRateLimiter(() => ms)
    expect(limiter.take("b", 0.5, 1)).toBe(0)
    expect(limiter.take("b", 0.5, 1)).toBe(2)
    ms = 2000
    expect(limiter.take("b", 0.5, 1)).toBe(0)
  })

  it("given rate 0, when asked many times, then the limit is off", () => {
    const limiter = createRateLimiter(() => 0)
    expect(Array.from({ length: 100 }, () => limiter.take("b", 0))).toEqual(Array(100).fill(0))
  })
})
