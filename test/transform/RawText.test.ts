import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { parseJson } from "../../src/source/Response.ts"
import { forgetText } from "../../src/source/SourceText.ts"
import { rawTexts } from "../../src/transform/RawText.ts"

/** A 2xx body as the source parses it (its text registered beside it). */
const parsed = (text: string): any => Either.getOrThrow(parseJson("GET test", 200, new TextEncoder().encode(text)))

describe("rawTexts", () => {
  it("given a page's records, when one is asked for, then its text is the service's, spacing, key order and number spelling included", () => {
    const second = '{ "txHash" : "0x2",\n  "amount": 1.0e3, "weight": 123456789012345678901234567890, "z": "a\\"b", "a": [ ] }'
    const text = `{"delegators": [ {"txHash":"0x1"} ,${second}], "nextPageToken": "t"}`
    const body = parsed(text)
    const raw = rawTexts([body])
    expect(raw(body.delegators[1])).toBe(second)
    expect(raw(body.delegators[0])).toBe('{"txHash":"0x1"}')
  })

  it("given records a listing filtered and wrapped, when asked for, then each is found, and a wrapper holds the service's parts as sent", () => {
    const body = parsed('{"items":[{"id": 1},{"id": 2 }], "blockHeight" : 7}')
    const kept = body.items.filter((r: { id: number }) => r.id === 2)
    const raw = rawTexts([body])
    expect(raw(kept[0])).toBe('{"id": 2 }')
    expect(raw({ item: body.items[0], page: { blockHeight: body.blockHeight } })).toBe('{"item":{"id": 1},"page":{"blockHeight":7}}')
  })

  it("given a JSON-RPC answer's result, when a record built around part of it is asked for, then that part is cut from the answer", () => {
    const body = parsed('{"jsonrpc":"2.0","id":3,"result":{"tx":{"id" : "abc", "outs":[ 1 ]},"encoding":"json"}}')
    const result = body.result
    expect(rawTexts([result])({ key: "12:abc", tx: result.tx })).toBe('{"key":"12:abc","tx":{"id" : "abc", "outs":[ 1 ]}}')
  })

  it("given answers of several lookups, when records of each are asked for, then each comes from its own text", () => {
    const a = parsed('{"n":  1}')
    const b = parsed('{"n":\t2}')
    const raw = rawTexts([a, b])
    expect([raw(b), raw(a)]).toEqual(['{"n":\t2}', '{"n":  1}'])
  })

  it("given a record no answer holds, when asked for, then it is written from its value, bigints as digits", () => {
    expect(rawTexts([])({ key: "k", n: 12n })).toBe('{"key":"k","n":"12"}')
    expect(rawTexts([parsed("{}")])({ key: "k" })).toBe('{"key":"k"}')
  })

  it("given a page whose text was let go once it was mapped, when a record of it is asked for, then it is written from its value", () => {
    const body = parsed('{"items": [ {"id" : 1.0e3, "n": 18446744073709551616} ], "next": "t"}')
    expect(rawTexts([body])(body.items[0])).toBe('{"id" : 1.0e3, "n": 18446744073709551616}')
    forgetText([body])
    expect(rawTexts([body])(body.items[0])).toBe('{"id":1000,"n":"18446744073709551616"}')
    // an answer handed over as a top-level container (a JSON-RPC result) lets go of the same text
    const rpc = parsed('{"result": {"tx": {"id" : "abc"}}}')
    forgetText([rpc.result])
    expect(rawTexts([rpc])({ tx: rpc.result.tx })).toBe('{"tx":{"id":"abc"}}')
  })

  it("given a record nested 200,000 levels deep, when asked for, then its exact text comes back without recursion", () => {
    const deep = `${"[ ".repeat(200_000)}1${" ]".repeat(200_000)}`
    const text = `{"records":[{"deep":${deep}, "w": 18446744073709551616 }]}`
    const body = parsed(text)
    expect(rawTexts([body])(body.records[0])).toBe(`{"deep":${deep}, "w": 18446744073709551616 }`)
  })
})
