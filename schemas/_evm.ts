/**
 * Column groups the EVM datasets share, so one shape of the service is one set of columns
 * everywhere:
 * - AddressInfo (the service's RichAddress) is flattened to `<role>_address`, `<role>_name`,
 *   `<role>_symbol`, `<role>_decimals`, `<role>_logo_uri`: `from` and `to` are SQL keywords, so a
 *   struct would have to be quoted in every query, and the address is what queries filter on;
 * - a Price {currencyCode, value} is `<name>` (exact decimal text) plus `<name>_currency`;
 * - NFT metadata, read rarely and never joined on, stays one struct.
 */
import type * as arrow from "../src/ArrowTypes.ts"
import { address, amount, type FieldOptions, hash, int32, str, struct, ts } from "./common.ts"

/** The five columns of one party of a transfer or transaction. */
export const party = (role: "from" | "to", who: string): ReadonlyArray<arrow.Field> => [
  address(`${role}_address`, `${who} address (EIP-55 as the service spells it)`),
  str(`${role}_name`, `${who}: contract name, when the address is a known contract`),
  str(`${role}_symbol`, `${who}: token symbol, when the address is a token contract`),
  int32(`${role}_decimals`, `${who}: token decimals, when the address is an ERC-20 contract`),
  str(`${role}_logo_uri`, `${who}: logo URI, when the service has one`)
]

/** A Price: exact decimal text as sent, and its currency code. */
export const price = (name: string, what: string): ReadonlyArray<arrow.Field> => [
  str(name, `${what}, exact decimal text as sent (cast to DOUBLE for arithmetic)`),
  str(`${name}_currency`, `Currency code of ${name}, e.g. usd`)
]

/** The fields a block-scoped record carries (transfers, transaction details). */
export const blockFields = (): ReadonlyArray<arrow.Field> => [
  amount("block_number", "Height of the including block", { nullable: false }),
  ts("block_timestamp", "Timestamp of the including block (UTC)", { nullable: false }),
  hash("block_hash", "Hash of the including block")
]

const tokenIdentity = (): ReadonlyArray<arrow.Field> => [
  address("token_address", "Token contract address"),
  str("token_name", "Token (collection) name"),
  str("token_symbol", "Token (collection) symbol")
]

const erc20Details = (): ReadonlyArray<arrow.Field> => [
  int32("token_decimals", "ERC-20 decimals: divide value by 10^decimals for whole tokens"),
  str("token_logo_uri", "Token logo URI"),
  ...price("token_price", "ERC-20 price the service attached to the transfer")
]

/** NftToken metadata (ERC-721 and ERC-1155), as the service indexed it. */
export const nftMetadata = (name: string, comment: string) =>
  struct(
    name,
    [
      str("index_status", "Metadata indexing status, e.g. indexed (unknown values kept as sent)"),
      ts("last_updated_at", "When the service last refreshed the metadata (UTC)"),
      str("name", "Token name from the metadata"),
      str("symbol", "Token symbol from the metadata"),
      str("image_uri", "Image URI"),
      str("description", "Description"),
      str("animation_uri", "Animation URI"),
      str("external_url", "External URL"),
      str("background", "Background colour"),
      int32("decimals", "Decimals (ERC-1155 only)"),
      str("attributes", "ERC-721 attributes, JSON text as sent"),
      str("properties", "ERC-1155 properties, JSON text as sent")
    ],
    comment
  )

const nftDetails = (): ReadonlyArray<arrow.Field> => [
  str("token_id", "NFT token id, exact decimal text (uint256)"),
  str("token_uri", "NFT token URI"),
  address("token_owner_address", "Current owner of an ERC-721 token when the service answered (not as of the transfer)"),
  nftMetadata("token_metadata", "NFT metadata when the service answered")
]

/** The token of an ERC-20 transfer (erc20Token), flattened beside the transfer. */
export const erc20Token = (): ReadonlyArray<arrow.Field> => [...tokenIdentity(), ...erc20Details()]

/** The NFT of an ERC-721/1155 transfer (erc721Token / erc1155Token), flattened beside the transfer. */
export const nftToken = (): ReadonlyArray<arrow.Field> => [...tokenIdentity(), ...nftDetails()]

/** Any token of a transfer (route 6 lists one contract, whichever its standard): the union, NULL where it does not apply. */
export const anyToken = (): ReadonlyArray<arrow.Field> => [...tokenIdentity(), ...erc20Details(), ...nftDetails()]

/** The `from` options of a field `key` of the object at `from`; none when the dataset maps it in code. */
const at = (from: string | undefined, key: string, optional = false): FieldOptions | undefined =>
  from === undefined ? undefined : { from: `${from}.${key}`, ...(optional ? { optional } : {}) }

/**
 * A chain's native token (networkToken, nativeTokenBalance), flattened as network_token_*; add the
 * description where it is sent. `from`: the record's object holding it, for a dataset whose
 * columns are read `from` the record (logo and description may be left out, the rest may not).
 */
export const networkToken = (from?: string): ReadonlyArray<arrow.Field> => [
  str("network_token_name", "Native token name", at(from, "name")),
  str("network_token_symbol", "Native token symbol", at(from, "symbol")),
  int32("network_token_decimals", "Native token decimals", at(from, "decimals")),
  str("network_token_logo_uri", "Native token logo URI", at(from, "logoUri", true))
]

export const networkTokenDescription = (from?: string) => str("network_token_description", "Native token description", at(from, "description", true))

/** What every table cut from a transaction detail repeats of its transaction, to join and partition on. */
export const txFields = (): ReadonlyArray<arrow.Field> => [
  hash("tx_hash", "Hash of the transaction (evm_transactions.tx_hash)", { nullable: false }),
  amount("block_number", "Height of the including block", { nullable: false }),
  ts("block_timestamp", "Timestamp of the including block (UTC)", { nullable: false })
]
