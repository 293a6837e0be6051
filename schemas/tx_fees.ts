/**
 * tx_fees: the X-chain's fees from avm.getTxFee. Hive keys: network, snapshot_date. Both columns
 * are the answer's field named in `from`, node uint64s (a decimal string, or a JSON integer).
 */
import { amount, defineSchema } from "./common.ts"

export const schema = defineSchema(
  [
    amount("tx_fee", "Fee of a transaction (nAVAX)", { from: "txFee", wire: "decimal-string-or-integer" }),
    amount("create_asset_tx_fee", "Fee of a CreateAssetTx (nAVAX)", { from: "createAssetTxFee", wire: "decimal-string-or-integer" })
  ],
  "X-chain transaction fees from the node's avm.getTxFee, one snapshot per run day"
)
