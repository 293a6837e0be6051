/**
 * nft_holders — route 18 per job.nftContracts entry, a snapshot per run day. The response's
 * collection fields (name, symbol, totals) sit beside the page's holders, so the listing copies
 * them onto each holder record and every row carries them.
 */
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/nft_holders.ts"

const p = (s: Slice, k: string): string => s.params[k] ?? ""

export const dataset = defineDataset(table, {
  name: "nft_holders",
  description: "Holders of an NFT collection with their NFT counts and the collection's name, symbol and totals (metrics route 18)",
  services: ["metrics"],
  partitionBy: ["chain_id", "snapshot_date"],
  sliceColumns: ["contract_address"],
  key: ["holder_address"],
  slices: (job, { runDate }) => {
    const out = new Map<string, Slice>()
    for (const c of job.nftContracts) {
      const s = makeSlice("nft_holders", { chain_id: c.chainId, contract_address: c.address.toLowerCase(), snapshot_date: runDate })
      out.set(s.id, s)
    }
    return [...out.values()]
  },
  // the collection's fields sit beside the page's holders: each holder record carries them
  listing: restListing({
    service: "metrics",
    path: (slice) => `/v2/chains/${p(slice, "chain_id")}/contracts/${p(slice, "contract_address")}/nfts:listHolders`,
    items: "addresses",
    pageSize: 5000,
    pageFields: ["nftCollectionName", "nftSymbol", "totalHolders", "totalTokens"],
    tokenTtlSeconds: 86_400
  })
})
