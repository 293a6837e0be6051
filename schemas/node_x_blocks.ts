/**
 * node_x_blocks: X-chain blocks from the node's avm.getBlockByHeight (json), crawled in height
 * windows. Hive keys: network, month (of the block's time). Transactions are in
 * node_transactions, by the ids listed here. The record is the height asked for and the node's
 * block: vms/avm/block/standard_block.go, the AVM's one block type (id, parentID, height, time,
 * merkleRoot, txs, every field always written).
 */
import { blockColumns } from "./_node.ts"
import { col, defineTable } from "./columns.ts"
import { Ids, NodeTime } from "./wire.ts"

export const table = defineTable("X-chain blocks from the node's avm.getBlockByHeight (json), by height window; a closed window is never fetched again", {
  network: blockColumns.network,
  // checked against the height asked for
  height: blockColumns.height,
  block_id: blockColumns.block_id.from("block.id"),
  parent_id: blockColumns.parent_id.from("block.parentID"),
  // the AVM registers one block type (vms/avm/block/parser.go)
  block_type: blockColumns.block_type,
  block_timestamp: col.ts("Block time (UTC)").from("block.time", { wire: NodeTime }),
  tx_count: blockColumns.tx_count,
  tx_ids: col.list(col.hash("Transaction id"), "Transaction ids in block order (details: node_transactions)").from("block.txs", { wire: Ids })
})
