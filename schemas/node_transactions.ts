/**
 * node_transactions: X-chain transactions as the node's avm.getTx (json) gives them, for every
 * transaction of the crawled node_x_blocks; inputs, outputs and credentials as nested lists.
 * Hive keys: network, month (of the block's time). The record is the key asked for
 * ("<height>:<tx id>"), the block node_x_blocks holds for it (id, time in µs; null when the
 * listing no longer had it) and the node's tx; the tx's columns are computed from its json, whose
 * type each tx type's own fields decide (pipelines/_shared/nodeTx.ts).
 */
import { outputStruct, txColumns } from "./_node.ts"
import { col, defineTable } from "./columns.ts"
import { MicrosText } from "./wire.ts"

export const table = defineTable("X-chain transactions of the crawled node_x_blocks, from the node's avm.getTx (json), inputs and outputs nested", {
  network: col.str("Network of the node: mainnet or fuji").fromSlice(),
  block_height: col.int64("Height of the X-chain block holding the tx"),
  block_id: col.hash("That block's id (cb58)").from("blockId", { orNull: true }),
  block_timestamp: col.ts("That block's time (UTC); null when its json had none").from("blockTimestampUs", { wire: MicrosText, orNull: true }),
  ...txColumns,
  asset_name: col.str("CreateAssetTx: name of the new asset").nullable(),
  asset_symbol: col.str("CreateAssetTx: symbol of the new asset").nullable(),
  asset_denomination: col.int32("CreateAssetTx: decimal places of the new asset").nullable(),
  initial_states: col.list(
    col.struct(
      {
        fx_index: col.int32("Index of the feature extension in the tx").nullable(),
        fx_id: col.hash("Feature extension id").nullable(),
        outputs: col.list(outputStruct, "Initial outputs of the asset (asset_id is the tx id: the new asset)")
      },
      "Initial state"
    ),
    "CreateAssetTx: the asset's initial outputs per feature extension"
  )
})
