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
})
