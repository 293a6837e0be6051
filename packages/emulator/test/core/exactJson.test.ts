import { describe, expect, it } from "vitest"
import { exactInteger, stringifyExact } from "../../src/http/exactJson.ts"

describe("the emulator's exact JSON", () => {
  it("given integers above 2^53 as bigint, when written, then they are integer literals digit for digit", () => {
    const big = 1_400_000_000_000_000_000_000_123n
    expect(stringifyExact({ sortKey: big, list: [2n ** 64n + 1n, -5n], n: 7 })).toBe(
      '{"sortKey":1400000000000000000000123,"list":[18446744073709551617,-5],"n":7}'
    )
  })

  it("given a string that looks like the internal marker, when written, then it stays the string it was", () => {
    const text = stringifyExact({ memo: "\u0000bigint:42", other: 1n })
    expect(JSON.parse(text)).toEqual({ memo: "\u0000bigint:42", other: 1 })
  })

  it("given no bigint, when written, then the text is JSON.stringify's", () => {
    const v = { a: [1, "x", null, { b: true }] }
    expect(stringifyExact(v)).toBe(JSON.stringify(v))
  })
})

describe("integers marked by the answer's builder", () => {
  it("given exactInteger in place of bigints (above 2^53, negative, zero), when written, then they are integer literals, as bigints are", () => {
    const marked = { weight: exactInteger(2n ** 64n - 1n), change: exactInteger(-1_000_000_000_000_000_007n), zero: exactInteger(0n), name: "x" }
    const text = stringifyExact(marked)
    expect(text).toBe('{"weight":18446744073709551615,"change":-1000000000000000007,"zero":0,"name":"x"}')
    expect(text).toBe(stringifyExact({ weight: 2n ** 64n - 1n, change: -1_000_000_000_000_000_007n, zero: 0n, name: "x" }))
  })

  it("given marked integers and bigints in one answer, when written, then both are integer literals", () => {
    expect(stringifyExact({ a: exactInteger(5n), b: [6n] })).toBe('{"a":5,"b":[6]}')
  })
})
