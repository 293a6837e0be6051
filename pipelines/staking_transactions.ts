/**
 * staking_transactions — route 4 (P-chain only) per network, in time windows of block time
 * (startTimestamp / endTimestamp; Windows.ts), consumed/emitted UTXOs and amounts kept as nested
 * lists. The route lists the transactions active at request time, so a window holds those
 * active when it was last fetched; the head window is topped up until a run completes it an hour
 * past its end.
 */
import { windowListing } from "../src/crawl/WindowListing.ts"
import { type WindowSpec, windowSlices } from "../src/crawl/Windows.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/staking_transactions.ts"
import { latestPrimaryBlockTime } from "./_shared/restListings.ts"
import { DAY, HOUR, NETWORK_LAUNCH } from "./_shared/time.ts"

const windows: WindowSpec = {
  bases: (job) => job.networks.map((network) => ({ network })),
  defaults: { window: DAY, lookback: HOUR, since: NETWORK_LAUNCH },
  // staking transactions are sparse: the P-chain's newest block says how far the service is
  latest: (base) => latestPrimaryBlockTime(base["network"] ?? "", "p-chain"),
}

export const dataset = defineDataset(table, {
  name: "staking_transactions",
  description: "P-chain staking transactions with their UTXOs and amounts (chain-data route 4)",
  services: ["data"],
  partitionBy: ["network"],
  // Grain: month. Staking transactions are a few hundred to a few thousand a day on mainnet
  // (fewer on fuji), a few MB a day at most even with their UTXO lists: by day most folders held
  // one file of KBs (137 files for 204 rows in the emulator run); a month is tens of MB. `date`
  // stays a column inside the file, so `WHERE date = …` still works
  timePartition: { column: "block_timestamp", grain: "month" },
  key: ["tx_hash"],
  // compacted files are in block order, so block-number and block-time filters skip row groups.
  // Not (block_number, tx_hash): within a block the listing is not in hash order, so its parts
  // never read as sorted and every merge was a sort, which for these wide rows needs several
  // times the memory of concatenating them (src/compact/RowGroups.ts); a sort breaks ties by the key
  sortBy: ["block_number"],
  windows,
  rerun: "always",
  slices: windowSlices("staking_transactions", windows),
  listing: windowListing({
    service: "data",
    path: (s) => `/v1/networks/${s.params["network"]}/blockchains/p-chain/transactions:listStaking`,
    query: () => ({ sortOrder: "asc" }),
    items: "transactions",
    timeField: "blockTimestamp",
    pageSize: 100
  })
})
