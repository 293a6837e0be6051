/**
 * utxos: UTXOs of the job's address sets (route 2, or route 3 where route 2 is unavailable), one
 * snapshot per run day. The output columns are decoded from the node bytes the service sends
 * (utxo_bytes) and checked against the service's own fields; the service's extra fields (asset
 * names, staking, spending) follow. Hive keys: network, blockchain, snapshot_date.
 */
import { address, amount, bool, defineSchema, hash, int32, int64, list, str, struct, ts } from "./common.ts"

export const schema = defineSchema(
  [
    str("address_set", "Name of the job's address set this listing was for", { nullable: false }),
    // decoded from utxo_bytes (from the service's fields when it sent no bytes)
    hash("utxo_id", "UTXO id (cb58 of sha256(tx id ‖ output index))", { nullable: false }),
    hash("tx_id", "Transaction that created the output (cb58)"),
    int32("output_index", "Output index within that transaction"),
    hash("asset_id", "Asset id (cb58)"),
    int32("output_type", "Codec type id of the output: 7 secp256k1 transfer, 22 P-chain stakeable lock, 6/10/11 mint and NFT outputs; null when no bytes were sent"),
    amount("amount", "Amount in the asset's smallest unit (0 for outputs without an amount)"),
    int64("locktime", "Unix time before which the output cannot be spent (0: none)"),
    int64("stakeable_locktime", "Unix time before which a P-chain output may only be staked (0: none)"),
    int32("threshold", "Signatures required to spend"),
    list("addresses", address("item", "Address"), "Owners, bech32 with chain prefix (e.g. P-avax1…), in output order"),
    str("utxo_bytes", "The node's UTXO bytes, 0x hex with checksum, exactly as sent"),
    // the service's own fields
    str("asset_name", "Asset name"),
    str("asset_symbol", "Asset symbol"),
    int32("asset_denomination", "Decimal places of the asset"),
    str("asset_type", "Asset type, e.g. secp256k1"),
    str("utxo_type", "UTXO type as sent: STAKE or TRANSFER on the P-chain, transfer, mint… elsewhere"),
    str("reward_type", "VALIDATOR, DELEGATOR or VALIDATOR_FEE for reward outputs (P-chain)"),
    bool("staked", "Whether the output is staked now (P-chain)"),
    amount("block_number", "Height of the block that created the output (P-chain)"),
    ts("block_timestamp", "When the output was created (UTC)"),
    hash("consuming_tx_hash", "Transaction that spent the output"),
    amount("consuming_block_number", "Height of the spending block (P-chain)"),
    ts("consuming_block_timestamp", "When the output was spent (UTC)"),
    hash("created_on_chain_id", "Blockchain the output was created on"),
    hash("consumed_on_chain_id", "Blockchain the output is spent on"),
    ts("utxo_start_timestamp", "When a staked output was locked (P-chain)"),
    ts("utxo_end_timestamp", "When a staked output unlocks (P-chain)"),
    int32("group_id", "Minting set of an NFT mint output (X-chain)"),
    str("payload", "Hex payload of an NFT output (X-chain)"),
    list(
      "credentials",
      struct("item", [str("signature", "Signature"), str("public_key", "Public key")], "Credential"),
      "Credentials that signed the spending transaction (X-chain)"
    )
  ],
  "UTXOs of the job's address sets from the chain-data service (routes 2/3), decoded from their node bytes, one snapshot per run day"
)
