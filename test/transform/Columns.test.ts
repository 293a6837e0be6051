/**
 * One declaration per column (schemas/columns.ts): the Arrow schema, the nullability, the wire
 * decoder and the row all come from the table, and what cannot be read is refused when the
 * dataset is declared, not when a record arrives.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as arrow from "../../src/ArrowTypes.ts"
import { RecordError } from "../../src/crawl/Dataset.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { read } from "../../src/transform/ColumnDecoder.ts"
import { IntegerLike } from "../../src/transform/Decode.ts"
import { defineChild, defineDataset } from "../../src/transform/DefineDataset.ts"
import { toRows } from "../../src/transform/ToRows.ts"
import { col, defineTable } from "../../schemas/columns.ts"
import { commentOf, isSigned } from "../../schemas/common.ts"
import { JsonText } from "../../schemas/wire.ts"

const none = { fetch: () => undefined as never }

const blocks = defineTable("Blocks", {
  chain_id: col.str("Chain of the listing").fromSlice(),
  height: col.amount("Height").from("blockNumber"),
  at: col.ts("Time").from("blockTimestamp"),
  size: col.int64("Size").from("sizeBytes?"),
  fees: col.amount("Fees, a JSON integer").from("fees?", { wire: IntegerLike }),
  change: col.amount("Balance change", { signed: true }).from("change?"),
  ids: col.list(col.hash("Id"), "Ids").from("ids?", { orElse: [] }),
  proposer: col.str("Proposer id").from("proposer?.id"),
  proposer_height: col.int64("Proposer height").from("proposer?.height"),
  genesis: col.str("Genesis as JSON text").from("genesis?", { wire: JsonText }),
  value: col.uint256("Value").from("value?"),
  owner: col.struct({ name: col.str("Name").from("name") }, "Owner, when known").from("owner?", { orNull: true }),
  assets: col
    .list(col.struct({ asset_id: col.hash("Asset").from("assetId"), amount: col.amount("Amount").from("amount"), name: col.str("Name").from("name?") }, "Asset amount"), "Assets")
    .from("assets"),
  tx_count: col.int32("Transactions: the ids counted")
})

const dataset = defineDataset(blocks, {
  name: "blocks",
  description: "test",
  services: ["data"],
  partitionBy: ["chain_id"],
  key: ["height"],
  slices: () => [],
  listing: none,
  compute: ({ read }) => ({ tx_count: read.ids.length })
})

const slice = makeSlice("blocks", { chain_id: "43114" })
const record = { blockNumber: "123456789012345678901234567890", blockTimestamp: 1_735_689_600, assets: [{ assetId: "A", amount: "7" }] }

describe("a table of columns declared once", () => {
  it("given the table, when its dataset is declared, then the Arrow schema holds every column but the Hive key, with its type, comment and nullability", () => {
    const fields = new Map(dataset.schema.fields.map((f) => [f.name, f]))
    expect([...fields.keys()]).toEqual([
      "height", "at", "size", "fees", "change", "ids", "proposer", "proposer_height", "genesis", "value", "value_double", "owner", "assets", "tx_count", "run_id", "ingested_at"
    ])
    const nullable = Object.fromEntries([...fields].map(([n, f]) => [n, f.nullable]))
    expect(nullable).toEqual({
      height: false, at: false, size: true, fees: true, change: true, ids: false, proposer: true, proposer_height: true, genesis: true,
      value: true, value_double: true, owner: true, assets: false, tx_count: false, run_id: false, ingested_at: false
    })
    expect(arrow.DataType.isDecimal(fields.get("height")!.type)).toBe(true)
    expect(commentOf(fields.get("proposer_height")!)).toBe("Proposer height")
    expect(isSigned(fields.get("change")!)).toBe(true)
    const item = (fields.get("assets")!.type as arrow.List).children[0]!
    expect((item.type as arrow.Struct).children.map((f) => [f.name, f.nullable])).toEqual([["asset_id", false], ["amount", false], ["name", true]])
    expect(dataset.partitionBy.map((p) => [p.key, p.type, p.comment])).toEqual([["chain_id", "VARCHAR", "Chain of the listing"]])
  })

  it("given a record with its required fields, when mapped, then each column holds its exact value, absent optional ones null or their default, and computed ones the code's", () => {
    expect(dataset.toRow(record, slice)).toEqual({
      chain_id: "43114",
      height: 123456789012345678901234567890n,
      at: new Date("2025-01-01T00:00:00Z"),
      size: null,
      fees: null,
      change: null,
      ids: [],
      proposer: null,
      proposer_height: null,
      genesis: null,
      value: null,
      value_double: null,
      owner: null,
      assets: [{ asset_id: "A", amount: 7n, name: null }],
      tx_count: 0
    })
  })

  it("given records of two slices in turn, when mapped, then each row holds its own slice's value, and a slice without the param is refused naming it", () => {
    const other = makeSlice("blocks", { chain_id: "43113" })
    expect([dataset.toRow(record, slice), dataset.toRow(record, other), dataset.toRow(record, slice)].map((r) => r.chain_id)).toEqual(["43114", "43113", "43114"])
    const bare = makeSlice("blocks", { network: "mainnet" })
    expect(() => dataset.toRow(record, bare)).toThrow(`blocks: slice ${bare.id} has no param chain_id for column chain_id`)
  })

  it("given the optional fields, when mapped, then nested paths, wire spellings, JSON text, a struct and the uint256 pair are read exactly, and a JSON null where it is accepted is null", () => {
    const row = dataset.toRow(
      {
        ...record,
        sizeBytes: 9007199254740993n,
        fees: 2n ** 70n,
        change: "-5",
        ids: ["a", "b"],
        proposer: { id: "p1", height: 42 },
        genesis: { chainId: 43114n },
        value: "1".repeat(60),
        owner: { name: "o", extra: 1 }
      },
      slice
    )
    expect(row).toMatchObject({
      size: 9007199254740993n,
      fees: 2n ** 70n,
      change: -5n,
      ids: ["a", "b"],
      proposer: "p1",
      proposer_height: 42n,
      genesis: '{"chainId":"43114"}',
      value: "1".repeat(60),
      value_double: Number("1".repeat(60)),
      owner: { name: "o" },
      tx_count: 2
    })
    expect(dataset.toRow({ ...record, owner: null }, slice)["owner"]).toBeNull()
    // a JSON null is accepted only where the column says so
    expect(() => dataset.toRow({ ...record, size: null, sizeBytes: null }, slice)).toThrow(/sizeBytes/)
  })

  it("given records the paths refuse, when mapped, then each is a RecordError naming the field", () => {
    const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
      [{ ...record, blockNumber: 12 }, /blockNumber/],
      [{ blockTimestamp: 1_735_689_600, assets: [] }, /blockNumber.*is missing/],
      // an optional object, once there, holds its required fields
      [{ ...record, proposer: { height: 1 } }, /"id".*is missing/],
      [{ ...record, assets: [{ assetId: "A" }] }, /\[0\].*"amount".*is missing/],
      [{ ...record, fees: "5" }, /fees/]
    ]
    for (const [bad, reason] of cases) {
      expect(() => dataset.toRow(bad, slice)).toThrow(RecordError)
      expect(() => dataset.toRow(bad, slice)).toThrow(reason)
    }
  })

  it("given a value outside its column's range, when the page is mapped, then its record is a reject naming the column, and the rest are rows", () => {
    const { mapped, rejects } = toRows(dataset, slice, [{ ...record, blockNumber: "1".repeat(39) }, record], { runId: "r", ingestedAt: new Date(0), page: 1 })
    expect(mapped).toHaveLength(1)
    expect(rejects.map((r) => r["reason"])).toEqual(["column height out of range: 39 digits, more than the 38 of DECIMAL(38,0)"])
  })
})

describe("records of several shapes", () => {
  const table = defineTable("UTXOs", {
    blockchain: col.str("Chain").fromSlice(),
    created: col.ts("Created").from({ p: "blockTimestamp", chain: "timestamp" }),
    height: col.amount("Height (P-chain)").from({ p: "blockNumber", chain: null })
  })
  const utxos = defineDataset(table, {
    name: "utxos",
    description: "test",
    services: ["data"],
    partitionBy: ["blockchain"],
    key: ["created"],
    slices: () => [],
    listing: none,
    variant: (s) => (s.params["blockchain"] === "p-chain" ? "p" : "chain"),
    reads: { tx: read({ p: "txHash", chain: "creationTxHash" }, Schema.String) }
  })

  it("given a P-chain and an X-chain record, when mapped, then each is read at its own shape's paths, and a field one shape lacks is null there", () => {
    expect(utxos.toRow({ blockTimestamp: 1_735_689_600, blockNumber: "7", txHash: "t" }, makeSlice("utxos", { blockchain: "p-chain" }))).toEqual({
      blockchain: "p-chain",
      created: new Date("2025-01-01T00:00:00Z"),
      height: 7n
    })
    expect(utxos.toRow({ timestamp: 1_735_689_600, creationTxHash: "t" }, makeSlice("utxos", { blockchain: "x-chain" }))).toEqual({
      blockchain: "x-chain",
      created: new Date("2025-01-01T00:00:00Z"),
      height: null
    })
    expect(table.columns.height.spec.nullable).toBe(true)
    expect(table.columns.created.spec.nullable).toBe(false)
  })
})

describe("a child table", () => {
  const parent = defineTable("Transactions", {
    chain_id: col.str("Chain").fromSlice(),
    tx_hash: col.hash("Tx").from("txHash"),
    transfers: col.int32("Transfers in the tx").from("transfers?", { wire: Schema.Array(Schema.Unknown).pipe(Schema.transform(Schema.Number, { strict: true, decode: (a) => a.length, encode: () => [] })), orElse: 0 })
  })
  const transfers = defineTable("Transfers", {
    chain_id: col.str("Chain").fromSlice(),
    tx_hash: col.hash("Tx").fromParent(),
    log_index: col.int32("Log").from("logIndex"),
    value: col.uint256("Value").from("value"),
    trace: col.int32("Place in the list")
  })
  const txs = defineDataset(parent, {
    name: "txs",
    description: "test",
    services: ["data"],
    partitionBy: ["chain_id"],
    key: ["tx_hash"],
    slices: () => [],
    listing: none,
    children: [
      defineChild(parent, transfers, {
        name: "transfers",
        description: "test",
        partitionBy: ["chain_id"],
        key: ["tx_hash", "log_index"],
        items: "transfers?",
        compute: ({ index }) => ({ trace: index })
      })
    ]
  })
  const lineage = { runId: "r", ingestedAt: new Date(0), page: 1 }

  it("given a record with a list, when mapped, then each item is a child row with the slice's and the parent's columns", () => {
    const { mapped, rejects } = toRows(txs, makeSlice("txs", { chain_id: "c" }), [{ txHash: "0x1", transfers: [{ logIndex: 3, value: "10" }, { logIndex: 4, value: "11" }] }], lineage)
    expect(rejects).toEqual([])
    expect(mapped[0]!.row).toMatchObject({ chain_id: "c", tx_hash: "0x1", transfers: 2 })
    expect(mapped[0]!.children[0]![1]).toEqual([
      { chain_id: "c", tx_hash: "0x1", log_index: 3, value: "10", value_double: 10, trace: 0, run_id: "r", ingested_at: new Date(0) },
      { chain_id: "c", tx_hash: "0x1", log_index: 4, value: "11", value_double: 11, trace: 1, run_id: "r", ingested_at: new Date(0) }
    ])
  })

  it("given an item that does not decode, when mapped, then the whole record is a reject naming the list, and no unknown field is counted for the list", () => {
    const { mapped, rejects, unknownFields } = toRows(txs, makeSlice("txs", { chain_id: "c" }), [{ txHash: "0x1", transfers: [{ logIndex: "x", value: "1" }] }, { txHash: "0x2" }], lineage)
    expect(mapped.map((m) => m.row["tx_hash"])).toEqual(["0x2"])
    expect(String(rejects[0]!["reason"])).toMatch(/^transfers\?: .*\[0\].*logIndex/)
    expect([...unknownFields.keys()]).toEqual([])
  })
})

describe("what is refused when declared", () => {
  const base = { description: "t", services: ["data"] as const, partitionBy: [], slices: () => [], listing: none }

  it("given a key column that may be null, when declared, then it is refused naming the column", () => {
    const t = defineTable("t", { a: col.str("A").from("a?") })
    // @ts-expect-error a nullable column is no key
    expect(() => defineDataset(t, { ...base, name: "t", key: ["a"] })).toThrow(/key: a may be null/)
  })

  it("given two columns reading one field, or one field optional for one and required for another, when declared, then it is refused naming them", () => {
    const twice = defineTable("t", { a: col.str("A").from("x"), b: col.str("B").from("x") })
    expect(() => defineDataset(twice, { ...base, name: "t", key: ["a"] })).toThrow(/b: field x is read by another column too/)
    const both = defineTable("t", { a: col.str("A").from("o?.x"), b: col.str("B").from("o.y") })
    expect(() => defineDataset(both, { ...base, name: "t", key: [] })).toThrow(/field o is optional for one column and required for another/)
  })

  it("given computed columns without compute, a struct field without a path, a default never used or a bad name, when declared, then each is refused", () => {
    const computed = defineTable("t", { a: col.str("A") })
    // @ts-expect-error the computed column needs compute… (checked at run time too)
    expect(() => defineDataset(computed, { ...base, name: "t", key: ["a"] })).toThrow(/computed columns need a compute/)
    expect(() => defineTable("t", { s: col.struct({ x: col.str("X") }, "S").from("s") })).toThrow(/s\.x: a field of a struct read from the record needs a path/)
    expect(() => col.list(col.str("X"), "L").from("l", { orElse: [] })).toThrow(/orElse without an optional step/)
    expect(() => defineTable("t", { Bad: col.str("B") })).toThrow(/not snake_case/)
    expect(() => col.str("A").from("a..b")).toThrow(/is not a field name/)
  })

  it("given a column misspelt in a key, a sort key, a Hive key or a computed row, then tsc refuses it (and defineDataset at run time)", () => {
    const t = defineTable("t", { net: col.str("N").fromSlice(), a: col.str("A").from("a"), n: col.int32("N") })
    const spec = { ...base, name: "t", slices: () => [] }
    // @ts-expect-error no column "b"
    expect(() => defineDataset(t, { ...spec, key: ["b"], compute: () => ({ n: 1 }) })).toThrow(/key: b is not a column/)
    // @ts-expect-error a Hive key is a slice column
    expect(() => defineDataset(t, { ...spec, key: ["a"], partitionBy: ["a"], compute: () => ({ n: 1 }) })).toThrow(/Hive key a: not a column read from the slice/)
    // @ts-expect-error no column "c" to sort by
    expect(() => defineDataset(t, { ...spec, key: ["a"], sortBy: ["c"], compute: () => ({ n: 1 }) })).toThrow(/sortBy: c is not a column/)
    // @ts-expect-error "m" is no column (a misspelt "n")
    defineDataset(t, { ...spec, key: ["a"], compute: () => ({ n: 1, m: 1 }) })
    // @ts-expect-error "n" is missing
    defineDataset(t, { ...spec, key: ["a"], compute: () => ({}) })
    // @ts-expect-error n holds a number
    defineDataset(t, { ...spec, key: ["a"], compute: () => ({ n: "1" }) })
  })
})
