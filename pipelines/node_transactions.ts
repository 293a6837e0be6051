/**
 * node_transactions — avm.getTx (json) for every transaction id of the crawled node_x_blocks not
 * fetched before (fan-out, runs again every run). Keys are "<height, 20 digits>:<tx id>", so the
 * fan-out walks the chain in order; the tx's block (id, time) comes from node_x_blocks with its
 * key. A tx the node does not know (-32000) is rejected once and not asked again.
 */
import { Effect, Schema } from "effect"
import { RecordError } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { read } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/node_transactions.ts"
import { missedKeysSql, nodeNetwork, onNodeNetwork, orNodeMiss, rpcObject, throwIfMiss } from "./_shared/nodeRpc.ts"
import { NodeTx, outputRow, txColumns } from "./_shared/nodeTx.ts"

interface BlockOf {
  readonly blockId: string | null
  /** Epoch microseconds, as DuckDB gives them. */
  readonly blockTimestampUs: string | null
}

/** nextKeys hands each key's block to fetch (same page, same process); fetch takes it out. */
const blocks = new Map<string, BlockOf>()

const TX_KEY = "lpad(height::VARCHAR, 20, '0') || ':' || tx_id"

/** Tx keys of this network's blocks not yet fetched nor missed, after the cursor, in key order. */
const unfetchedAfter = (slice: Slice, after: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const rows = yield* (yield* OutputReader).query(
      `SELECT ${TX_KEY} AS k, block_id, epoch_us(block_timestamp)::VARCHAR AS us
       FROM (SELECT height, block_id, block_timestamp, unnest(tx_ids) AS tx_id FROM node_x_blocks WHERE network = $network) t
       WHERE ${TX_KEY} > $after
         AND tx_id NOT IN (SELECT tx_id FROM node_transactions WHERE network = $network AND tx_id IS NOT NULL)
         AND ${TX_KEY} NOT IN (SELECT k FROM (${missedKeysSql("node_transactions")}) m WHERE k IS NOT NULL)
       ORDER BY k LIMIT ${limit}`,
      { network: slice.params["network"] ?? "", after: after ?? "" },
      ["node_x_blocks", "node_transactions", "_rejects"]
    )
    return rows.map((r) => {
      const key = String(r["k"])
      blocks.set(key, { blockId: r["block_id"] === null ? null : String(r["block_id"]), blockTimestampUs: r["us"] === null ? null : String(r["us"]) })
      return key
    })
  })

const txOf = (_slice: Slice, key: string) => {
  const block = blocks.get(key)
  blocks.delete(key)
  const txId = key.slice(key.indexOf(":") + 1)
  return rpcObject("X", "avm.getTx", { txID: txId, encoding: "json" }).pipe(
    Effect.map((r): unknown => ({ key, blockId: block?.blockId ?? null, blockTimestampUs: block?.blockTimestampUs ?? null, tx: r["tx"] })),
    Effect.catchAll(orNodeMiss(key)),
    Effect.map((r) => [r])
  )
}

/** The UTC day a tx belongs to when its block had no time: the day it was fetched, the best bound there is. */
const fetchedDay = (row: Readonly<Record<string, unknown>>): string => (row["ingested_at"] as Date).toISOString().slice(0, 10)

export const dataset = defineDataset(table, {
  name: "node_transactions",
  description: "X-chain transactions of the crawled node_x_blocks from the node's avm.getTx (json), each fetched once, inputs and outputs nested",
  services: ["node"],
  readsOutputOf: ["node_x_blocks"],
  partitionBy: ["network"],
  // Grain: month. The transactions of the node's X-/P-chain blocks: a few thousand a day, a few
  // MB a month; by day one small file per folder (175 files for 426 rows in the emulator run)
  timePartition: { column: "block_timestamp", grain: "month", untimed: fetchedDay },
  key: ["tx_id"],
  // compacted files are sorted so: block order: height filters skip row groups
  sortBy: ["block_height", "tx_id"],
  rerun: "always",
  slices: (job) => [makeSlice("node_transactions", { network: nodeNetwork(job) })],
  listing: onNodeNetwork(keyedListing<JsonRpcClient | OutputReader>({ nextKeys: unfetchedAfter, fetch: txOf, batch: 100, concurrency: 8, excludesCommitted: true })),
  check: throwIfMiss,
  reads: { key: read("key", Schema.String), tx: read("tx", NodeTx) },
  compute: ({ wire }) => {
    const { key, tx } = wire
    const txId = key.slice(key.indexOf(":") + 1)
    if (tx.id !== txId) throw new RecordError(`asked for tx ${txId}, the node answered tx ${tx.id}`)
    const { unsigned: u, ...columns } = txColumns(tx)
    return {
      block_height: BigInt(key.slice(0, key.indexOf(":"))),
      ...columns,
      asset_name: u.name ?? null,
      asset_symbol: u.symbol ?? null,
      asset_denomination: u.denomination ?? null,
      // a CreateAssetTx's id is the new asset's id
      initial_states: (u.initialStates ?? []).map((s) => ({
        fx_index: s.fxIndex ?? null,
        fx_id: s.fxID ?? null,
        outputs: (s.outputs ?? []).map((o) => outputRow(tx.id, s.fxID, o))
      }))
    }
  }
})
