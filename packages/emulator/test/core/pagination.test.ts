import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, it } from "vitest"
import { createClock } from "../../src/http/clock.ts"
import { createPageTokenStore } from "../../src/http/pageTokens.ts"
import { validateResponse } from "../../../../test/support/openapi.ts"
import { ITEMS, getJson, useEmulator } from "./fixtures.ts"

const start = useEmulator()

describe("pageSize", () => {
  it("given no pageSize, when a list is fetched, then the route's default of 10 applies and a token follows", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items`)
    expect(status).toBe(200)
    expect(body.items).toEqual(ITEMS.slice(0, 10))
    expect(typeof body.nextPageToken).toBe("string")
  })

  it("given pageSize 1 and pageSize 100 (min and max), when fetched, then 1 and all 25 records come back", async () => {
    const e = await start()
    expect((await getJson(`${e.baseUrl}/v1/test/items?pageSize=1`)).body.items).toEqual([ITEMS[0]])
    const all = await getJson(`${e.baseUrl}/v1/test/items?pageSize=100`)
    expect(all.body.items).toHaveLength(25)
    expect(all.body.nextPageToken).toBeUndefined()
  })

  it.each(["0", "101", "abc", "2.5", "-1", ""])("given pageSize=%j, when fetched, then 400 names pageSize and its bounds", async (size) => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items?pageSize=${size}`)
    expect(status).toBe(400)
    expect(body).toEqual({
      message: `pageSize must be an integer between 1 and 100 (got "${size}")`,
      statusCode: 400,
      error: "Bad Request"
    })
    expect(validateResponse("data", "/v1/networks/{network}/delegators", "get", 400, body)).toEqual([])
  })

  it("given the metrics route's max of 2160, when 2161 is asked, then 400 with an array message", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=2161`)
    expect(status).toBe(400)
    expect(body).toEqual({ message: ['pageSize must be an integer between 1 and 2160 (got "2161")'], statusCode: 400, error: "Bad Request" })
    expect(validateResponse("metrics", "/v2/chains/{chainId}/metrics/{metric}", "get", 400, body)).toEqual([])
  })
})

describe("opaque page tokens", () => {
  it("given a crawl that follows nextPageToken, when it ends, then every record came once in order", async () => {
    const e = await start()
    const seen: unknown[] = []
    let token: string | undefined
    let pages = 0
    do {
      const q = token === undefined ? "pageSize=7" : `pageSize=7&pageToken=${encodeURIComponent(token)}`
      const { body } = await getJson(`${e.baseUrl}/v1/test/items?${q}`)
      seen.push(...body.items)
      token = body.nextPageToken
      pages++
    } while (token !== undefined)
    expect(pages).toBe(4)
    expect(seen).toEqual(ITEMS)
  })

  it("given a token, when the next page uses another pageSize, then the token is still accepted", async () => {
    const e = await start()
    const first = await getJson(`${e.baseUrl}/v1/test/items?pageSize=5`)
    const second = await getJson(`${e.baseUrl}/v1/test/items?pageSize=3&pageToken=${first.body.nextPageToken}`)
    expect(second.body.items).toEqual(ITEMS.slice(5, 8))
  })

  it("given a token from another route, when presented, then 400 invalid page token", async () => {
    const e = await start()
    const first = await getJson(`${e.baseUrl}/v1/test/items`)
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/others?pageToken=${first.body.nextPageToken}`)
    expect(status).toBe(400)
    expect(body.message).toBe("invalid page token: it was issued for another route or other query parameters")
  })

  it("given a token from the same route with another filter, when presented, then 400", async () => {
    const e = await start()
    const first = await getJson(`${e.baseUrl}/v1/test/items?sortOrder=asc`)
    expect(first.body.nextPageToken).toEqual(expect.any(String))
    const { status } = await getJson(`${e.baseUrl}/v1/test/items?sortOrder=desc&pageToken=${first.body.nextPageToken}`)
    expect(status).toBe(400)
  })

  it.each(["garbage!", "Zm9v", "eyJmIjoxfQ"])("given the token %j, when presented, then 400 invalid page token", async (token) => {
    const e = await start()
    const { status, body } = await getJson(`${e.baseUrl}/v1/test/items?pageToken=${token}`)
    expect(status).toBe(400)
    expect(body.message).toBe("invalid page token: not a token this service issued")
  })
})

