/**
 * contract_metadata — route 16, one slice per token contract of the job, fetched once (a finished
 * slice is final); a contract the service does not know (404) becomes a reject.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/contract_metadata.ts"
import { Int, distinctContracts, lookupListing, opt } from "./_evm.ts"
import { columnKey } from "./_shared/partitions.ts"

const ImageAsset = Schema.Struct({ assetId: opt(Schema.String), imageUri: opt(Schema.String) })

const Contract = Schema.Struct({
  address: Schema.String,
  ercType: Schema.String,
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  decimals: opt(Int),
  description: opt(Schema.String),
  officialSite: opt(Schema.String),
  email: opt(Schema.String),
  logoAsset: opt(ImageAsset),
  bannerAsset: opt(ImageAsset),
  color: opt(Schema.String),
  resourceLinks: opt(Schema.Array(Schema.Struct({ type: Schema.String, url: Schema.String }))),
  tags: opt(Schema.Array(Schema.String)),
  deploymentDetails: opt(Schema.Struct({ txHash: Schema.String, deployerAddress: Schema.String, deployerContractAddress: opt(Schema.String) })),
  pricingProviders: opt(Schema.Struct({ coingeckoCoinId: opt(Schema.String) }))
})

const decode = decoder(Contract)

export const dataset: DatasetDef<RestClient> = {
  name: "contract_metadata",
  description: "Metadata of the job's token contracts (chain-data route 16), fetched once per contract",
  schema,
  partitionBy: [columnKey("chain_id")],
  key: ["address"],
  slices: (job) => distinctContracts(job.tokenContracts).map((c) => makeSlice("contract_metadata", { chain_id: c.chainId, address: c.address })),
  listing: lookupListing({
    key: (s) => String(s.params["address"]),
    path: (s) => `/v1/chains/${s.params["chain_id"]}/addresses/${s.params["address"]}`
  }),
  toRow: (raw, slice) => {
    const c = decode(raw)
    return {
      chain_id: slice.params["chain_id"],
      address: c.address,
      erc_type: c.ercType,
      name: c.name ?? null,
      symbol: c.symbol ?? null,
      decimals: c.decimals ?? null,
      description: c.description ?? null,
      official_site: c.officialSite ?? null,
      email: c.email ?? null,
      logo_asset_id: c.logoAsset?.assetId ?? null,
      logo_image_uri: c.logoAsset?.imageUri ?? null,
      banner_asset_id: c.bannerAsset?.assetId ?? null,
      banner_image_uri: c.bannerAsset?.imageUri ?? null,
      color: c.color ?? null,
      resource_links: (c.resourceLinks ?? []).map((l) => ({ type: l.type, url: l.url })),
      tags: c.tags ?? [],
      deployment_tx_hash: c.deploymentDetails?.txHash ?? null,
      deployer_address: c.deploymentDetails?.deployerAddress ?? null,
      deployer_contract_address: c.deploymentDetails?.deployerContractAddress ?? null,
      coingecko_coin_id: c.pricingProviders?.coingeckoCoinId ?? null
    }
  }
}
