/** tx_fees — avm.getTxFee, one snapshot per run day on the node's network (see nodeNetwork). */
import { Effect } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { JsonRpcClient } from "../src/source/JsonRpcClient.ts"
import { wireDecoder } from "../src/transform/WireColumns.ts"
import { schema } from "../schemas/tx_fees.ts"
import { nodeNetwork, rpc, singlePage } from "./_shared/nodeRpc.ts"
import { snapshotKeys } from "./_shared/partitions.ts"

// both fees are read as the schema declares (`from`); network and snapshot_date are slice keys
const wire = wireDecoder(schema)

export const dataset: DatasetDef<JsonRpcClient> = {
  name: "tx_fees",
  description: "X-chain transaction fees from the node's avm.getTxFee, one snapshot per run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["network"],
  slices: (job, { runDate }) => [makeSlice("tx_fees", { network: nodeNetwork(job), snapshot_date: runDate })],
  listing: singlePage(() => Effect.map(rpc("X", "avm.getTxFee"), (r) => [r])),
  toRow: (raw, slice) => wire(raw, { network: slice.params["network"], snapshot_date: slice.params["snapshot_date"] })
}
