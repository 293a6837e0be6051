/**
 * nft_tokens: each NFT (collection, token id) seen in evm_erc721_transfers or
 * evm_erc1155_transfers, as route 15 described it when first looked up. Hive key: chain_id.
 */
import { nftToken } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"

export const table = defineTable("NFTs of the transfers in evm_transactions, from the chain-data service, route 15", {
  chain_id: col.str("EVM chain id of the collection").fromSlice(),
  erc_type: col.str("ERC-721 or ERC-1155 (unknown values kept as sent)").from("ercType"),
  ...nftToken("")
})
