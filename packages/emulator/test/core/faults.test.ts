import { describe, expect, it } from "vitest"
import { ITEMS, getJson, rpc, useEmulator } from "./fixtures.ts"

const start = useEmulator()

const statuses = async (url: string, n: number): Promise<number[]> => {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const res = await fetch(url)
    await res.arrayBuffer()
    out.push(res.status)
  }
  return out
}

describe("transient faults", () => {
  it("given rate5xx=1, when 30 requests are made, then each is a 500, 502 or 503 with the error body, at least two kinds", async () => {
    const e = await start({ faults: { seed: 7, rate5xx: 1 } })
    const seen = await statuses(`${e.baseUrl}/v1/test/items`, 30)
    expect(seen.every((s) => s === 500 || s === 502 || s === 503)).toBe(true)
    expect(new Set(seen).size).toBeGreaterThanOrEqual(2)
    const { body, status } = await getJson(`${e.baseUrl}/v1/test/items`)
    expect(body).toEqual({ message: "injected fault: the service failed this request, retry it", statusCode: status, error: expect.any(String) })
  })

  it("given one fault seed, when two emulators serve the same request sequence, then they fail identically", async () => {
    const faults = { seed: 42, rate5xx: 0.3 }
    const a = await statuses(`${(await start({ faults })).baseUrl}/v1/test/items`, 20)
    const b = await statuses(`${(await start({ faults })).baseUrl}/v1/test/items`, 20)
    expect(a).toEqual(b)
    expect(a).toContain(200)
    expect(a.some((s) => s >= 500)).toBe(true)
  })

  it("given rate429 with bursts of 3, when requests repeat, then a 429 is followed by two more and a retry later succeeds", async () => {
    const e = await start({ faults: { seed: 3, rate429: 0.2, burst429: 3, retryAfterSeconds: 2 } })
    const seen = await statuses(`${e.baseUrl}/v1/test/items`, 40)
    const first = seen.indexOf(429)
    expect(first).toBeGreaterThanOrEqual(0)
    expect(seen.slice(first, first + 3)).toEqual([429, 429, 429])
    expect(seen.slice(first + 3)).toContain(200)
  })

  it("given rate429=1, when fetched, then 429 Too Many Requests carries Retry-After from the options", async () => {
    const e = await start({ faults: { rate429: 1, retryAfterSeconds: 5 } })
    const { status, headers, body } = await getJson(`${e.baseUrl}/v1/test/items`)
    expect(status).toBe(429)
    expect(headers.get("retry-after")).toBe("5")
    expect(body.error).toBe("Too Many Requests")
  })

  it("given latencyMs=150, when fetched, then the answer takes at least 150 ms", async () => {
    const e = await start({ faults: { latencyMs: 150 } })
    const t0 = performance.now()
    await getJson(`${e.baseUrl}/v1/test/items`)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(150)
  })

  it("given resetRate=1, when the body is read, then the status arrived but the connection dies mid-body", async () => {
    const e = await start({ faults: { resetRate: 1 } })
    const res = await fetch(`${e.baseUrl}/v1/test/items`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow("terminated")
    expect(e.state().requests.faults.reset).toBe(1)
  })

  it("given truncateRate=1, when the body is read, then it is a correctly framed 200 that is not valid JSON", async () => {
    const e = await start({ faults: { truncateRate: 1 } })
    const res = await fetch(`${e.baseUrl}/v1/test/items`)
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(text))
    expect(() => JSON.parse(text)).toThrow(SyntaxError)
  })

  it("given faults, when an admin route is called, then it answers normally", async () => {
    const e = await start({ faults: { rate5xx: 1 } })
    expect((await getJson(`${e.baseUrl}/_emulator/state`)).status).toBe(200)
  })
})

