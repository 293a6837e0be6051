/**
 * current_supply — platform.getCurrentSupply for the primary network and each job subnet, one
 * snapshot per run day on the node's network (see nodeNetwork).
 */
import { Effect } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { wireDecoder } from "../src/transform/WireColumns.ts"
import { schema } from "../schemas/current_supply.ts"
import { PRIMARY_SUBNET_ID, nodeNetwork, rpc, singlePage } from "./_shared/nodeRpc.ts"
import { snapshotKeys } from "./_shared/partitions.ts"

// supply and height are read as the schema declares (`from`); the rest are slice keys
const wire = wireDecoder(schema)

export const dataset: DatasetDef<JsonRpcClient> = {
  name: "current_supply",
  description: "Current supply of the primary network's and the job subnets' staking tokens from the node's platform.getCurrentSupply, one snapshot per run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["subnet_id"],
  slices: (job, { runDate }) =>
    [...new Set([PRIMARY_SUBNET_ID, ...job.subnets])].map((subnet_id) => makeSlice("current_supply", { network: nodeNetwork(job), snapshot_date: runDate, subnet_id })),
  listing: singlePage((slice) => Effect.map(rpc("P", "platform.getCurrentSupply", { subnetID: slice.params["subnet_id"] }), (r) => [r])),
  toRow: (raw, slice) =>
    wire(raw, { network: slice.params["network"], snapshot_date: slice.params["snapshot_date"], subnet_id: slice.params["subnet_id"] })
}
