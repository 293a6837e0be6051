/**
 * node_p_blocks: P-chain blocks from the node's platform.getBlockByHeight (json), crawled in
 * height windows, with their transactions nested (the node has no P-chain getTx in the seed).
 * Hive keys: network, date (UTC day of the block's time, or of ingestion when the json has none).
 */
import { amount, defineSchema, hash, list, str, struct, ts } from "./common.ts"
import { blockFields } from "./node_x_blocks.ts"
import { outputStruct, txFields } from "./node_transactions.ts"

export const schema = defineSchema(
  [
    ...blockFields,
    list(
      "txs",
      struct(
        "item",
        [
          ...txFields,
          list("stake", outputStruct("item", "Output"), "Staking txs: the staked outputs"),
          str("node_id", "Staking txs: the validator's node id"),
          ts("start_time", "Staking txs: validation start (UTC)"),
          ts("end_time", "Staking txs: validation end (UTC)"),
          amount("weight", "Staking txs: stake weight (nAVAX)"),
          hash("subnet_id", "Subnet the tx concerns (permissionless staking, chains, L1s)"),
          hash("rewarded_tx_id", "RewardValidatorTx: the staking tx it rewards")
        ],
        "Transaction"
      ),
      "Transactions in block order, from the block's json"
    )
  ],
  "P-chain blocks from the node's platform.getBlockByHeight (json) with their transactions, by height window; a closed window is never fetched again"
)
