/**
 * contract_metadata: what route 16 says about each token contract of the job, fetched once.
 * Hive key: chain_id.
 */
import { address, defineSchema, hash, int32, list, str, struct } from "./common.ts"

export const schema = defineSchema(
  [
    address("address", "Contract address", { nullable: false }),
    str("erc_type", "ERC-20, ERC-721, ERC-1155 or UNKNOWN (unknown values kept as sent)"),
    str("name", "Contract name"),
    str("symbol", "Token symbol"),
    int32("decimals", "Token decimals (ERC-20)"),
    str("description", "Description"),
    str("official_site", "Official web site"),
    str("email", "Contact e-mail"),
    str("logo_asset_id", "Logo image asset id"),
    str("logo_image_uri", "Logo image URI"),
    str("banner_asset_id", "Banner image asset id"),
    str("banner_image_uri", "Banner image URI"),
    str("color", "Brand colour"),
    list(
      "resource_links",
      struct("item", [str("type", "Link type, e.g. Blog, Twitter (unknown values kept as sent)"), str("url", "Link URL")], "Resource link"),
      "Links to the project's resources, in the service's order"
    ),
    list("tags", str("item", "Tag"), "Tags"),
    hash("deployment_tx_hash", "Transaction that deployed the contract"),
    address("deployer_address", "Sender of the deployment transaction"),
    address("deployer_contract_address", "Contract that deployed it, for a deployment by a contract"),
    str("coingecko_coin_id", "CoinGecko coin id of the pricing provider")
  ],
  "Metadata of the job's token contracts from the chain-data service, route 16"
)
