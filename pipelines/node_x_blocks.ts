/**
 * node_x_blocks — the X-chain's blocks from the node: avm.getHeight for the tip, then
 * avm.getBlockByHeight (json) for each height of the job's range (`nodeXHeights`, all history when
 * absent), walked in windows of `nodeHeightWindow` heights (heightWalk in _shared/heightWalk.ts: closed
 * windows are never fetched again, the open last one continues next run). One network per run:
 * the job's first, checked against the node (see nodeNetwork).
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import type { OutputReader } from "../src/crawl/OutputReader.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/node_x_blocks.ts"
import { blockHeaderColumns, blockRecord, nodeBlockSlices, heightWalk } from "./_shared/heightWalk.ts"
import { rpcDecoded } from "./_shared/nodeRpc.ts"
import { XStandardBlock } from "./_shared/nodeTx.ts"
import { NodeUint } from "./_shared/nodeValues.ts"
import { blockDay, columnKey } from "./_shared/partitions.ts"
import { withGrain } from "../src/crawl/Grain.ts"

const Tx = Schema.Struct({ id: Schema.String })
const Record = Schema.Struct({ height: Schema.String, block: XStandardBlock(Tx) })
const decode = decoder(Record)

/** The X-chain's last accepted height. */
export const xTip = Effect.map(rpcDecoded("X", "avm.getHeight", {}, Schema.Struct({ height: NodeUint })), (r) => r.height)

export const dataset: DatasetDef<JsonRpcClient | OutputReader> = withGrain({
  name: "node_x_blocks",
  description: "X-chain blocks from the node's avm.getBlockByHeight (json), walked in height windows up to the tip at run time",
  schema,
  partitionBy: [columnKey("network")],
  // Grain: month. X-chain blocks are few (hundreds a day at most), KBs a day: by day each
  // folder held one file of a few KB (175 files for 200 rows in the emulator run)
  timePartition: { day: blockDay("block_timestamp"), grain: "month" },
  key: ["height"],
  // compacted files are sorted so: height order
  sortBy: ["height"],
  rerun: "always",
  heights: { listing: ["network"], column: "height", latest: () => Effect.map(xTip, (h) => BigInt(String(h))) },
  slices: nodeBlockSlices("node_x_blocks", (job) => job.nodeXHeights),
  backfill: "height",
  listing: heightWalk({
    dataset: "node_x_blocks",
    tip: xTip,
    // the seed types avm.getBlockByHeight's height as a string
    block: (h) => blockRecord("X", "avm.getBlockByHeight", h, h.toString()),
    concurrency: 8
  }),
  toRow: (raw, slice) => {
    const { height, block } = decode(raw)
    return {
      ...blockHeaderColumns(height, block, slice),
      // the AVM registers one block type (vms/avm/block/parser.go); the decoder above holds its shape
      block_type: "StandardBlock",
      tx_ids: block.txs.map((t) => t.id)
    }
  }
})
