import * as arrow from "apache-arrow"
import { describe, expect, it } from "vitest"
import {
  address,
  amount,
  commentOf,
  date,
  defineSchema,
  int64,
  list,
  str,
  struct,
  ts,
  uint256,
  uint256Values
} from "../../schemas/common.ts"

describe("field helpers", () => {
  it("given a helper when called then the field carries its comment and the documented Arrow type", () => {
    const fields = [amount("fee", "Fee"), ts("at", "When"), date("day", "Day"), int64("n", "N"), address("to", "To")]

    expect(fields.map((f) => [f.name, String(f.type), commentOf(f), f.nullable])).toEqual([
      ["fee", "Decimal[38e0]", "Fee", true],
      ["at", "Timestamp<MICROSECOND, UTC>", "When", true],
      ["day", "Date32<DAY>", "Day", true],
      ["n", "Int64", "N", true],
      ["to", "Utf8", "To", true]
    ])
    expect(str("s", "S", { nullable: false }).nullable).toBe(false)
  })

  it("given uint256 when called then it returns the exact string field and the _double field", () => {
    const [exact, approx] = uint256("balance", "Balance")

    expect([exact.name, String(exact.type), approx.name, String(approx.type)]).toEqual([
      "balance",
      "Utf8",
      "balance_double",
      "Float64"
    ])
    expect(uint256Values("balance", (1n << 256n) - 1n)).toEqual({
      balance: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
      balance_double: 1.157920892373162e77
    })
    expect(uint256Values("balance", null)).toEqual({ balance: null, balance_double: null })
    expect(() => uint256Values("balance", 1n << 256n)).toThrow(/column balance out of range: 78 digits, more than a uint256 holds/)
    expect(() => uint256Values("balance", -1n)).toThrow(/column balance out of range: -1 is negative/)
  })
})

describe("defineSchema", () => {
  it("given fields and a uint256 pair when defined then lineage columns are appended and the comment is in metadata", () => {
    const schema = defineSchema([int64("height", "Height"), uint256("supply", "Supply")], "Blocks")

    expect(schema.fields.map((f) => f.name)).toEqual(["height", "supply", "supply_double", "run_id", "ingested_at"])
    expect(schema.metadata.get("comment")).toBe("Blocks")
    expect(schema.fields.slice(-2).map((f) => f.nullable)).toEqual([false, false])
  })

  it("given a name that is not snake_case at the top, in a struct or in a list of structs when defined then it throws naming the path", () => {
    expect(() => defineSchema([int64("blockNumber", "x")], "d")).toThrow(/column "blockNumber" is not snake_case/)
    expect(() => defineSchema([struct("meta", [str("Kind", "x")], "m")], "d")).toThrow(/column "meta.Kind" is not snake_case/)
    expect(() => defineSchema([list("outs", struct("item", [str("a-b", "x")], "o"), "l")], "d")).toThrow(
      /column "outs.a-b" is not snake_case/
    )
    expect(() => defineSchema([str("a", "x"), str("a", "y")], "d")).toThrow(/column "a" is defined twice/)
  })

  it("given a list of scalars when defined then the list's child name is not checked", () => {
    const schema = defineSchema([list("tags", new arrow.Field("Item", new arrow.Utf8()), "Tags")], "d")

    expect(schema.fields[0]!.name).toBe("tags")
  })
})
