/**
 * contract_metadata: what route 16 says about each token contract of the job, fetched once.
 * Hive key: chain_id.
 */
import { col, defineTable } from "./columns.ts"

export const table = defineTable("Metadata of the job's token contracts from the chain-data service, route 16", {
  chain_id: col.str("EVM chain id of the contract").fromSlice(),
  address: col.address("Contract address").from("address"),
  erc_type: col.str("ERC-20, ERC-721, ERC-1155 or UNKNOWN (unknown values kept as sent)").from("ercType"),
  name: col.str("Contract name").from("name?"),
  symbol: col.str("Token symbol").from("symbol?"),
  decimals: col.int32("Token decimals (ERC-20)").from("decimals?"),
  description: col.str("Description").from("description?"),
  official_site: col.str("Official web site").from("officialSite?"),
  email: col.str("Contact e-mail").from("email?"),
  logo_asset_id: col.str("Logo image asset id").from("logoAsset?.assetId?"),
  logo_image_uri: col.str("Logo image URI").from("logoAsset?.imageUri?"),
  banner_asset_id: col.str("Banner image asset id").from("bannerAsset?.assetId?"),
  banner_image_uri: col.str("Banner image URI").from("bannerAsset?.imageUri?"),
  color: col.str("Brand colour").from("color?"),
  resource_links: col
    .list(
      col.struct(
        { type: col.str("Link type, e.g. Blog, Twitter (unknown values kept as sent)").from("type"), url: col.str("Link URL").from("url") },
        "Resource link"
      ),
      "Links to the project's resources, in the service's order"
    )
    .from("resourceLinks?", { orElse: [] }),
  tags: col.list(col.str("Tag"), "Tags").from("tags?", { orElse: [] }),
  deployment_tx_hash: col.hash("Transaction that deployed the contract").from("deploymentDetails?.txHash"),
  deployer_address: col.address("Sender of the deployment transaction").from("deploymentDetails?.deployerAddress"),
  deployer_contract_address: col.address("Contract that deployed it, for a deployment by a contract").from("deploymentDetails?.deployerContractAddress?"),
  coingecko_coin_id: col.str("CoinGecko coin id of the pricing provider").from("pricingProviders?.coingeckoCoinId?")
})
