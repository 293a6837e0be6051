/**
 * evm_blocks: blocks of the EVM chains of the job as the chain-data service lists them (route 10).
 * Hive keys: chain_id, date (UTC day of block_timestamp).
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable("EVM blocks of the job's chains from the chain-data service, route 10", {
  chain_id: col.str("EVM chain id of the listing").fromSlice(),
  block_number: col.amount("Block height").from("blockNumber"),
  block_timestamp: col.ts("Block timestamp (UTC)").from("blockTimestamp"),
  block_hash: col.hash("Block hash").from("blockHash"),
  parent_hash: col.hash("Hash of the parent block").from("parentHash"),
  tx_count: col.int32("Number of transactions in the block").from("txCount"),
  base_fee: col.amount("Base fee per gas in wei").from("baseFee"),
  gas_used: col.amount("Gas used by the block's transactions").from("gasUsed"),
  gas_limit: col.amount("Block gas limit").from("gasLimit"),
  gas_cost: col.amount("Avalanche block gas cost header field").from("gasCost"),
  fees_spent: col.amount("Fees paid by the block's transactions in wei (gas used × receipt gas price)").from("feesSpent"),
  cumulative_transactions: col.amount("Transactions of the chain up to and including this block").from("cumulativeTransactions")
})
