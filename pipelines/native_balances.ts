/**
 * native_balances — route 9, one slice per address of `job.nativeBalances` and day: a snapshot of
 * the balance at the latest block, priced in `job.currency`; a rerun the same day is a no-op.
 */
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/native_balances.ts"
import { distinctContracts, lookupListing } from "./_evm.ts"

export const dataset = defineDataset(table, {
  name: "native_balances",
  description: "Native token balances of the job's addresses (chain-data route 9), one snapshot a day",
  services: ["data"],
  partitionBy: ["chain_id", "snapshot_date"],
  key: ["address", "currency"],
  slices: (job, { runDate }) =>
    distinctContracts(job.nativeBalances).map((a) =>
      makeSlice("native_balances", { chain_id: a.chainId, address: a.address, currency: job.currency, snapshot_date: runDate })
    ),
  listing: lookupListing({
    key: (s) => String(s.params["address"]),
    path: (s) => `/v1/chains/${s.params["chain_id"]}/addresses/${s.params["address"]}/balances:getNative`,
    query: (s) => ({ currency: s.params["currency"] })
  })
})
