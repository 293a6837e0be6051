/**
 * assets — avm.getAssetDescription for every asset id seen in avm_utxos and node_transactions
 * (inputs, outputs, atomic ones, and the assets CreateAssetTxs make) and not fetched before, on
 * the node's network (see nodeNetwork). A description does not change, so each asset is fetched
 * once, under the snapshot_date of the day it was first seen; the day's slice runs again every
 * run for ids that arrived since. An id the node does not describe (-32000) is rejected once.
 */
import { Effect, Schema } from "effect"
import { RecordError } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { read } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/assets.ts"
import { missedKeysSql, nodeNetwork, onNodeNetwork, orNodeMiss, rpc, throwIfMiss } from "./_shared/nodeRpc.ts"

const ids = (list: string, field: string) => `list_transform(${list}, x -> x.${field})`

/** Asset ids of this network seen in the parents, not yet fetched nor missed, after the cursor. */
const undescribedAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const rows = yield* (yield* OutputReader).query(
      `SELECT DISTINCT asset_id FROM (
         SELECT asset_id FROM avm_utxos WHERE network = $network
         UNION ALL
         SELECT unnest(list_concat(${ids("inputs", "asset_id")}, ${ids("outputs", "asset_id")}, ${ids("imported_inputs", "asset_id")}, ${ids("exported_outputs", "asset_id")})) AS asset_id
         FROM node_transactions WHERE network = $network
         UNION ALL
         SELECT tx_id AS asset_id FROM node_transactions WHERE network = $network AND tx_type = 'CreateAssetTx'
       ) seen
       WHERE asset_id IS NOT NULL AND asset_id > $after
         AND asset_id NOT IN (SELECT asset_id FROM assets WHERE network = $network AND asset_id IS NOT NULL)
         AND asset_id NOT IN (SELECT k FROM (${missedKeysSql("assets")}) m WHERE k IS NOT NULL)
       ORDER BY asset_id LIMIT ${limit}`,
      { network: slice.params["network"] ?? "", after: after ?? "" },
      ["avm_utxos", "node_transactions", "assets", "_rejects"]
    )
    return rows.map((r) => String(r["asset_id"]))
  })

const describe = (_slice: Slice, assetId: string) =>
  rpc("X", "avm.getAssetDescription", { assetID: assetId }).pipe(
    Effect.map((r): unknown => ({ key: assetId, description: r })),
    Effect.catchAll(orNodeMiss(assetId)),
    Effect.map((r) => [r])
  )

export const dataset = defineDataset(table, {
  name: "assets",
  description: "X-chain assets seen in avm_utxos and node_transactions, from the node's avm.getAssetDescription, each fetched once on the day first seen",
  services: ["node"],
  readsOutputOf: ["avm_utxos", "node_transactions"],
  partitionBy: ["network", "snapshot_date"],
  key: ["asset_id"],
  rerun: "always",
  slices: (job, { runDate }) => [makeSlice("assets", { network: nodeNetwork(job), snapshot_date: runDate })],
  listing: onNodeNetwork(keyedListing<JsonRpcClient | OutputReader>({ nextKeys: undescribedAfter, fetch: describe, batch: 100, concurrency: 4, excludesCommitted: true })),
  check: throwIfMiss,
  // the seed's example spells it assetID, its signature assetId
  reads: { id: read(["description.assetID?", "description.assetId?"], Schema.String) },
  compute: ({ wire, read }) => {
    if (wire.id !== undefined && wire.id !== read.asset_id) throw new RecordError(`asked for asset ${read.asset_id}, the node described ${wire.id}`)
    return {}
  }
})
