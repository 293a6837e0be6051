/**
 * node_p_blocks — the P-chain's blocks from the node: platform.getBlockByHeight for each height of
 * the job's range (`nodePHeights`, all history when absent), walked in windows of
 * `nodeHeightWindow` heights like node_x_blocks, each block's transactions nested.
 *
 * Asked for with encoding "hex" and decoded here (src/decode/pvm): the node's json names no block
 * or tx type, and commit and abort blocks are the same json; the bytes name both by their codec
 * type id, carry every field (the json of a block is their decoding), and hash to the ids.
 *
 * The tip: the seed lists no platform.getHeight. platform.getCurrentSupply's reply carries the
 * height its supply was read at (the reference document's GetCurrentSupplyReply: supply, height),
 * which is the last accepted height, so one call gives it. A node that leaves `height` out gets
 * probed instead: platform.getBlockByHeight (hex, the smaller answer) at heights 1, 3, 7, 15… until
 * one is not found, then a binary search between the last found and the first missing height —
 * about 2·log2(tip) calls, once per run.
 */
import { Effect, Schema } from "effect"
import { RecordError } from "../src/crawl/Dataset.ts"
import { decodePBlock, pBytesFromNodeHex, PvmDecodeError } from "../src/decode/pvm/index.ts"
import { read } from "../src/transform/ColumnDecoder.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/node_p_blocks.ts"
import { blockHeaderColumns, nodeBlockSlices, heightWalk } from "./_shared/heightWalk.ts"
import { isHandlerError, rpc, rpcDecoded, rpcObject } from "./_shared/nodeRpc.ts"
import { NodeUint } from "../schemas/wire.ts"
import { pTxRow } from "./_shared/pTxRow.ts"

/**
 * The `date` of an Apricot-era block: its bytes carry no time (the chain's time moved by
 * AdvanceTimeTx proposals), so it is filed under the day of the P-chain's genesis, the genesis
 * config's startTime on mainnet and fuji alike (avalanchego genesis/genesis_{mainnet,fuji}.json):
 * a fixed day, so a rerun writes the same files. Its block_timestamp stays null.
 */
export const TIMELESS_DAY = "2020-09-10"

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

/** The block in the node's hex, decoded; a block chainetl cannot decode is the record's reject, with why. */
const decodeBlock = (hex: string) => {
  try {
    return decodePBlock(pBytesFromNodeHex(hex))
  } catch (e) {
    if (e instanceof PvmDecodeError) throw new RecordError(`the block's bytes do not decode: ${e.message}`)
    throw e
  }
}

export const dataset = defineDataset(table, {
  name: "node_p_blocks",
  description: "P-chain blocks from the node's platform.getBlockByHeight (hex, decoded with avalanchego's codec) with their transactions, walked in height windows up to the tip at run time",
  services: ["node"],
  partitionBy: ["network"],
  // Grain: month. ~2k P-chain blocks a day, a few hundred KB: a month is ~10-20 MB, by day each
  // folder held one small file (158 files for 200 rows in the emulator run)
  timePartition: { column: "block_timestamp", grain: "month", untimed: () => TIMELESS_DAY },
  key: ["height"],
  // compacted files are sorted so: height order
  sortBy: ["height"],
  rerun: "always",
  heights: { listing: ["network"], column: "height", latest: () => Effect.map(pTip, (h) => BigInt(String(h))) },
  chain: { listing: ["network"], height: "height", id: "block_id", parent: "parent_id" },
  slices: nodeBlockSlices("node_p_blocks", (job) => job.nodePHeights),
  backfill: "height",
  listing: heightWalk({
    dataset: "node_p_blocks",
    tip: pTip,
    block: (h) => Effect.map(rpcObject("P", "platform.getBlockByHeight", { height: heightParam(h), encoding: "hex" }), (r) => ({ height: h.toString(), block: r["block"] })),
    concurrency: 8
  }),
  // the height asked for and the node's answer, "0x" + the block's bytes + checksum
  reads: { height: read("height", Schema.String), hex: read("block", Schema.String) },
  compute: ({ wire }) => {
    const block = decodeBlock(wire.hex)
    return { ...blockHeaderColumns(wire.height, block), block_type: block.type, txs: block.txs.map(pTxRow) }
  }
})
