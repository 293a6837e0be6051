/**
 * primary_blocks: blocks of the primary network's P-, X- and C-chain as the chain-data service
 * lists them (route 12). Hive keys: network, blockchain, month (of block_timestamp).
 */
import { IntegerLike } from "../src/transform/Decode.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("Primary-network blocks (P-, X-, C-chain) from the chain-data service, route 12", {
  network: col.str("Network of the listing: mainnet or fuji").fromSlice(),
  blockchain: col.str("Primary blockchain of the listing: p-chain, x-chain or c-chain").fromSlice(),
  block_number: col.amount("Block height").from("blockNumber"),
  block_hash: col.hash("Block id (cb58 on P/X, 0x hex on C)").from("blockHash"),
  parent_hash: col.hash("Parent block id").from("parentHash"),
  block_timestamp: col.ts("Block timestamp (UTC)").from("blockTimestamp"),
  block_type: col.str("Block type as the service names it").from("blockType"),
  tx_count: col.int32("Number of transactions in the block").from("txCount"),
  transactions: col.list(col.hash("Transaction id"), "Transaction ids in block order").from("transactions"),
  block_size_bytes: col.int64("Serialized block size in bytes").from("blockSizeBytes"),
  // a JSON integer, unlike the other amounts
  l1_validators_accrued_fees: col.amount("Fees accrued by L1 validators (nAVAX), P-chain only").from("l1ValidatorsAccruedFees?", { wire: IntegerLike }),
  active_l1_validators: col.int64("Active L1 validators at this block, P-chain only").from("activeL1Validators?"),
  current_supply: col.amount("Current AVAX supply in nAVAX at this block").from("currentSupply?"),
  proposer_id: col.str("Proposer block id (Snowman++)").from("proposerDetails?.proposerId?"),
  proposer_parent_id: col.str("Proposer parent block id").from("proposerDetails?.proposerParentId?"),
  proposer_node_id: col.str("Node id of the block proposer").from("proposerDetails?.proposerNodeId?"),
  proposer_p_chain_height: col.int64("P-chain height the proposer referenced").from("proposerDetails?.proposerPChainHeight?"),
  proposer_timestamp: col.ts("Proposer timestamp (UTC)").from("proposerDetails?.proposerTimestamp?")
})
