/**
 * utxos: UTXOs of the job's address sets (route 2, or route 3 where route 2 is unavailable), one
 * snapshot per run day. The output columns are decoded from the node bytes the service sends
 * (utxo_bytes) and checked against the service's own fields; the service's extra fields (asset
 * names, staking, spending) follow. Hive keys: network, blockchain, snapshot_date.
 *
 * The P-chain lists the seed's PChainUtxo (`p`), the X- and C-chain the document's Utxo (`chain`):
 * a column read from both names its field in each.
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable(
  "UTXOs of the job's address sets from the chain-data service (routes 2/3), decoded from their node bytes, one snapshot per run day",
  {
    network: col.str("Network of the address set: mainnet or fuji").fromSlice(),
    blockchain: col.str("Blockchain of the address set: p-chain, x-chain or c-chain").fromSlice(),
    snapshot_date: col.date("UTC day of the run that listed the UTXOs").fromSlice(),
    address_set: col.str("Name of the job's address set this listing was for").fromSlice(),
    // decoded from utxo_bytes (from the service's fields when it sent no bytes)
    utxo_id: col.hash("UTXO id (cb58 of sha256(tx id ‖ output index))"),
    tx_id: col.hash("Transaction that created the output (cb58)"),
    output_index: col.int32("Output index within that transaction"),
    asset_id: col.hash("Asset id (cb58)"),
    output_type: col
      .int32("Codec type id of the output: 7 secp256k1 transfer, 22 P-chain stakeable lock, 6/10/11 mint and NFT outputs; null when no bytes were sent")
      .nullable(),
    amount: col.amount("Amount in the asset's smallest unit (0 for outputs without an amount)"),
    locktime: col.int64("Unix time before which the output cannot be spent (0: none)").nullable(),
    stakeable_locktime: col.int64("Unix time before which a P-chain output may only be staked (0: none)").nullable(),
    threshold: col.int32("Signatures required to spend").nullable(),
    addresses: col.list(col.address("Address"), "Owners, bech32 with chain prefix (e.g. P-avax1…), in output order"),
    utxo_bytes: col.str("The node's UTXO bytes, 0x hex with checksum, exactly as sent").nullable(),
    // the service's own fields
    asset_name: col.str("Asset name").from("asset.name"),
    asset_symbol: col.str("Asset symbol").from("asset.symbol"),
    asset_denomination: col.int32("Decimal places of the asset").from("asset.denomination"),
    asset_type: col.str("Asset type, e.g. secp256k1").from("asset.type"),
    utxo_type: col.str("UTXO type as sent: STAKE or TRANSFER on the P-chain, transfer, mint… elsewhere").from("utxoType"),
    reward_type: col.str("VALIDATOR, DELEGATOR or VALIDATOR_FEE for reward outputs (P-chain)").from({ p: "rewardType?", chain: null }),
    staked: col.bool("Whether the output is staked now (P-chain)").from({ p: "staked?", chain: null }),
    block_number: col.amount("Height of the block that created the output (P-chain)").from({ p: "blockNumber", chain: null }),
    block_timestamp: col.ts("When the output was created (UTC)").from({ p: "blockTimestamp", chain: "timestamp" }),
    consuming_tx_hash: col.hash("Transaction that spent the output").from("consumingTxHash?"),
    consuming_block_number: col.amount("Height of the spending block (P-chain)").from({ p: "consumingBlockNumber?", chain: null }),
    consuming_block_timestamp: col.ts("When the output was spent (UTC)").from({ p: "consumingBlockTimestamp?", chain: "consumingTxTimestamp?" }),
    created_on_chain_id: col.hash("Blockchain the output was created on").from("createdOnChainId"),
    consumed_on_chain_id: col.hash("Blockchain the output is spent on").from("consumedOnChainId"),
    utxo_start_timestamp: col.ts("When a staked output was locked (P-chain)").from({ p: "utxoStartTimestamp?", chain: null }),
    utxo_end_timestamp: col.ts("When a staked output unlocks (P-chain)").from({ p: "utxoEndTimestamp?", chain: null }),
    group_id: col.int32("Minting set of an NFT mint output (X-chain)").from({ p: null, chain: "groupId?" }),
    payload: col.str("Hex payload of an NFT output (X-chain)").from({ p: null, chain: "payload?" }),
    credentials: col
      .list(
        col.struct({ signature: col.str("Signature").from("signature?"), public_key: col.str("Public key").from("publicKey?") }, "Credential"),
        "Credentials that signed the spending transaction (X-chain)"
      )
      .from({ p: null, chain: "credentials?" }, { orElse: [] })
  }
)
