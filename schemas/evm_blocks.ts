/**
 * evm_blocks: blocks of the EVM chains of the job as the chain-data service lists them (route 10).
 * Hive keys: chain_id, date (UTC day of block_timestamp). Each column but chain_id is the record's
 * field named in `from`.
 */
import { amount, defineSchema, hash, int32, ts } from "./common.ts"

export const schema = defineSchema(
  [
    amount("block_number", "Block height", { nullable: false, from: "blockNumber" }),
    ts("block_timestamp", "Block timestamp (UTC)", { nullable: false, from: "blockTimestamp" }),
    hash("block_hash", "Block hash", { nullable: false, from: "blockHash" }),
    hash("parent_hash", "Hash of the parent block", { from: "parentHash" }),
    int32("tx_count", "Number of transactions in the block", { from: "txCount" }),
    amount("base_fee", "Base fee per gas in wei", { from: "baseFee" }),
    amount("gas_used", "Gas used by the block's transactions", { from: "gasUsed" }),
    amount("gas_limit", "Block gas limit", { from: "gasLimit" }),
    amount("gas_cost", "Avalanche block gas cost header field", { from: "gasCost" }),
    amount("fees_spent", "Fees paid by the block's transactions in wei (gas used × receipt gas price)", { from: "feesSpent" }),
    amount("cumulative_transactions", "Transactions of the chain up to and including this block", { from: "cumulativeTransactions" })
  ],
  "EVM blocks of the job's chains from the chain-data service, route 10"
)
