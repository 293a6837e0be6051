import { describe, expect, it } from "vitest"
import { parseJsonLossless } from "../../src/source/LosslessJson.ts"

describe("parseJsonLossless", () => {
  it("given integers above 2^53, when parsed, then they come back exact as bigint", () => {
    expect(parseJsonLossless('{"weight": 18446744073709551615, "balance":[9007199254740993]}')).toEqual({
      weight: 18446744073709551615n,
      balance: [9007199254740993n]
    })
  })

  it("given safe integers, floats and long digit runs inside strings, when parsed, then they stay numbers and strings", () => {
    expect(parseJsonLossless('{"a": 1234567890123456, "b": 0.1, "c": "12345678901234567890", "d": 2.1e+24, "e": -5}')).toEqual({
      a: 1234567890123456,
      b: 0.1,
      c: "12345678901234567890",
      d: 2.1e24,
      e: -5
    })
  })

  it("given a truncated body, when parsed, then it throws as JSON.parse would", () => {
    expect(() => parseJsonLossless('{"weight": 18446744073709551615, "x": [1, 2')).toThrow()
    expect(() => parseJsonLossless('{"x": [1, 2')).toThrow()
  })

  it("given a record nested 200,000 levels deep beside an integer above 2^53, when parsed, then the stack holds and the integer is exact", () => {
    const depth = 200_000
    const text = `{"records":[{"deep":${"[".repeat(depth)}${"]".repeat(depth)},"weight":18446744073709551616}]}`
    const body = parseJsonLossless(text) as { records: Array<{ deep: unknown; weight: bigint }> }
    expect(body.records[0]!.weight).toBe(18446744073709551616n)
    let level = 0
    for (let v: unknown = body.records[0]!.deep; Array.isArray(v) && v.length > 0; v = v[0]) level++
    expect(level).toBe(depth - 1)
  })

  it("given quotes, backslashes and digit runs inside strings and keys, when parsed losslessly, then only the unquoted integer becomes a bigint", () => {
    const key = 'a\\"12345678901234567890'
    const value = '\\"99999999999999999999\\'
    const text = `{${JSON.stringify(key)}: ${JSON.stringify(value)}, "c": [-99999999999999999999, 1e400, 12345678901234567.5]}`
    expect(parseJsonLossless(text)).toEqual({ [key]: value, c: [-99999999999999999999n, Number.POSITIVE_INFINITY, 12345678901234567.5] })
  })

  it("given a string that looks like our own marker, when parsed, then it stays a string", () => {
    const forged = "\u0000chainetl-bigint-000000000000:123"
    expect(parseJsonLossless(`{"s": ${JSON.stringify(forged)}, "n": 18446744073709551616}`)).toEqual({ s: forged, n: 18446744073709551616n })
  })
})
