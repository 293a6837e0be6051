/**
 * delegators — route 8, every delegation of every status, one snapshot per network and run day.
 * Completed delegations carry paid rewards, active and pending ones estimates: both are kept in
 * their own columns rather than merged, since one is a fact and the other a forecast.
 */
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/delegators.ts"

export const dataset = defineDataset(table, {
  name: "delegators",
  description: "Primary-network delegations of every status (chain-data route 8), one snapshot per network and run day",
  services: ["data"],
  partitionBy: ["network", "snapshot_date"],
  key: ["tx_hash"],
  slices: (job, { runDate }) => job.networks.map((network) => makeSlice("delegators", { network, snapshot_date: runDate })),
  listing: restListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/delegators`,
    // no delegationStatus: all statuses; oldest first so a page boundary never moves under new delegations
    query: () => ({ sortOrder: "asc" }),
    items: "delegators",
    pageSize: 100
  })
})
