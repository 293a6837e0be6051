/**
 * nft_tokens: each NFT (collection, token id) seen in evm_erc721_transfers or
 * evm_erc1155_transfers, as route 15 described it when first looked up. Hive key: chain_id.
 */
import { defineSchema, str } from "./common.ts"
import { nftToken } from "./_evm.ts"

export const schema = defineSchema(
  [str("erc_type", "ERC-721 or ERC-1155 (unknown values kept as sent)"), ...nftToken()],
  "NFTs of the transfers in evm_transactions, from the chain-data service, route 15"
)
