/**
 * node_x_blocks — the X-chain's blocks from the node: avm.getHeight for the tip, then
 * avm.getBlockByHeight (json) for each height of the job's range (`nodeXHeights`, all history when
 * absent), walked in windows of `nodeHeightWindow` heights (heightWalk in _shared/heightWalk.ts: closed
 * windows are never fetched again, the open last one continues next run). One network per run:
 * the job's first, checked against the node (see nodeNetwork).
 */
import { Effect, Schema } from "effect"
import { RecordError } from "../src/crawl/Dataset.ts"
import { read } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/node_x_blocks.ts"
import { blockRecord, nodeBlockSlices, heightWalk } from "./_shared/heightWalk.ts"
import { rpcDecoded } from "./_shared/nodeRpc.ts"
import { NodeUint } from "../schemas/wire.ts"

/** The X-chain's last accepted height. */
export const xTip = Effect.map(rpcDecoded("X", "avm.getHeight", {}, Schema.Struct({ height: NodeUint })), (r) => r.height)

export const dataset = defineDataset(table, {
  name: "node_x_blocks",
  description: "X-chain blocks from the node's avm.getBlockByHeight (json), walked in height windows up to the tip at run time",
  services: ["node"],
  partitionBy: ["network"],
  // Grain: month. X-chain blocks are few (hundreds a day at most), KBs a day: by day each
  // folder held one file of a few KB (175 files for 200 rows in the emulator run)
  timePartition: { column: "block_timestamp", grain: "month" },
  key: ["height"],
  // compacted files are sorted so: height order
  sortBy: ["height"],
  rerun: "always",
  heights: { listing: ["network"], column: "height", latest: () => Effect.map(xTip, (h) => BigInt(String(h))) },
  chain: { listing: ["network"], height: "height", id: "block_id", parent: "parent_id" },
  slices: nodeBlockSlices("node_x_blocks", (job) => job.nodeXHeights),
  backfill: "height",
  listing: heightWalk({
    dataset: "node_x_blocks",
    tip: xTip,
    // the seed types avm.getBlockByHeight's height as a string
    block: (h) => blockRecord("X", "avm.getBlockByHeight", h, h.toString()),
    concurrency: 8
  }),
  reads: { asked: read("height", Schema.String), height: read("block.height", NodeUint) },
  compute: ({ wire, read }) => {
    if (wire.height.toString() !== wire.asked) throw new RecordError(`asked for height ${wire.asked}, the node answered block ${wire.height}`)
    return { height: wire.height, block_type: "StandardBlock", tx_count: read.tx_ids.length }
  }
})
