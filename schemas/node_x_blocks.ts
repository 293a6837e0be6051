/**
 * node_x_blocks: X-chain blocks from the node's avm.getBlockByHeight (json), crawled in height
 * windows. Hive keys: network, date (UTC day of the block's time). Transactions are in
 * node_transactions, by the ids listed here.
 */
import { defineSchema, hash, int32, int64, list, str, ts } from "./common.ts"

export const blockFields = [
  int64("height", "Block height", { nullable: false }),
  hash("block_id", "Block id: cb58 of the sha256 of the block's bytes", { nullable: false }),
  hash("parent_id", "Parent block id (cb58)", { nullable: false }),
  str("block_type", "Block type, avalanchego's struct name: on the P-chain ApricotProposalBlock, ApricotCommitBlock, ApricotAbortBlock, ApricotStandardBlock, ApricotAtomicBlock, BanffProposalBlock, BanffCommitBlock, BanffAbortBlock or BanffStandardBlock (from the codec's type id); on the X-chain StandardBlock, its one type since it became a chain of blocks (Cortina)", { nullable: false }),
  ts("block_timestamp", "Block time (UTC); null for P-chain blocks of the Apricot era, whose bytes carry no time (their date is the P-chain's genesis day, 2020-09-10)"),
  int32("tx_count", "Transactions in the block", { nullable: false })
]

export const schema = defineSchema(
  [...blockFields, list("tx_ids", hash("item", "Transaction id"), "Transaction ids in block order (details: node_transactions)")],
  "X-chain blocks from the node's avm.getBlockByHeight (json), by height window; a closed window is never fetched again"
)
