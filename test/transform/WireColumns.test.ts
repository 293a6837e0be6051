import { describe, expect, it } from "vitest"
import { amount, bool, defineSchema, int32, int64, list, str, struct, ts } from "../../schemas/common.ts"
import { RecordError } from "../../src/crawl/Dataset.ts"
import { wireDecoder } from "../../src/transform/WireColumns.ts"

const schema = defineSchema(
  [
    str("chain_id", "From the slice, not the record"),
    amount("height", "Height", { from: "blockNumber" }),
    ts("at", "Time", { from: "blockTimestamp" }),
    int32("count", "Count", { from: "txCount" }),
    int64("size", "Size", { from: "sizeBytes", optional: true }),
    bool("flag", "Flag", { from: "isFlag", optional: true }),
    list("ids", str("item", "Id"), "Ids", { from: "ids" }),
    str("proposer", "Proposer", { from: "proposer.id", optional: true }),
    int64("proposer_height", "Proposer height", { from: "proposer.height", optional: true })
  ],
  "test"
)

describe("columns read `from` the record", () => {
  const wire = wireDecoder(schema)
  const record = { blockNumber: "123456789012345678901234567890", blockTimestamp: 1_735_689_600, txCount: 3, ids: ["a", "b"] }

  it("given a record with its required fields, when decoded, then each from column holds its exact value and absent optional ones are null", () => {
    expect(wire(record)).toEqual({
      height: 123456789012345678901234567890n,
      at: new Date("2025-01-01T00:00:00Z"),
      count: 3,
      size: null,
      flag: null,
      ids: ["a", "b"],
      proposer: null,
      proposer_height: null
    })
  })

  it("given a nested object and a bigint from the lossless parser, when decoded, then the dotted paths are read and the integer is exact", () => {
    const row = wire({ ...record, sizeBytes: 9007199254740993n, isFlag: false, proposer: { id: "p1", height: 42 } })
    expect(row).toMatchObject({ size: 9007199254740993n, flag: false, proposer: "p1", proposer_height: 42n })
  })

  it("given an amount sent as a JSON number, when decoded, then it is a RecordError naming the field (a number may have lost digits)", () => {
    expect(() => wire({ ...record, blockNumber: 12 })).toThrow(RecordError)
    expect(() => wire({ ...record, blockNumber: 12 })).toThrow(/blockNumber/)
  })

  it("given a required field left out, when decoded, then it is a RecordError naming it", () => {
    const { txCount: _, ...without } = record
    expect(() => wire(without)).toThrow(/txCount/)
  })

  it("given two columns reading one field, or a struct column, when the decoder is built, then it refuses at load naming the column", () => {
    const twice = defineSchema([str("a", "A", { from: "x" }), str("b", "B", { from: "x" })], "t")
    expect(() => wireDecoder(twice)).toThrow(/column b: field x is read by another column too/)
    const nested = defineSchema([struct("s", [str("c", "C")], "S", { from: "s" })], "t")
    expect(() => wireDecoder(nested)).toThrow(/column s: .* cannot be read with `from`/)
  })

  it("given an amount the service spells as a JSON integer (wire: integer), when decoded, then integers and the parser's bigints are exact and a string is refused", () => {
    const fees = wireDecoder(defineSchema([amount("fees", "Fees", { from: "fees", wire: "integer" })], "t"))
    expect(fees({ fees: 5 })).toEqual({ fees: 5n })
    expect(fees({ fees: 2n ** 70n })).toEqual({ fees: 2n ** 70n })
    expect(() => fees({ fees: "5" })).toThrow(RecordError)
    expect(() => wireDecoder(defineSchema([str("s", "S", { from: "s", wire: "integer" })], "t"))).toThrow(/column s: `wire` applies to amount and int64 columns/)
  })

  it("given a node uint64 (wire: decimal-string-or-integer), when decoded, then a decimal string, a JSON integer and a bigint are exact and a fraction is refused", () => {
    const supply = wireDecoder(defineSchema([amount("supply", "Supply", { from: "supply", wire: "decimal-string-or-integer" }), int64("height", "Height", { from: "height", optional: true, wire: "decimal-string-or-integer" })], "t"))
    expect(supply({ supply: "720000000000000000", height: "12" })).toEqual({ supply: 720000000000000000n, height: 12n })
    expect(supply({ supply: 5, height: 2n ** 70n })).toEqual({ supply: 5n, height: 2n ** 70n })
    expect(supply({ supply: "5" })).toEqual({ supply: 5n, height: null })
    expect(() => supply({ supply: 1.5 })).toThrow(/supply/)
    expect(() => supply({ supply: "0x10" })).toThrow(RecordError)
  })
})
