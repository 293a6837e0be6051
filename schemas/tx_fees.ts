/** tx_fees: the X-chain's fees from avm.getTxFee. Hive keys: network, snapshot_date. */
import { amount, defineSchema } from "./common.ts"

export const schema = defineSchema(
  [amount("tx_fee", "Fee of a transaction (nAVAX)"), amount("create_asset_tx_fee", "Fee of a CreateAssetTx (nAVAX)")],
  "X-chain transaction fees from the node's avm.getTxFee, one snapshot per run day"
)
