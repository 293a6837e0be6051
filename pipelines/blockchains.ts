/**
 * blockchains — platform.getBlockchains (every blockchain but the P-chain), each with
 * platform.getBlockchainStatus, one snapshot per run day on the node's network (see
 * nodeNetwork). A status the node has no answer for (-32000) is kept as null, not the chain lost.
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/blockchains.ts"
import { isHandlerError, nodeNetwork, rpcDecoded, singlePage } from "./_shared/nodeRpc.ts"
import { snapshotKeys } from "./_shared/partitions.ts"

const List = Schema.Struct({ blockchains: Schema.Array(Schema.Unknown) })
const idOf = (b: unknown): string | undefined => {
  const id = typeof b === "object" && b !== null ? (b as Record<string, unknown>)["id"] : undefined
  return typeof id === "string" ? id : undefined
}

const statusOf = (id: string) =>
  rpcDecoded("P", "platform.getBlockchainStatus", { blockchainID: id }, Schema.Struct({ status: Schema.String })).pipe(
    Effect.map((r): string | null => r.status),
    Effect.catchIf(isHandlerError, () => Effect.succeed(null))
  )

const records = () =>
  Effect.flatMap(rpcDecoded("P", "platform.getBlockchains", {}, List), (r) =>
    Effect.forEach(
      r.blockchains,
      (b) => {
        const id = idOf(b)
        // an entry without an id is toRow's to reject
        return id === undefined ? Effect.succeed(b) : Effect.map(statusOf(id), (status) => ({ ...(b as object), status }))
      },
      { concurrency: 4 }
    )
  )

const decode = decoder(
  Schema.Struct({ id: Schema.String, name: Schema.optional(Schema.String), subnetID: Schema.optional(Schema.String), vmID: Schema.optional(Schema.String), status: Schema.NullOr(Schema.String) })
)

export const dataset: DatasetDef<JsonRpcClient> = {
  name: "blockchains",
  description: "Blockchains (all but the P-chain) from the node's platform.getBlockchains with this node's platform.getBlockchainStatus, one snapshot per run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["blockchain_id"],
  slices: (job, { runDate }) => [makeSlice("blockchains", { network: nodeNetwork(job), snapshot_date: runDate })],
  listing: singlePage(records),
  toRow: (raw, slice) => {
    const b = decode(raw)
    return {
      network: slice.params["network"],
      snapshot_date: slice.params["snapshot_date"],
      blockchain_id: b.id,
      name: b.name ?? null,
      subnet_id: b.subnetID ?? null,
      vm_id: b.vmID ?? null,
      status: b.status
    }
  }
}
