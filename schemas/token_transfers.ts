/**
 * token_transfers: transfers of the job's token contracts (ERC-20, ERC-721, ERC-1155) as route 6
 * lists them, one row per transfer event. Hive keys: chain_id, date (UTC day of block_timestamp).
 * A transfer carries its token as erc20Token, erc721Token or erc1155Token (route 6 lists one
 * contract, whichever its standard): the token columns are the union of the kinds, each read from
 * the token that was sent, NULL where it does not apply.
 */
import { blockColumns, nftMetadata, party } from "./_evm.ts"
import { col, defineTable } from "./columns.ts"
import { DecimalText, TokenId } from "./wire.ts"

/** A field of whichever token the transfer carries. */
const token = (field: string) => [`erc20Token?.${field}`, `erc721Token?.${field}`, `erc1155Token?.${field}`] as const
const nft = (field: string) => [`erc721Token?.${field}`, `erc1155Token?.${field}`] as const

export const table = defineTable("Transfers of the job's token contracts from the chain-data service, route 6, by block-range windows", {
  chain_id: col.str("EVM chain id of the contract").fromSlice(),
  ...blockColumns(""),
  tx_hash: col.hash("Hash of the transaction that emitted the transfer").from("txHash"),
  log_index: col.int32("Index of the transfer's log within its block").from("logIndex"),
  ...party("from", "Sender", "from"),
  ...party("to", "Recipient", "to"),
  erc_type: col.str("Token standard as the service names it: ERC-20, ERC-721, ERC-1155 (unknown values kept as sent)").from(token("ercType")),
  value: col.uint256("Amount moved: ERC-20 base units or ERC-1155 copies; NULL for ERC-721").from("value?"),
  token_address: col.address("Token contract address").from(token("address")),
  token_name: col.str("Token (collection) name").from(["erc20Token?.name", ...nft("name?")]),
  token_symbol: col.str("Token (collection) symbol").from(["erc20Token?.symbol", ...nft("symbol?")]),
  token_decimals: col.int32("ERC-20 decimals: divide value by 10^decimals for whole tokens").from("erc20Token?.decimals"),
  token_logo_uri: col.str("Token logo URI").from("erc20Token?.logoUri?"),
  token_price: col.str("ERC-20 price the service attached to the transfer, exact decimal text as sent (cast to DOUBLE for arithmetic)").from("erc20Token?.price?.value", { wire: DecimalText }),
  token_price_currency: col.str("Currency code of token_price, e.g. usd").from("erc20Token?.price?.currencyCode"),
  token_id: col.str("NFT token id, exact decimal text (uint256)").from(nft("tokenId"), { wire: TokenId }),
  token_uri: col.str("NFT token URI").from(nft("tokenUri?")),
  token_owner_address: col.address("Current owner of an ERC-721 token when the service answered (not as of the transfer)").from(nft("ownerAddress?")),
  token_metadata: nftMetadata("NFT metadata when the service answered").from(nft("metadata"))
})
