/**
 * evm_blocks: blocks of the EVM chains of the job as the chain-data service lists them (route 10).
 * Hive keys: chain_id, date (UTC day of block_timestamp).
 */
import { amount, defineSchema, hash, int32, ts } from "./common.ts"

export const schema = defineSchema(
  [
    amount("block_number", "Block height", { nullable: false }),
    ts("block_timestamp", "Block timestamp (UTC)", { nullable: false }),
    hash("block_hash", "Block hash", { nullable: false }),
    hash("parent_hash", "Hash of the parent block"),
    int32("tx_count", "Number of transactions in the block"),
    amount("base_fee", "Base fee per gas in wei"),
    amount("gas_used", "Gas used by the block's transactions"),
    amount("gas_limit", "Block gas limit"),
    amount("gas_cost", "Avalanche block gas cost header field"),
    amount("fees_spent", "Fees paid by the block's transactions in wei (gas used × receipt gas price)"),
    amount("cumulative_transactions", "Transactions of the chain up to and including this block")
  ],
  "EVM blocks of the job's chains from the chain-data service, route 10"
)
