/**
 * nft_holders — route 18 per job.nftContracts entry, a snapshot per run day. The response's
 * collection fields (name, symbol, totals) sit beside the page's holders, so the listing copies
 * them onto each holder record and every row carries them.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { IntegerLike, decoder } from "../src/transform/Decode.ts"
import { uint256Values } from "../schemas/common.ts"
import { schema } from "../schemas/nft_holders.ts"
import { Holder } from "./token_holders.ts"
import { columnKey } from "./_shared/partitions.ts"

/** Seed: a string; the official document: an array of strings (kept joined by ", "). */
const Text = Schema.Union(Schema.String, Schema.Array(Schema.String).pipe(Schema.transform(Schema.String, { strict: true, decode: (a) => a.join(", "), encode: (s) => [s] })))

const Collection = Schema.Struct({
  nftCollectionName: Schema.optional(Text),
  nftSymbol: Schema.optional(Text),
  totalHolders: Schema.optional(IntegerLike),
  totalTokens: Schema.optional(IntegerLike)
})
const HolderRecord = Schema.Struct({ item: Holder, page: Collection })
const decodeRecord = decoder(HolderRecord)

const p = (s: Slice, k: string): string => s.params[k] ?? ""

export const dataset: DatasetDef<RestClient> = {
  name: "nft_holders",
  description: "Holders of an NFT collection with their NFT counts and the collection's name, symbol and totals (metrics route 18)",
  schema,
  partitionBy: [
    columnKey("chain_id"),
    columnKey("snapshot_date", "DATE")
  ],
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
  }),
  toRow: (raw, slice) => {
    const { item: holder, page: collection } = decodeRecord(raw)
    return {
      chain_id: p(slice, "chain_id"),
      snapshot_date: p(slice, "snapshot_date"),
      contract_address: p(slice, "contract_address"),
      holder_address: holder.address,
      ...uint256Values("sort_key", holder.sortKey),
      nft_collection_name: collection.nftCollectionName ?? null,
      nft_symbol: collection.nftSymbol ?? null,
      total_holders: collection.totalHolders ?? null,
      total_tokens: collection.totalTokens ?? null
    }
  }
}
