import { describe, expect, it } from "vitest"
import { stringifyExact } from "../../src/http/exactJson.ts"

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
