/**
 * avm_utxos: the X-chain UTXOs of the job's x-chain address sets from the node's avm.getUTXOs,
 * the chain's own and the atomic ones exported to it from each job source chain, decoded from
 * their bytes like utxos' (same decoded columns). Hive keys: network, chain, snapshot_date.
 */
import { address, amount, defineSchema, hash, int32, int64, list, str } from "./common.ts"

export const schema = defineSchema(
  [
    str("address_set", "Name of the job's address set this listing was for", { nullable: false }),
    hash("source_chain", "Atomic UTXOs: blockchain id (cb58) of the chain that exported them; null for the X-chain's own UTXOs"),
    // decoded from utxo_bytes, as in utxos
    hash("utxo_id", "UTXO id (cb58 of sha256(tx id ‖ output index))", { nullable: false }),
    hash("tx_id", "Transaction that created the output (cb58)"),
    int32("output_index", "Output index within that transaction"),
    hash("asset_id", "Asset id (cb58)"),
    int32("output_type", "Codec type id of the output: 7 secp256k1 transfer, 6/10/11 mint and NFT outputs"),
    amount("amount", "Amount in the asset's smallest unit (0 for outputs without an amount)"),
    int64("locktime", "Unix time before which the output cannot be spent (0: none)"),
    int64("stakeable_locktime", "Unix time before which a P-chain output may only be staked (0: none)"),
    int32("threshold", "Signatures required to spend"),
    list("addresses", address("item", "Address"), "Owners, bech32 with chain prefix (X-avax1…), in output order"),
    str("utxo_bytes", "The node's UTXO bytes, 0x hex with checksum, exactly as sent")
  ],
  "X-chain UTXOs (own and atomic) of the job's address sets from the node's avm.getUTXOs, decoded from their bytes, one snapshot per run day"
)
