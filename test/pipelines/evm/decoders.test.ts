import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { dataset as evmBlocks } from "../../../pipelines/evm_blocks.ts"
import { Amount, Money, Uint256 } from "../../../pipelines/_evm.ts"
import { RecordError } from "../../../src/crawl/Dataset.ts"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import { toRows } from "../../../src/transform/ToRows.ts"

const decode = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknownEither(schema)

describe("EVM decoders", () => {
  it("given a price as the seed's string, the document's number or a long integer, when decoded, then each is its decimal text", () => {
    const money = decode(Money)
    expect(money({ currencyCode: "usd", value: "55.204156" })).toMatchObject({ _tag: "Right", right: { currencyCode: "usd", value: "55.204156" } })
    expect(money({ currencyCode: "eur", value: 42.42 })).toMatchObject({ right: { value: "42.42" } })
    expect(money({ currencyCode: "jpy", value: 10n ** 20n })).toMatchObject({ right: { value: "100000000000000000000" } })
    expect(money({ currencyCode: "usd", value: "12,5" })._tag).toBe("Left")
  })

  it("given amounts at and past DECIMAL(38,0), when decoded, then 38 digits pass and 39 are refused", () => {
    expect(decode(Amount)("9".repeat(38))).toMatchObject({ right: 10n ** 38n - 1n })
    expect(decode(Amount)("1" + "0".repeat(38))._tag).toBe("Left")
    expect(decode(Amount)("-1")._tag).toBe("Left")
  })

  it("given values at and past 2^256, when decoded, then 2^256 − 1 passes and 2^256 is refused", () => {
    expect(decode(Uint256)(((1n << 256n) - 1n).toString())).toMatchObject({ right: (1n << 256n) - 1n })
    expect(decode(Uint256)((1n << 256n).toString())._tag).toBe("Left")
  })

  it("given a block whose gas used has 39 digits, when mapped, then it is a reject naming the column, not a failed write, and the page's other block is kept", () => {
    const block = {
      chainId: "43114",
      blockNumber: "7",
      blockTimestamp: 1_735_689_600,
      blockHash: "0xaa",
      txCount: 1,
      baseFee: "25000000000",
      gasUsed: "1" + "0".repeat(38),
      gasLimit: "15000000",
      gasCost: "0",
      parentHash: "0xbb",
      feesSpent: "0",
      cumulativeTransactions: "1"
    }
    const slice = makeSlice("evm_blocks", { chain_id: "43114" })
    const { mapped, rejects } = toRows(evmBlocks, slice, [block, { ...block, gasUsed: "21000" }], { runId: "r1", ingestedAt: new Date(0), page: 1 })
    expect(rejects).toHaveLength(1)
    expect(rejects[0]?.["reason"]).toMatch(/^column gas_used out of range: 39 digits/)
    expect(mapped.map((m) => m.row)).toMatchObject([{ chain_id: "43114", block_number: 7n, gas_used: 21000n, block_timestamp: new Date("2025-01-01T00:00:00Z") }])
  })

  it("given a block without its required gasUsed, when mapped, then toRow throws a RecordError naming the field", () => {
    const block = { blockNumber: "7", blockTimestamp: 1_735_689_600, blockHash: "0xaa", parentHash: "0xbb", txCount: 1, baseFee: "1", gasLimit: "1", gasCost: "0", feesSpent: "0", cumulativeTransactions: "1" }
    expect(() => evmBlocks.toRow(block, makeSlice("evm_blocks", { chain_id: "43114" }))).toThrow(/gasUsed/)
    expect(() => evmBlocks.toRow(block, makeSlice("evm_blocks", { chain_id: "43114" }))).toThrow(RecordError)
  })
})
