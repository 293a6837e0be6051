/**
 * node_p_blocks — the P-chain's blocks from the node: platform.getBlockByHeight (json) for each
 * height of the job's range (`nodePHeights`, all history when absent), walked in windows of
 * `nodeHeightWindow` heights like node_x_blocks, each block's transactions nested.
 *
 * The tip: the seed lists no platform.getHeight. platform.getCurrentSupply's reply carries the
 * height its supply was read at (the reference document's GetCurrentSupplyReply: supply, height),
 * which is the last accepted height, so one call gives it. A node that leaves `height` out gets
 * probed instead: platform.getBlockByHeight (hex, the smaller answer) at heights 1, 3, 7, 15… until
 * one is not found, then a binary search between the last found and the first missing height —
 * about 2·log2(tip) calls, once per run.
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import type { OutputReader } from "../src/crawl/OutputReader.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/node_p_blocks.ts"
import { blockHeaderColumns, blockRecord, nodeBlockSlices, heightWalk } from "./_shared/heightWalk.ts"
import { isHandlerError, rpc, rpcDecoded } from "./_shared/nodeRpc.ts"
import { nodeBlock, NodeTx, outputRow, txColumns } from "./_shared/nodeTx.ts"
import { nodeTime, NodeUint } from "./_shared/nodeValues.ts"
import { blockDay, columnKey } from "./_shared/partitions.ts"
import { withGrain } from "../src/crawl/Grain.ts"

const Record = Schema.Struct({ height: Schema.String, block: nodeBlock(NodeTx) })
const decode = decoder(Record)

/**
 * The seed types platform.getBlockByHeight's height as an integer: a JSON number, exact up to
 * 2^53 (far above any P-chain height); beyond that the decimal string the node also accepts.
 */
const heightParam = (h: bigint): number | string => (h <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(h) : h.toString())

const exists = (h: bigint) =>
  rpc("P", "platform.getBlockByHeight", { height: heightParam(h), encoding: "hex" }).pipe(
    Effect.as(true),
    Effect.catchIf(isHandlerError, () => Effect.succeed(false))
  )

/** The highest height that answers, by galloping then bisecting; -1 when not even genesis does. */
export const probeTip = Effect.gen(function* () {
  if (!(yield* exists(0n))) return -1n
  let lo = 0n
  let step = 1n
  while (yield* exists(lo + step)) {
    lo += step
    step *= 2n
  }
  let hi = lo + step
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (yield* exists(mid)) lo = mid
    else hi = mid
  }
  return lo
})

/** The P-chain's last accepted height: getCurrentSupply's height, else a probe. */
export const pTip = Effect.flatMap(rpcDecoded("P", "platform.getCurrentSupply", {}, Schema.Struct({ height: Schema.optional(NodeUint) })), (r) =>
  r.height !== undefined ? Effect.succeed(r.height) : probeTip
)

const txRow = (tx: typeof NodeTx.Type) => {
  const { unsigned: u, ...columns } = txColumns("P", tx)
  const v = u.validator
  return {
    ...columns,
    stake: (u.stake ?? []).map((o) => outputRow(o.assetID, o.fxID, o.output)),
    node_id: v?.nodeID ?? null,
    start_time: v?.start === undefined ? null : nodeTime(v.start),
    end_time: v?.end === undefined ? null : nodeTime(v.end),
    weight: v?.weight ?? null,
    subnet_id: u.subnetID ?? null,
    rewarded_tx_id: columns.tx_type === "RewardValidatorTx" ? (u.txID ?? null) : null
  }
}

export const dataset: DatasetDef<JsonRpcClient | OutputReader> = withGrain({
  name: "node_p_blocks",
  description: "P-chain blocks from the node's platform.getBlockByHeight (json) with their transactions, walked in height windows up to the tip at run time",
  schema,
  partitionBy: [columnKey("network")],
  // Grain: month. ~2k P-chain blocks a day, a few hundred KB: a month is ~10-20 MB, by day each
  // folder held one small file (158 files for 200 rows in the emulator run)
  timePartition: { day: blockDay("block_timestamp"), grain: "month" },
  key: ["height"],
  // compacted files are sorted so: height order
  sortBy: ["height"],
  rerun: "always",
  heights: { listing: ["network"], column: "height", latest: () => Effect.map(pTip, (h) => BigInt(String(h))) },
  slices: nodeBlockSlices("node_p_blocks", (job) => job.nodePHeights),
  backfill: "height",
  listing: heightWalk({
    dataset: "node_p_blocks",
    tip: pTip,
    block: (h) => blockRecord("P", "platform.getBlockByHeight", h, heightParam(h)),
    concurrency: 8
  }),
  toRow: (raw, slice) => {
    const { height, block } = decode(raw)
    return {
      ...blockHeaderColumns(height, block, slice),
      txs: block.txs.map(txRow)
    }
  }
})
