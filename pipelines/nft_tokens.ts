/**
 * nft_tokens — route 15, a fan-out per chain over the (collection, token id) pairs seen in
 * evm_erc721_transfers and evm_erc1155_transfers, rerun every run: each run looks up only the
 * NFTs not fetched (nor answered 404) before. Keys are `<lowercase collection>/<token id padded
 * to 78 digits>`, so their text order is the order the cursor follows.
 */
import { makeSlice } from "../src/crawl/Slice.ts"
import { defineDataset } from "../src/transform/DefineDataset.ts"
import { table } from "../schemas/nft_tokens.ts"
import { fanOutChains, fanOutListing } from "./_evm.ts"

const keySql = (address: string, tokenId: string) => `lower(${address}) || '/' || lpad(${tokenId}, 78, '0')`

const candidatesSql = `
  SELECT ${keySql("a", "id")} AS k FROM (
    SELECT token_address AS a, token_id AS id FROM evm_erc721_transfers WHERE chain_id = $chain
    UNION
    SELECT token_address, token_id FROM evm_erc1155_transfers WHERE chain_id = $chain
  )
  WHERE ${keySql("a", "id")} NOT IN (
    SELECT ${keySql("token_address", "token_id")} FROM nft_tokens WHERE chain_id = $chain AND token_address IS NOT NULL AND token_id IS NOT NULL
  )`

export const dataset = defineDataset(table, {
  name: "nft_tokens",
  description: "NFTs seen in the transfers of evm_transactions (chain-data route 15), each fetched once",
  services: ["data"],
  readsOutputOf: ["evm_transactions"],
  partitionBy: ["chain_id"],
  key: ["token_address", "token_id"],
  rerun: "always",
  slices: (job) => fanOutChains(job).map((chain_id) => makeSlice("nft_tokens", { chain_id })),
  listing: fanOutListing({
    dataset: "nft_tokens",
    candidatesSql,
    reads: ["evm_erc721_transfers", "evm_erc1155_transfers", "nft_tokens"],
    path: (slice, key) => {
      const [address, paddedId] = key.split("/") as [string, string]
      return `/v1/chains/${slice.params["chain_id"]}/nfts/collections/${address}/tokens/${BigInt(paddedId).toString()}`
    }
  })
})
