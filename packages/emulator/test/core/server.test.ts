import { describe, expect, it } from "vitest"
import { createClock } from "../../src/http/clock.ts"
import { defaultEmulatorOptions, defaultNow, describeEmulator, resolveEmulatorOptions } from "../../src/index.ts"
import { getJson, useEmulator } from "./fixtures.ts"

const start = useEmulator()

describe("options", () => {
  it("given no options, when resolved, then the documented defaults apply and now follows seed 1", () => {
    const o = resolveEmulatorOptions()
    expect(o).toEqual(defaultEmulatorOptions)
    expect(o.now).toBe(1_735_689_600 + 86_400)
    expect(o.rateLimit).toEqual({ keylessPerSecond: 200, keyedPerSecond: 1000, metricsPerSecond: 200, burst: undefined })
  })

  it("given seed 7 and a partial group, when resolved, then now is seed-derived and the group is completed", () => {
    const o = resolveEmulatorOptions({ seed: 7, faults: { rate5xx: 0.1 } })
    expect(o.now).toBe(defaultNow(7))
    expect(o.now % 3600).toBe(0)
    expect(o.faults).toEqual({ ...defaultEmulatorOptions.faults, rate5xx: 0.1 })
  })

  it("given nonsense, when resolved, then a RangeError names the option", () => {
    expect(() => resolveEmulatorOptions({ faults: { rate5xx: 2 } })).toThrow("faults.rate5xx must be in [0, 1], got 2")
    expect(() => resolveEmulatorOptions({ scale: 0 })).toThrow("scale must be > 0")
  })
})

describe("clock", () => {
  it("given a clock, when advanced, then now and token time both move", () => {
    let ms = 100
    const clock = createClock(1000, () => ms)
    ms = 350
    clock.advance(60)
    expect(clock.now()).toBe(1060)
    expect(clock.tokenTimeMs()).toBe(250 + 60_000)
  })

  it("given a fractional or negative advance, when applied, then it is refused", () => {
    const clock = createClock(1000)
    expect(() => clock.advance(1.5)).toThrow(RangeError)
    expect(() => clock.advance(-1)).toThrow(RangeError)
  })
})

describe("startEmulator", () => {
  it("given port 0, when started, then one ephemeral port serves all three services", async () => {
    const e = await start({ seed: 3 })
    expect(e.port).toBeGreaterThan(0)
    expect([e.baseUrl, e.metricsUrl, e.nodeUrl]).toEqual(Array(3).fill(`http://127.0.0.1:${e.port}`))
    expect(e.clock.now()).toBe(defaultNow(3))
    expect(e.options.seed).toBe(3)
  })

  it("given POST /_emulator/advance?seconds=3600, when called, then clock.now() moves by an hour", async () => {
    const e = await start()
    const before = e.clock.now()
    const { status, body } = await getJson(`${e.baseUrl}/_emulator/advance?seconds=3600`, { method: "POST" })
    expect(status).toBe(200)
    expect(body).toEqual({ now: before + 3600 })
    expect(e.clock.now()).toBe(before + 3600)
  })

  it("given a bad seconds value, when advancing, then 400 and the clock stays", async () => {
    const e = await start()
    const before = e.clock.now()
    expect((await getJson(`${e.baseUrl}/_emulator/advance?seconds=-5`, { method: "POST" })).status).toBe(400)
    expect(e.clock.now()).toBe(before)
  })

  it("given some traffic, when GET /_emulator/state, then now, seed, scale and counters are reported", async () => {
    const e = await start({ seed: 2, scale: 3 })
    await getJson(`${e.baseUrl}/v1/test/items`)
    await getJson(`${e.baseUrl}/v1/nowhere`)
    await getJson(`${e.metricsUrl}/v2/test/points`)
    e.advance(10)
    const { body } = await getJson(`${e.baseUrl}/_emulator/state`)
    expect(body).toEqual({
      now: defaultNow(2) + 10,
      seed: 2,
      scale: 3,
      requests: { total: 3, byHost: { data: 2, metrics: 1, node: 0 }, byStatus: { "200": 2, "404": 1 }, rateLimited: 0, faults: {}, recentFaults: [] }
    })
  })

  it("given a running emulator, when described, then the lines name the URLs, seed, scale and now", async () => {
    const e = await start({ seed: 1, scale: 2 })
    const url = `http://127.0.0.1:${e.port}`
    expect(describeEmulator(e)).toEqual([
      `chain-data REST  ${url}`,
      `metrics REST     ${url}`,
      `node JSON-RPC    ${url}/ext/bc/X  ${url}/ext/bc/P  (mainnet)`,
      "seed 1  scale 2  now 1735776000 (2025-01-02T00:00:00.000Z)"
    ])
  })

  it("given a closed emulator, when fetched, then the connection is refused", async () => {
    const e = await start()
    await getJson(`${e.baseUrl}/v1/test/items`)
    await e.close()
    await expect(fetch(`${e.baseUrl}/v1/test/items`)).rejects.toThrow()
  })
})
