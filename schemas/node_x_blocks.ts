/**
 * node_x_blocks: X-chain blocks from the node's avm.getBlockByHeight (json), crawled in height
 * windows. Hive keys: network, date (UTC day of the block's time). Transactions are in
 * node_transactions, by the ids listed here.
 */
import { defineSchema, hash, int32, int64, list, ts } from "./common.ts"

export const blockFields = [
  int64("height", "Block height", { nullable: false }),
  hash("block_id", "Block id (cb58)"),
  hash("parent_id", "Parent block id (cb58)"),
  ts("block_timestamp", "Block time (UTC); null when the json has none (the date key then is the ingestion day)"),
  int32("tx_count", "Transactions in the block")
]

export const schema = defineSchema(
  [...blockFields, list("tx_ids", hash("item", "Transaction id"), "Transaction ids in block order (details: node_transactions)")],
  "X-chain blocks from the node's avm.getBlockByHeight (json), by height window; a closed window is never fetched again"
)
