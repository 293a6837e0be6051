/**
 * nft_tokens — route 15, a fan-out per chain over the (collection, token id) pairs seen in
 * evm_erc721_transfers and evm_erc1155_transfers, rerun every run: each run looks up only the
 * NFTs not fetched (nor answered 404) before. Keys are `<lowercase collection>/<token id padded
 * to 78 digits>`, so their text order is the order the cursor follows.
 */
import { Effect } from "effect"
import type { DatasetDef, SourceClients } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader } from "../src/crawl/OutputReader.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/nft_tokens.ts"
import { NftToken, fanOutChains, nftTokenRow, notFoundKeysSql } from "./_evm.ts"

const decode = decoder(NftToken)

const keySql = (address: string, tokenId: string) => `lower(${address}) || '/' || lpad(${tokenId}, 78, '0')`

const pendingSql = `
  WITH seen AS (
    SELECT token_address AS a, token_id AS id FROM evm_erc721_transfers WHERE chain_id = $chain
    UNION
    SELECT token_address, token_id FROM evm_erc1155_transfers WHERE chain_id = $chain
  )
  SELECT DISTINCT ${keySql("a", "id")} AS k FROM seen
  WHERE a IS NOT NULL AND id IS NOT NULL
    AND ${keySql("a", "id")} > $after
    AND ${keySql("a", "id")} NOT IN (SELECT ${keySql("token_address", "token_id")} FROM nft_tokens WHERE chain_id = $chain)
    AND ${keySql("a", "id")} NOT IN (SELECT k FROM (${notFoundKeysSql}) WHERE k IS NOT NULL)
  ORDER BY k
  LIMIT $limit`

export const dataset: DatasetDef<SourceClients> = {
  name: "nft_tokens",
  description: "NFTs seen in the transfers of evm_transactions (chain-data route 15), each fetched once",
  schema,
  partitionBy: [{ key: "chain_id", type: "VARCHAR", value: (r) => String(r["chain_id"]) }],
  key: ["token_address", "token_id"],
  rerun: "always",
  slices: (job) => fanOutChains(job).map((chain_id) => makeSlice("nft_tokens", { chain_id })),
  listing: keyedListing<RestClient | OutputReader>({
    excludesCommitted: true,
    batch: 100,
    concurrency: 8,
    nextKeys: (slice, after, limit) =>
      Effect.gen(function* () {
        const found = yield* (yield* OutputReader).query(
          pendingSql,
          { chain: String(slice.params["chain_id"]), after: after ?? "", limit, dataset: "nft_tokens" },
          ["evm_erc721_transfers", "evm_erc1155_transfers", "nft_tokens", "_rejects"]
        )
        return found.map((r) => String(r["k"]))
      }),
    fetch: (slice, key) =>
      Effect.gen(function* () {
        const [address, padded] = key.split("/") as [string, string]
        const path = `/v1/chains/${slice.params["chain_id"]}/nfts/collections/${address}/tokens/${BigInt(padded).toString()}`
        return [yield* (yield* RestClient).get("data", path)]
      })
  }),
  toRow: (raw, slice) => {
    const t = decode(raw)
    return { chain_id: slice.params["chain_id"], erc_type: t.ercType, ...nftTokenRow(t) }
  }
}