describe("persistent faults", () => {
  const noteOf = (headers: Headers) => /malformed index=(\d+) field=(\w+) kind=([\w-]+)/.exec(headers.get("x-emulator-fault") ?? "")

  it("given malformedRate=1, when a page is fetched twice, then the same record carries the same defect both times", async () => {
    const e = await start({ faults: { seed: 11, malformedRate: 1 } })
    const a = await getJson(`${e.baseUrl}/v1/test/items?pageSize=10`)
    const b = await getJson(`${e.baseUrl}/v1/test/items?pageSize=10`)
    expect(b.body).toEqual(a.body)
    const note = noteOf(a.headers)
    expect(note).not.toBeNull()
    const [, index, field, kind] = note as RegExpExecArray
    const record = a.body.items[Number(index)]
    const expected = { "number-as-text": "not-a-number", "decimal-with-letter": "12x", "string-removed": undefined }[kind as string]
    expect(record[field as string]).toEqual(expected)
    const others = a.body.items.filter((_: unknown, i: number) => i !== Number(index))
    expect(others).toEqual(ITEMS.slice(0, 10).filter((_, i) => i !== Number(index)))
  })

  it("given malformedRate=0.5, when many pages are fetched twice, then the spoiled set is the same and neither empty nor all", async () => {
    const e = await start({ faults: { seed: 5, malformedRate: 0.5 } })
    const spoiled = async () => {
      const out: boolean[] = []
      for (let size = 1; size <= 20; size++) out.push(noteOf((await getJson(`${e.baseUrl}/v1/test/items?pageSize=${size}`)).headers) !== null)
      return out
    }
    const first = await spoiled()
    expect(await spoiled()).toEqual(first)
    expect(first).toContain(true)
    expect(first).toContain(false)
  })

  it("given UUID-paged metrics, when the listing is restarted with fresh tokens, then page 2 carries the same defect", async () => {
    const e = await start({ faults: { seed: 9, malformedRate: 1 } })
    const secondPage = async () => {
      const first = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=5`)
      const second = await getJson(`${e.metricsUrl}/v2/test/points?pageSize=5&pageToken=${first.body.nextPageToken}`)
      return { token: first.body.nextPageToken, note: second.headers.get("x-emulator-fault"), body: second.body }
    }
    const a = await secondPage()
    const b = await secondPage()
    expect(b.token).not.toBe(a.token)
    expect(a.note).toMatch(/^malformed index=\d field=\w+ kind=/)
    expect(b.note).toBe(a.note)
    expect({ ...b.body, nextPageToken: undefined }).toEqual({ ...a.body, nextPageToken: undefined })
  })

  it("given malformedRate=1, when the same route output is served again, then the route's objects were not mutated", async () => {
    const e = await start({ faults: { malformedRate: 1, extraFieldsRate: 1 } })
    await getJson(`${e.baseUrl}/v1/test/items`)
    expect(ITEMS[0]).toEqual({ blockNumber: "1000", txCount: 0, txHash: "0x0000" })
    expect(Object.keys(ITEMS[1] as object)).toEqual(["blockNumber", "txCount", "txHash"])
  })

  it("given extraFieldsRate=1, when a page is fetched, then every record carries unexpectedField", async () => {
    const e = await start({ faults: { extraFieldsRate: 1 } })
    const { body, headers } = await getJson(`${e.baseUrl}/v1/test/items?pageSize=4`)
    expect(body.items).toEqual(ITEMS.slice(0, 4).map((it) => ({ ...it, unexpectedField: "added by the emulator's extraFields fault" })))
    expect(headers.get("x-emulator-fault")).toBe("extra-fields records=4")
  })
})

describe("faults on the node's JSON-RPC", () => {
  it("given rate5xx=1, when a JSON-RPC call is made, then the HTTP answer is a 5xx", async () => {
    const e = await start({ faults: { rate5xx: 1 } })
    const { status } = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.echo" })
    expect([500, 502, 503]).toContain(status)
  })

  it("given malformedRate=1, when a result with records is returned twice with different ids, then the same record is spoiled", async () => {
    const e = await start({ faults: { malformedRate: 1 } })
    const a = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 1, method: "test.records", params: {} })
    const b = await rpc(`${e.nodeUrl}/ext/bc/X`, { jsonrpc: "2.0", id: 2, method: "test.records", params: {} })
    expect(a.headers.get("x-emulator-fault")).toMatch(/^malformed index=\d field=\w+ kind=/)
    expect(b.body.result).toEqual(a.body.result)
    expect(a.body.result.utxos).not.toEqual(ITEMS.slice(0, 3))
  })
})