describe("UUID page tokens (metrics service)", () => {
  it("given a metrics page, when more exists, then nextPageToken is a UUID v4 that pages on", async () => {
    const e = await start()
    const first = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=20`)
    expect(first.body.nextPageToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const second = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=20&pageToken=${first.body.nextPageToken}`)
    expect(second.body.results.map((p: { value: number }) => p.value)).toEqual([20, 21, 22, 23, 24])
    expect(second.body.nextPageToken).toBeUndefined()
  })

  it("given tokenTtlSeconds=1, when the token is used after 1.2 s of real time, then 400 says it expired", async () => {
    const e = await start({ tokenTtlSeconds: 1 })
    const first = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=10`)
    await sleep(1200)
    const { status, body } = await getJson(`${e.metricsUrl}/v2/test/points?pageToken=${first.body.nextPageToken}`)
    expect(status).toBe(400)
    expect(body.error).toBe("Bad Request")
    expect(body.message[0]).toContain("expired")
  })

  it("given the default 24 h TTL, when the clock is advanced a day and a second, then the token has expired", async () => {
    const e = await start()
    const first = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=10`)
    const token = first.body.nextPageToken
    expect((await getJson(`${e.metricsUrl}/v2/test/points?pageSize=10&pageToken=${token}`)).status).toBe(200)
    e.advance(86_401)
    const { status, body } = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=10&pageToken=${token}`)
    expect(status).toBe(400)
    expect(body.message[0]).toContain("expired")
  })

  it("given a well-formed UUID the service never issued, when presented, then 400 unknown token", async () => {
    const e = await start()
    const { status, body } = await getJson(`${e.metricsUrl}/v2/test/points?pageToken=4a6b0f5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b`)
    expect(status).toBe(400)
    expect(body.message).toEqual(["invalid page token: unknown token"])
  })

  it("given a metrics token, when presented with other query parameters, then 400", async () => {
    const e = await start()
    const first = await getJson(`${e.metricsUrl}/v2/test/points?timeInterval=day&pageSize=10`)
    expect(first.body.nextPageToken).toEqual(expect.any(String))
    const { status } = await getJson(`${e.metricsUrl}/v2/test/points?timeInterval=hour&pageToken=${first.body.nextPageToken}`)
    expect(status).toBe(400)
  })
})

describe("page token store memory", () => {
  it("given tokens older than the TTL, when a new one is issued, then the old ones are swept but still read as expired", () => {
    let ms = 0
    const clock = createClock(1_735_689_600, () => ms)
    const store = createPageTokenStore(clock, 10)
    const old = Array.from({ length: 1000 }, (_, i) => store.issue(`p${i}`))
    ms = 11_000
    const fresh = store.issue("fresh")
    expect(store.size()).toBe(1)
    expect(store.lookup(old[0] as string)).toBe("expired")
    expect(store.lookup(fresh)).toEqual({ payload: "fresh" })
  })

  it("given a cap of 3 live tokens, when a 4th is issued, then the oldest is dropped", () => {
    const clock = createClock(1_735_689_600, () => 0)
    const store = createPageTokenStore(clock, 10, { maxLive: 3, maxRemembered: 3 })
    const tokens = ["a", "b", "c", "d"].map((p) => store.issue(p))
    expect(store.size()).toBe(3)
    expect(store.lookup(tokens[0] as string)).toBe("unknown")
    expect(store.lookup(tokens[3] as string)).toEqual({ payload: "d" })
  })
})
