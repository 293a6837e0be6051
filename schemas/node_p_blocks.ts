/**
 * node_p_blocks: P-chain blocks from the node's platform.getBlockByHeight (hex, decoded), crawled
 * in height windows, with their transactions nested (the node has no P-chain getTx in the seed).
 * Hive keys: network, month (of the block's time; Apricot-era blocks, which carry none, of the
 * P-chain's genesis day). Every column is computed from the block's bytes.
 */
import { blockColumns, outputStruct, txColumns } from "./_node.ts"
import { col, defineTable, type ValueOf } from "./columns.ts"

export const pTxStruct = col.struct(
  {
    ...txColumns,
    stake: col.list(outputStruct, "Staker txs: the staked outputs"),
    node_id: col.str("Staker and subnet-validator txs: the validator's node id (NodeID-…)").nullable(),
    start_time: col.ts("Staker txs: validation start (UTC)").nullable(),
    end_time: col.ts("Staker txs: validation end (UTC)").nullable(),
    weight: col.amount("Staker txs: stake weight (nAVAX, or the subnet's unit)").nullable(),
    subnet_id: col.hash("Subnet the tx concerns (subnet validators, permissionless staking, chains, L1s)").nullable(),
    rewarded_tx_id: col.hash("RewardValidatorTx, RewardAutoRenewedValidatorTx: the staker tx it rewards").nullable()
  },
  "Transaction"
)

export type PTxRow = ValueOf<typeof pTxStruct>

export const table = defineTable(
  "P-chain blocks from the node's platform.getBlockByHeight (hex, decoded with avalanchego's codec) with their transactions, by height window; a closed window is never fetched again",
  {
    ...blockColumns,
    txs: col.list(pTxStruct, "Transactions in block order, from the block's json")
  }
)
