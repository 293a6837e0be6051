/**
 * blockchains — platform.getBlockchains (every blockchain but the P-chain), each with
 * platform.getBlockchainStatus, one snapshot per run day on the node's network (see
 * nodeNetwork). A status the node has no answer for (-32000) is kept as null, not the chain lost.
 */
import { Effect, Schema } from "effect"
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/blockchains.ts"
import { isHandlerError, nodeNetwork, rpcDecoded, singlePage } from "./_shared/nodeRpc.ts"

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

export const dataset = defineDataset(table, {
  name: "blockchains",
  description: "Blockchains (all but the P-chain) from the node's platform.getBlockchains with this node's platform.getBlockchainStatus, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "snapshot_date"],
  key: ["blockchain_id"],
  slices: (job, { runDate }) => [makeSlice("blockchains", { network: nodeNetwork(job), snapshot_date: runDate })],
  listing: singlePage(records)
})
