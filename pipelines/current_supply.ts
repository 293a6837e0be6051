/**
 * current_supply — platform.getCurrentSupply for the primary network and each job subnet, one
 * snapshot per run day on the node's network (see nodeNetwork).
 */
import { Effect } from "effect"
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/current_supply.ts"
import { PRIMARY_SUBNET_ID, nodeNetwork, rpc, singlePage } from "./_shared/nodeRpc.ts"

export const dataset = defineDataset(table, {
  name: "current_supply",
  description: "Current supply of the primary network's and the job subnets' staking tokens from the node's platform.getCurrentSupply, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "snapshot_date"],
  key: ["subnet_id"],
  slices: (job, { runDate }) =>
    [...new Set([PRIMARY_SUBNET_ID, ...job.subnets])].map((subnet_id) => makeSlice("current_supply", { network: nodeNetwork(job), snapshot_date: runDate, subnet_id })),
  listing: singlePage((slice) => Effect.map(rpc("P", "platform.getCurrentSupply", { subnetID: slice.params["subnet_id"] }), (r) => [r]))
})
