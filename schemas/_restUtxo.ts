/**
 * The chain-data service's shared objects as columns (seed: Shared objects): an asset amount and
 * a P-chain Utxo, each field read from the object by its path.
 */
import { col } from "./columns.ts"

/** The AssetAmount object (seed: every field required). */
export const assetAmount = col.struct(
  {
    asset_id: col.hash("Asset id (cb58)").from("assetId"),
    name: col.str("Asset name").from("name"),
    symbol: col.str("Asset symbol").from("symbol"),
    denomination: col.int32("Decimal places of the asset").from("denomination"),
    type: col.str("Asset type, e.g. secp256k1").from("type"),
    amount: col.amount("Amount in the asset's smallest unit").from("amount")
  },
  "Asset amount"
)

/**
 * The PChainUtxo object. The top-level assetId/amount are deprecated in the official document:
 * the asset object rules.
 */
export const pChainUtxo = col.struct(
  {
    utxo_id: col.hash("UTXO id (cb58)").from("utxoId"),
    tx_hash: col.hash("Transaction that created the UTXO").from("txHash"),
    output_index: col.int32("Output index within that transaction").from("outputIndex"),
    asset_id: col.hash("Asset id (cb58)").from("asset.assetId"),
    amount: col.amount("Amount in the asset's smallest unit").from("asset.amount"),
    addresses: col.list(col.address("Address"), "Addresses that can spend the output").from("addresses"),
    threshold: col.int32("Signatures required to spend").from("threshold?"),
    utxo_type: col.str("UTXO type, e.g. STAKE, TRANSFER").from("utxoType"),
    reward_type: col.str("Reward type for reward UTXOs").from("rewardType?"),
    staked: col.bool("Whether the UTXO is staked").from("staked?"),
    block_number: col.amount("Height of the block that created the UTXO").from("blockNumber"),
    block_timestamp: col.ts("Timestamp of the block that created the UTXO").from("blockTimestamp"),
    consuming_tx_hash: col.hash("Transaction that consumed the UTXO").from("consumingTxHash?"),
    consuming_block_number: col.amount("Height of the consuming block").from("consumingBlockNumber?"),
    consuming_block_timestamp: col.ts("Timestamp of the consuming block").from("consumingBlockTimestamp?"),
    created_on_chain_id: col.hash("Blockchain on which the output was created").from("createdOnChainId"),
    consumed_on_chain_id: col.hash("Blockchain on which the output is consumed").from("consumedOnChainId"),
    platform_locktime: col.int64("Unix time after which the UTXO can be consumed").from("platformLocktime?"),
    stakeable_locktime: col.int64("Unix time before which the UTXO can only be staked").from("stakeableLocktime?"),
    utxo_start_timestamp: col.ts("When a staked UTXO was locked").from("utxoStartTimestamp?"),
    utxo_end_timestamp: col.ts("When a staked UTXO unlocks").from("utxoEndTimestamp?"),
    utxo_bytes: col.str("Raw UTXO bytes, 0x hex with checksum, as the service sent them").from("utxoBytes?")
  },
  "UTXO"
)
