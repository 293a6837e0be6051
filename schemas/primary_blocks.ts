/**
 * primary_blocks: blocks of the primary network's P-, X- and C-chain as the chain-data service
 * lists them (route 12). Hive keys: network, blockchain, date (UTC day of block_timestamp). Each
 * column but the Hive keys is the record's field named in `from`.
 */
import { amount, defineSchema, hash, int32, int64, list, str, ts } from "./common.ts"

export const schema = defineSchema(
  [
    amount("block_number", "Block height", { from: "blockNumber" }),
    hash("block_hash", "Block id (cb58 on P/X, 0x hex on C)", { from: "blockHash" }),
    hash("parent_hash", "Parent block id", { from: "parentHash" }),
    ts("block_timestamp", "Block timestamp (UTC)", { from: "blockTimestamp" }),
    str("block_type", "Block type as the service names it", { from: "blockType" }),
    int32("tx_count", "Number of transactions in the block", { from: "txCount" }),
    list("transactions", hash("item", "Transaction id"), "Transaction ids in block order", { from: "transactions" }),
    int64("block_size_bytes", "Serialized block size in bytes", { from: "blockSizeBytes" }),
    amount("l1_validators_accrued_fees", "Fees accrued by L1 validators (nAVAX), P-chain only", { from: "l1ValidatorsAccruedFees", optional: true, wire: "integer" }),
    int64("active_l1_validators", "Active L1 validators at this block, P-chain only", { from: "activeL1Validators", optional: true }),
    amount("current_supply", "Current AVAX supply in nAVAX at this block", { from: "currentSupply", optional: true }),
    str("proposer_id", "Proposer block id (Snowman++)", { from: "proposerDetails.proposerId", optional: true }),
    str("proposer_parent_id", "Proposer parent block id", { from: "proposerDetails.proposerParentId", optional: true }),
    str("proposer_node_id", "Node id of the block proposer", { from: "proposerDetails.proposerNodeId", optional: true }),
    int64("proposer_p_chain_height", "P-chain height the proposer referenced", { from: "proposerDetails.proposerPChainHeight", optional: true }),
    ts("proposer_timestamp", "Proposer timestamp (UTC)", { from: "proposerDetails.proposerTimestamp", optional: true })
  ],
  "Primary-network blocks (P-, X-, C-chain) from the chain-data service, route 12"
)
