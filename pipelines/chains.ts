/**
 * chains — route 17, one slice per chain of `job.evmChains` and day: a daily snapshot of what the
 * service says about the chain; a rerun the same day is a no-op.
 */
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/chains.ts"
import { lookupListing } from "./_evm.ts"

export const dataset = defineDataset(table, {
  name: "chains",
  description: "The job's EVM chains as the chain-data service describes them (route 17), one snapshot a day",
  services: ["data"],
  partitionBy: ["snapshot_date"],
  key: ["chain_id"],
  slices: (job, { runDate }) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("chains", { chain_id, snapshot_date: runDate })),
  listing: lookupListing({ key: (s) => String(s.params["chain_id"]), path: (s) => `/v1/chains/${s.params["chain_id"]}` })
})
