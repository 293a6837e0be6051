/**
 * primary_blocks: blocks of the primary network's P-, X- and C-chain as the chain-data service
 * lists them (route 12). Hive keys: network, blockchain, date (UTC day of block_timestamp).
 */
import { amount, defineSchema, hash, int32, int64, list, str, ts } from "./common.ts"

export const schema = defineSchema(
  [
    amount("block_number", "Block height"),
    hash("block_hash", "Block id (cb58 on P/X, 0x hex on C)"),
    hash("parent_hash", "Parent block id"),
    ts("block_timestamp", "Block timestamp (UTC)"),
    str("block_type", "Block type as the service names it"),
    int32("tx_count", "Number of transactions in the block"),
    list("transactions", hash("item", "Transaction id"), "Transaction ids in block order"),
    int64("block_size_bytes", "Serialized block size in bytes"),
    amount("l1_validators_accrued_fees", "Fees accrued by L1 validators (nAVAX), P-chain only"),
    int64("active_l1_validators", "Active L1 validators at this block, P-chain only"),
    amount("current_supply", "Current AVAX supply in nAVAX at this block"),
    str("proposer_id", "Proposer block id (Snowman++)"),
    str("proposer_parent_id", "Proposer parent block id"),
    str("proposer_node_id", "Node id of the block proposer"),
    int64("proposer_p_chain_height", "P-chain height the proposer referenced"),
    ts("proposer_timestamp", "Proposer timestamp (UTC)")
  ],
  "Primary-network blocks (P-, X-, C-chain) from the chain-data service, route 12"
)
