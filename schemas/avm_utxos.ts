/**
 * avm_utxos: the X-chain UTXOs of the job's x-chain address sets from the node's avm.getUTXOs,
 * the chain's own and the atomic ones exported to it from each job source chain, decoded from
 * their bytes like utxos' (same decoded columns). Hive keys: network, chain, snapshot_date. Every
 * UTXO the node lists is its bytes, so each decoded column has a value.
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable(
  "X-chain UTXOs (own and atomic) of the job's address sets from the node's avm.getUTXOs, decoded from their bytes, one snapshot per run day",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    chain: col.str("Chain listed: x-chain").fromSlice(),
    snapshot_date: col.date("UTC day of the run that listed the UTXOs").fromSlice(),
    address_set: col.str("Name of the job's address set this listing was for").fromSlice(),
    source_chain: col.hash("Atomic UTXOs: blockchain id (cb58) of the chain that exported them; null for the X-chain's own UTXOs").nullable(),
    // decoded from utxo_bytes, as in utxos
    utxo_id: col.hash("UTXO id (cb58 of sha256(tx id ‖ output index))"),
    tx_id: col.hash("Transaction that created the output (cb58)"),
    output_index: col.int32("Output index within that transaction"),
    asset_id: col.hash("Asset id (cb58)"),
    output_type: col.int32("Codec type id of the output: 7 secp256k1 transfer, 6/10/11 mint and NFT outputs"),
    amount: col.amount("Amount in the asset's smallest unit (0 for outputs without an amount)"),
    locktime: col.int64("Unix time before which the output cannot be spent (0: none)"),
    stakeable_locktime: col.int64("Unix time before which a P-chain output may only be staked (0: none)"),
    threshold: col.int32("Signatures required to spend"),
    addresses: col.list(col.address("Address"), "Owners, bech32 with chain prefix (X-avax1…), in output order"),
    utxo_bytes: col.str("The node's UTXO bytes, 0x hex with checksum, exactly as sent")
  }
)
