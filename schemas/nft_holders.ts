/**
 * nft_holders: current holders of an NFT collection (route 18), one snapshot a day, with the
 * response's collection-level fields repeated on every row so a notebook needs no second table.
 * Hive keys: chain_id, snapshot_date.
 */
import { address, defineSchema, int64, str, uint256 } from "./common.ts"

export const schema = defineSchema(
  [
    address("contract_address", "NFT collection contract queried (lowercase 0x)", { nullable: false }),
    address("holder_address", "Address holding at least one NFT of the collection", { nullable: false }),
    ...uint256("sort_key", "The route's sortKey: how many NFTs of the collection the address holds (ERC-1155: copies, a uint256)", { nullable: false }),
    str("nft_collection_name", "Collection name (response field nftCollectionName)"),
    str("nft_symbol", "Collection symbol (response field nftSymbol)"),
    int64("total_holders", "Holders of the collection (response field totalHolders), as of the page this row came from"),
    int64("total_tokens", "NFTs of the collection in circulation (response field totalTokens), as of the page this row came from")
  ],
  "NFT collection holders (metrics service route 18), snapshotted once per run day, with the collection's name, symbol and totals"
)
