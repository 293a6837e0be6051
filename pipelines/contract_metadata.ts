/**
 * contract_metadata — route 16, one slice per token contract of the job, fetched once (a finished
 * slice is final); a contract the service does not know (404) becomes a reject.
 */
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/contract_metadata.ts"
import { distinctContracts, lookupListing } from "./_evm.ts"

export const dataset = defineDataset(table, {
  name: "contract_metadata",
  description: "Metadata of the job's token contracts (chain-data route 16), fetched once per contract",
  services: ["data"],
  partitionBy: ["chain_id"],
  key: ["address"],
  slices: (job) => distinctContracts(job.tokenContracts).map((c) => makeSlice("contract_metadata", { chain_id: c.chainId, address: c.address })),
  listing: lookupListing({
    key: (s) => String(s.params["address"]),
    path: (s) => `/v1/chains/${s.params["chain_id"]}/addresses/${s.params["address"]}`
  })
})
