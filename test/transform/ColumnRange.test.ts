import { describe, expect, it } from "vitest"
import { amount, date, defineSchema, int32, int64, list, OutOfRange, str, struct, ts, uint256Values } from "../../schemas/common.ts"
import { rangeCheckOf } from "../../src/transform/ColumnRange.ts"

const schema = defineSchema(
  [
    str("name", "text"),
    amount("amount", "unsigned amount"),
    amount("change", "signed amount", { signed: true }),
    int32("count", "unsigned int32"),
    int32("delta", "signed int32", { signed: true }),
    int64("height", "unsigned int64"),
    ts("at", "instant"),
    date("day", "day"),
    list("outputs", struct("item", [amount("amount", "nested"), list("indices", int32("item", "index"), "indices")], "output"), "outputs")
  ],
  "a test schema"
)

const check = rangeCheckOf(schema)
const reason = (row: Record<string, unknown>): string | undefined => check(row)?.message

describe("column ranges", () => {
  it("given values at the edges of every column's range, or null, when checked, then the row passes", () => {
    const max38 = 10n ** 38n - 1n
    expect(
      check({
        name: "x",
        amount: max38,
        change: -max38,
        count: 2 ** 31 - 1,
        delta: -(2 ** 31),
        height: 2n ** 63n - 1n,
        at: new Date(Date.UTC(2000, 0, 1)),
        day: "2200-01-01",
        outputs: [{ amount: 0n, indices: [0, 5] }, null, { amount: null }]
      })
    ).toBeUndefined()
    expect(check({ amount: null, at: undefined, outputs: null })).toBeUndefined()
    expect(check({ at: BigInt(Date.UTC(2199, 11, 31)) * 1000n })).toBeUndefined()
  })

  it("given a decimal of more than 38 digits, when checked, then the reason names the column, its digits and the limit", () => {
    expect(reason({ amount: 10n ** 59n })).toBe("column amount out of range: 60 digits, more than the 38 of DECIMAL(38,0)")
    expect(reason({ change: -(10n ** 38n) })).toBe("column change out of range: 39 digits, more than the 38 of DECIMAL(38,0)")
  })

  it("given a negative value where the column is unsigned, when checked, then it is out of range; where signed, it is not", () => {
    expect(reason({ amount: -1n })).toBe("column amount out of range: -1 is negative; the column holds no negative values")
    expect(reason({ height: -5n })).toBe("column height out of range: -5 is negative; the column holds no negative values")
    expect(reason({ count: -1 })).toBe("column count out of range: -1 is negative; the column holds no negative values")
    expect(check({ change: -1n, delta: -1 })).toBeUndefined()
  })

  it("given integers beyond their Arrow type, when checked, then the reason gives the type's range", () => {
    expect(reason({ count: 2 ** 31 })).toBe("column count out of range: 2147483648 is outside INTEGER (0 to 2147483647)")
    expect(reason({ delta: -(2 ** 31) - 1 })).toBe("column delta out of range: -2147483649 is outside INTEGER (-2147483648 to 2147483647)")
    expect(reason({ count: 1.5 })).toBe("column count out of range: 1.5 is not an integer")
    expect(reason({ height: 2n ** 64n })).toBe("column height out of range: 18446744073709551616 is outside BIGINT (0 to 9223372036854775807)")
  })

  it("given absurd instants (year 300000, before 1970, past 2200, an invalid date), when checked, then each is out of range", () => {
    expect(reason({ at: new Date(300_000 * 365.25 * 86_400_000) })).toBe("column at out of range: an invalid date (beyond what a date holds) is outside 2000-01-01 to 2200-01-01 (UTC)")
    expect(reason({ at: new Date(-1000) })).toBe("column at out of range: 1969-12-31T23:59:59.000Z is outside 2000-01-01 to 2200-01-01 (UTC)")
    expect(reason({ at: new Date(Date.UTC(2200, 0, 1, 0, 0, 1)) })).toMatch(/^column at out of range: 2200-01-01T00:00:01.000Z is outside/)
    expect(reason({ at: -1n })).toBe("column at out of range: -1 µs since 1970 is outside 2000-01-01 to 2200-01-01 (UTC)")
    expect(reason({ day: "1999-12-31" })).toBe("column day out of range: 1999-12-31 is outside 2000-01-01 to 2200-01-01 (UTC)")
  })

  it("given a value out of range inside a list of structs, when checked, then the column is its path with the index", () => {
    expect(reason({ outputs: [{ amount: 1n }, { amount: 10n ** 40n }] })).toBe("column outputs[1].amount out of range: 41 digits, more than the 38 of DECIMAL(38,0)")
    expect(reason({ outputs: [{ indices: [1, -2] }] })).toBe("column outputs[0].indices[1] out of range: -2 is negative; the column holds no negative values")
  })

  it("given values of another JS type, when checked, then they are left to the writer (a mapper's bug, not the service's)", () => {
    expect(check({ amount: 5, count: 3n, at: "2024-01-01" })).toBeUndefined()
  })

  it("given a uint256 beyond 2^256 or negative, when its columns are filled, then OutOfRange says why", () => {
    expect(() => uint256Values("value", 2n ** 256n)).toThrow(new OutOfRange("value", "78 digits, more than a uint256 holds (at most 2^256 − 1, 78 digits)"))
    expect(() => uint256Values("value", -1n)).toThrow(/column value out of range: -1 is negative/)
  })
})
