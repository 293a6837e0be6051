/**
 * primary_blocks — route 12 per network × primary blockchain, in time windows (Windows.ts): one
 * slice per UTC day by default, the nightly run from `since` (mainnet's launch) to now, older or
 * re-cut history by `chainetl backfill`. The head window is topped up from its last completion
 * minus the lookback until a run completes it an hour past its end.
 */
import { windowListing } from "../src/crawl/WindowListing.ts"
import { type WindowSpec, windowSlices } from "../src/crawl/Windows.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/primary_blocks.ts"
import { latestPrimaryBlockTime } from "./_shared/restListings.ts"
import { DAY, HOUR, NETWORK_LAUNCH } from "./_shared/time.ts"

const windows: WindowSpec = {
  bases: (job) => job.networks.flatMap((network) => job.primaryBlockchains.map((blockchain) => ({ network, blockchain }))),
  defaults: { window: DAY, lookback: HOUR, since: NETWORK_LAUNCH },
  latest: (base) => latestPrimaryBlockTime(base["network"] ?? "", base["blockchain"] ?? ""),
}

export const dataset = defineDataset(table, {
  name: "primary_blocks",
  description: "Primary-network blocks of the P-, X- and C-chain (chain-data route 12)",
  services: ["data"],
  partitionBy: ["network", "blockchain"],
  // Grain: month. A P-chain day is ~2k blocks and an X-chain day far fewer: a few hundred KB,
  // so by day the folders held tiny files (735 files for 3,544 rows in the emulator run, listing
  // them cost more than reading them). A P-chain month is ~10-20 MB. C-chain days are bigger
  // (~40k blocks) but its files are bounded by --part-rows, not by the folder, and the `date`
  // column inside the file lets min/max statistics skip other days. One grain per dataset:
  // the many small P/X days decide it
  timePartition: { column: "block_timestamp", grain: "month" },
  key: ["block_hash"],
  // compacted files are sorted so: blocks in height order: a block-number filter reads the row groups of its range
  sortBy: ["block_number"],
  windows,
  // each primary chain of a network is one chain of blocks
  chain: { listing: ["network", "blockchain"], height: "block_number", id: "block_hash", parent: "parent_hash", time: "block_timestamp" },
  rerun: "always",
  slices: windowSlices("primary_blocks", windows),
  listing: windowListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/blockchains/${s.params["blockchain"]}/blocks`,
    items: "blocks",
    timeField: "blockTimestamp",
    pageSize: 100
  })
})
