/** A UTXO's columns from its node bytes (utxos and avm_utxos alike); `utxo_bytes` is the hex as sent. */
import type { DecodedUtxo } from "../../src/decode/utxo.ts"

export const decodedUtxoColumns = (d: DecodedUtxo) => ({
  utxo_id: d.utxoId,
  tx_id: d.txId,
  output_index: d.outputIndex,
  asset_id: d.assetId,
  output_type: d.outputType,
  amount: d.amount,
  locktime: d.locktime,
  stakeable_locktime: d.stakeableLocktime,
  threshold: d.threshold,
  addresses: d.addresses,
  utxo_bytes: d.bytes
})
