/**
 * assets: avm.getAssetDescription of every asset id seen in avm_utxos and node_transactions, each
 * fetched once (descriptions do not change). Hive keys: network, snapshot_date (the day it was
 * fetched). The record is the asset id asked for (`key`) and the node's answer (`description`),
 * avalanchego's GetAssetDescriptionReply {assetID, name, symbol, denomination}, every field always
 * written (vms/avm/service.go).
 */
import { col, defineTable } from "./columns.ts"
import { NodeInt } from "./wire.ts"

export const table = defineTable(
  "X-chain assets seen in avm_utxos and node_transactions, from the node's avm.getAssetDescription, each fetched once on the day first seen",
  {
    network: col.str("Network of the node: mainnet or fuji").fromSlice(),
    snapshot_date: col.date("UTC day of the run that first asked").fromSlice(),
    asset_id: col.hash("Asset id (cb58)").from("key"),
    name: col.str("Human-readable name (not necessarily unique)").from("description.name"),
    symbol: col.str("Symbol").from("description.symbol"),
    denomination: col.int32("Decimal places: with 9, 10^9 units display as 1").from("description.denomination", { wire: NodeInt })
  }
)
