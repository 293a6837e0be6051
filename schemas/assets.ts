/**
 * assets: avm.getAssetDescription of every asset id seen in avm_utxos and node_transactions, each
 * fetched once (descriptions do not change). Hive keys: network, snapshot_date (the day it was fetched).
 */
import { defineSchema, hash, int32, str } from "./common.ts"

export const schema = defineSchema(
  [
    hash("asset_id", "Asset id (cb58)", { nullable: false }),
    str("name", "Human-readable name (not necessarily unique)"),
    str("symbol", "Symbol"),
    int32("denomination", "Decimal places: with 9, 10^9 units display as 1")
  ],
  "X-chain assets seen in avm_utxos and node_transactions, from the node's avm.getAssetDescription, each fetched once on the day first seen"
)
