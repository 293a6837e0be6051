/**
 * delegators — route 8, every delegation of every status, one snapshot per network and run day.
 * Completed delegations carry paid rewards, active and pending ones estimates: both are kept in
 * their own columns rather than merged, since one is a fact and the other a forecast.
 */
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { wireDecoder } from "../src/transform/WireColumns.ts"
import { schema } from "../schemas/delegators.ts"
import { snapshotKeys } from "./_shared/partitions.ts"

// every column but the Hive keys is read as its schema declares (`from`); a status the
// document does not list yet is still a delegation: kept as sent
const wire = wireDecoder(schema)

export const dataset: DatasetDef<RestClient> = {
  name: "delegators",
  description: "Primary-network delegations of every status (chain-data route 8), one snapshot per network and run day",
  schema,
  partitionBy: snapshotKeys,
  key: ["tx_hash"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("delegators", { network, snapshot_date: runDate })),
  listing: restListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/delegators`,
    // no delegationStatus: all statuses; oldest first so a page boundary never moves under new delegations
    query: () => ({ sortOrder: "asc" }),
    items: "delegators",
    pageSize: 100
  }),
  toRow: (raw, slice) => wire(raw, { network: slice.params["network"], snapshot_date: slice.params["snapshot_date"] })
}
