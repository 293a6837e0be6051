/**
 * node_p_blocks: P-chain blocks from the node's platform.getBlockByHeight (hex, decoded), crawled
 * in height windows, with their transactions nested (the node has no P-chain getTx in the seed).
 * Hive keys: network, month (of the block's time; Apricot-era blocks, which carry none, of the
 * P-chain's genesis day).
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
          list("stake", outputStruct("item", "Output"), "Staker txs: the staked outputs"),
          str("node_id", "Staker and subnet-validator txs: the validator's node id (NodeID-…)"),
          ts("start_time", "Staker txs: validation start (UTC)"),
          ts("end_time", "Staker txs: validation end (UTC)"),
          amount("weight", "Staker txs: stake weight (nAVAX, or the subnet's unit)"),
          hash("subnet_id", "Subnet the tx concerns (subnet validators, permissionless staking, chains, L1s)"),
          hash("rewarded_tx_id", "RewardValidatorTx, RewardAutoRenewedValidatorTx: the staker tx it rewards")
        ],
        "Transaction"
      ),
      "Transactions in block order, from the block's json"
    )
  ],
  "P-chain blocks from the node's platform.getBlockByHeight (hex, decoded with avalanchego's codec) with their transactions, by height window; a closed window is never fetched again"
)
