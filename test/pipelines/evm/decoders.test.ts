/**
 * The EVM datasets' columns read as the service spells them: prices as exact text, amounts and
 * uint256s exact within their column's range, which is checked once, on the row (a value outside
 * is the record's reject naming the column).
 */
import { describe, expect, it } from "vitest"
import { dataset as evmBlocks } from "../../../pipelines/evm_blocks.ts"
import { dataset as nativeBalances } from "../../../pipelines/native_balances.ts"
import { RecordError } from "../../../src/crawl/Dataset.ts"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import { toRows } from "../../../src/transform/ToRows.ts"

const lineage = { runId: "r1", ingestedAt: new Date(0), page: 1 }
const balanceSlice = makeSlice("native_balances", { chain_id: "43114", address: "0xab", currency: "usd", snapshot_date: "2025-01-01" })
const balance = (fields: Record<string, unknown>) => ({ nativeTokenBalance: { name: "Avalanche", symbol: "AVAX", decimals: 18, chainId: "43114", balance: "5", ...fields } })

describe("EVM columns", () => {
  it("given a price as the seed's string, the document's number or a long integer, when mapped, then each is its decimal text", () => {
    const priced = (value: unknown) => nativeBalances.toRow(balance({ price: { currencyCode: "usd", value } }), balanceSlice)
    expect(priced("55.204156")).toMatchObject({ price: "55.204156", price_currency: "usd" })
    expect(priced(42.42)).toMatchObject({ price: "42.42" })
    expect(priced(10n ** 20n)).toMatchObject({ price: "100000000000000000000" })
    expect(() => priced("12,5")).toThrow(RecordError)
    expect(nativeBalances.toRow(balance({}), balanceSlice)).toMatchObject({ price: null, price_currency: null, balance: "5", balance_double: 5 })
  })

  it("given values at and past 2^256, when mapped, then 2^256 − 1 is exact text and 2^256 a reject naming the column", () => {
    const { mapped, rejects } = toRows(nativeBalances, balanceSlice, [balance({ balance: ((1n << 256n) - 1n).toString() }), balance({ balance: (1n << 256n).toString() })], lineage)
    expect(mapped.map((m) => m.row["balance"])).toEqual([((1n << 256n) - 1n).toString()])
    expect(rejects.map((r) => r["reason"])).toEqual(["column balance out of range: 78 digits, more than a uint256 holds (at most 2^256 − 1, 78 digits)"])
  })

  it("given a block whose gas used has 39 digits or is negative, when mapped, then each is a reject naming the column, not a failed write, and the page's other block is kept", () => {
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
    const { mapped, rejects } = toRows(evmBlocks, slice, [block, { ...block, gasUsed: "-1" }, { ...block, gasUsed: "9".repeat(38) }], lineage)
    expect(rejects.map((r) => r["reason"])).toEqual([
      "column gas_used out of range: 39 digits, more than the 38 of DECIMAL(38,0)",
      "column gas_used out of range: -1 is negative; the column holds no negative values"
    ])
    expect(mapped.map((m) => m.row)).toMatchObject([{ chain_id: "43114", block_number: 7n, gas_used: 10n ** 38n - 1n, block_timestamp: new Date("2025-01-01T00:00:00Z") }])
  })

  it("given a block without its required gasUsed, when mapped, then toRow throws a RecordError naming the field", () => {
    const block = { blockNumber: "7", blockTimestamp: 1_735_689_600, blockHash: "0xaa", parentHash: "0xbb", txCount: 1, baseFee: "1", gasLimit: "1", gasCost: "0", feesSpent: "0", cumulativeTransactions: "1" }
    expect(() => evmBlocks.toRow(block, makeSlice("evm_blocks", { chain_id: "43114" }))).toThrow(/gasUsed/)
    expect(() => evmBlocks.toRow(block, makeSlice("evm_blocks", { chain_id: "43114" }))).toThrow(RecordError)
  })
})
