/**
 * token_holders — route 14 per job.tokenHolders entry (contract + threshold), a snapshot per run
 * day. No startTimestamp/endTimestamp: the period is the whole history up to the run, so a row is
 * "held more than the threshold at some time" with its latest balance.
 */
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/token_holders.ts"

const p = (s: Slice, k: string): string => s.params[k] ?? ""

export const dataset = defineDataset(table, {
  name: "token_holders",
  description: "Addresses that held more than a threshold of a token, with their latest balance (metrics route 14)",
  services: ["metrics"],
  partitionBy: ["chain_id", "snapshot_date"],
  sliceColumns: ["contract_address"],
  key: ["holder_address"],
  slices: (job, { runDate }) => {
    const out = new Map<string, Slice>()
    for (const h of job.tokenHolders) {
      const s = makeSlice("token_holders", { chain_id: h.chainId, contract_address: h.address.toLowerCase(), threshold: h.threshold, snapshot_date: runDate })
      out.set(s.id, s)
    }
    return [...out.values()]
  },
  listing: restListing({
    service: "metrics",
    path: (s) => `/v2/chains/${p(s, "chain_id")}/contracts/${p(s, "contract_address")}/balances`,
    query: (s) => ({ threshold: p(s, "threshold") }),
    items: "addresses",
    pageSize: 5000,
    tokenTtlSeconds: 86_400
  })
})
