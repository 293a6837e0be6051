/**
 * nft_holders: current holders of an NFT collection (route 18), one snapshot a day, with the
 * response's collection-level fields repeated on every row so a notebook needs no second table.
 * Hive keys: chain_id, snapshot_date. The record is the holder (`item`) and its page's collection
 * fields (`page`, the listing's pageFields).
 */
import { IntegerLike } from "../src/transform/Decode.ts"
import { col, defineTable } from "./columns.ts"
import { SortKey, TextOrTexts } from "./wire.ts"

export const table = defineTable("NFT collection holders (metrics service route 18), snapshotted once per run day, with the collection's name, symbol and totals", {
  chain_id: col.str("EVM chain id of the collection").fromSlice(),
  snapshot_date: col.date("UTC day of the run that listed the holders").fromSlice(),
  contract_address: col.address("NFT collection contract queried (lowercase 0x)").fromSlice(),
  holder_address: col.address("Address holding at least one NFT of the collection").from("item.address"),
  sort_key: col.uint256("The route's sortKey: how many NFTs of the collection the address holds (ERC-1155: copies, a uint256)").from("item.sortKey", { wire: SortKey }),
  nft_collection_name: col.str("Collection name (response field nftCollectionName)").from("page.nftCollectionName?", { wire: TextOrTexts }),
  nft_symbol: col.str("Collection symbol (response field nftSymbol)").from("page.nftSymbol?", { wire: TextOrTexts }),
  total_holders: col.int64("Holders of the collection (response field totalHolders), as of the page this row came from").from("page.totalHolders?", { wire: IntegerLike }),
  total_tokens: col.int64("NFTs of the collection in circulation (response field totalTokens), as of the page this row came from").from("page.totalTokens?", { wire: IntegerLike })
})
