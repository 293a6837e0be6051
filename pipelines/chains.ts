/**
 * chains — route 17, one slice per chain of `job.evmChains` and day: a daily snapshot of what the
 * service says about the chain; a rerun the same day is a no-op.
 */
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { wireDecoder } from "../src/transform/WireColumns.ts"
import { schema } from "../schemas/chains.ts"
import { lookupListing } from "./_evm.ts"
import { columnKey } from "./_shared/partitions.ts"

// every column but snapshot_date is read as the schema declares (`from`)
const wire = wireDecoder(schema)

export const dataset: DatasetDef<RestClient> = {
  name: "chains",
  description: "The job's EVM chains as the chain-data service describes them (route 17), one snapshot a day",
  schema,
  partitionBy: [columnKey("snapshot_date", "DATE")],
  key: ["chain_id"],
  slices: (job, { runDate }) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("chains", { chain_id, snapshot_date: runDate })),
  listing: lookupListing({ key: (s) => String(s.params["chain_id"]), path: (s) => `/v1/chains/${s.params["chain_id"]}` }),
  toRow: (raw, slice) => {
    const row = wire(raw, { snapshot_date: slice.params["snapshot_date"] })
    // a chain that lists no features has none: an empty list, not an unknown
    row["enabled_features"] ??= []
    return row
  }
}
