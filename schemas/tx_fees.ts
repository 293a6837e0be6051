/**
 * tx_fees: the X-chain's fees from avm.getTxFee. Hive keys: network, snapshot_date. The answer is
 * avalanchego's GetTxFeeReply {txFee, createAssetTxFee} (vms/avm/service.go), both always written,
 * node uint64s (a decimal string, or a JSON integer).
 */
import { col, defineTable } from "./columns.ts"
import { NodeUint } from "./wire.ts"

export const table = defineTable("X-chain transaction fees from the node's avm.getTxFee, one snapshot per run day", {
  network: col.str("Network of the node: mainnet or fuji").fromSlice(),
  snapshot_date: col.date("UTC day of the run that asked").fromSlice(),
  tx_fee: col.amount("Fee of a transaction (nAVAX)").from("txFee", { wire: NodeUint }),
  create_asset_tx_fee: col.amount("Fee of a CreateAssetTx (nAVAX)").from("createAssetTxFee", { wire: NodeUint })
})
