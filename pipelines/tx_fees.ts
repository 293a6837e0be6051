/** tx_fees — avm.getTxFee, one snapshot per run day on the node's network (see nodeNetwork). */
import { Effect } from "effect"
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/tx_fees.ts"
import { nodeNetwork, rpc, singlePage } from "./_shared/nodeRpc.ts"

export const dataset = defineDataset(table, {
  name: "tx_fees",
  description: "X-chain transaction fees from the node's avm.getTxFee, one snapshot per run day",
  services: ["node"],
  partitionBy: ["network", "snapshot_date"],
  key: ["network"],
  slices: (job, { runDate }) => [makeSlice("tx_fees", { network: nodeNetwork(job), snapshot_date: runDate })],
  listing: singlePage(() => Effect.map(rpc("X", "avm.getTxFee"), (r) => [r]))
})
