/**
 * Column groups the EVM datasets share, so one shape of the service is one set of columns
 * everywhere, each read from the object at the path its dataset gives:
 * - AddressInfo (the service's RichAddress) is flattened to `<role>_address`, `<role>_name`,
 *   `<role>_symbol`, `<role>_decimals`, `<role>_logo_uri`: `from` and `to` are SQL keywords, so a
 *   struct would have to be quoted in every query, and the address is what queries filter on;
 * - a Price {currencyCode, value} is `<name>` (exact decimal text) plus `<name>_currency`;
 * - NFT metadata, read rarely and never joined on, stays one struct.
 * Which fields the service may leave out: the official document's `required` (RichAddress:
 * address; Money: both; Erc20Token: all but logoUri and price; NetworkToken: name, symbol,
 * decimals; NftTokenMetadata: indexStatus).
 */
import { type Column, col, type Columns } from "./columns.ts"
import { DecimalText, TokenId } from "./wire.ts"

type Prefixed<P extends string, Cs extends Columns> = { readonly [K in keyof Cs & string as `${P}_${K}`]: Cs[K] }

/** The columns of `cs` named `<prefix>_<name>`. */
const prefixed = <P extends string, Cs extends Columns>(prefix: P, cs: Cs): Prefixed<P, Cs> =>
  Object.fromEntries(Object.entries(cs).map(([k, c]) => [`${prefix}_${k}`, c])) as Prefixed<P, Cs>

/** The five columns of one party (an AddressInfo at `path`) of a transfer or transaction. */
export const party = <R extends "from" | "to">(role: R, who: string, path: string) =>
  prefixed(role, {
    address: col.address(`${who} address (EIP-55 as the service spells it)`).from(`${path}.address`),
    name: col.str(`${who}: contract name, when the address is a known contract`).from(`${path}.name?`),
    symbol: col.str(`${who}: token symbol, when the address is a token contract`).from(`${path}.symbol?`),
    decimals: col.int32(`${who}: token decimals, when the address is an ERC-20 contract`).from(`${path}.decimals?`),
    logo_uri: col.str(`${who}: logo URI, when the service has one`).from(`${path}.logoUri?`)
  })

/** A Price at `path` (a path ending in `?`: it may be absent): exact decimal text as sent, and its currency code. */
export const price = <N extends string>(name: N, what: string, path: string) =>
  ({
    [name]: col.str(`${what}, exact decimal text as sent (cast to DOUBLE for arithmetic)`).from(`${path}.value`, { wire: DecimalText }),
    [`${name}_currency`]: col.str(`Currency code of ${name}, e.g. usd`).from(`${path}.currencyCode`)
  }) as { readonly [K in N]: Column<string, true, "read"> } & { readonly [K in `${N}_currency`]: Column<string, true, "read"> }

/** The block of a block-scoped record (a transfer, a transaction detail). */
export const blockColumns = (path: string) => ({
  block_number: col.amount("Height of the including block").from(`${path}blockNumber`),
  block_timestamp: col.ts("Timestamp of the including block (UTC)").from(`${path}blockTimestamp`),
  block_hash: col.hash("Hash of the including block").from(`${path}blockHash`)
})

/** NftToken metadata (ERC-721 and ERC-1155), as the service indexed it: its fields, read from the metadata object. */
export const nftMetadata = (comment: string) =>
  col.struct(
      {
        index_status: col.str("Metadata indexing status, e.g. indexed (unknown values kept as sent)").from("indexStatus"),
        last_updated_at: col.ts("When the service last refreshed the metadata (UTC)").from("metadataLastUpdatedTimestamp?"),
        name: col.str("Token name from the metadata").from("name?"),
        symbol: col.str("Token symbol from the metadata").from("symbol?"),
        image_uri: col.str("Image URI").from("imageUri?"),
        description: col.str("Description").from("description?"),
        animation_uri: col.str("Animation URI").from("animationUri?"),
        external_url: col.str("External URL").from("externalUrl?"),
        background: col.str("Background colour").from("background?"),
        decimals: col.int32("Decimals (ERC-1155 only)").from("decimals?"),
        attributes: col.str("ERC-721 attributes, JSON text as sent").from("attributes?"),
        properties: col.str("ERC-1155 properties, JSON text as sent").from("properties?")
      },
      comment
    )

/** The token of an ERC-20 transfer (an Erc20Token at `path`), flattened beside the transfer. */
export const erc20Token = (path: string) => ({
  token_address: col.address("Token contract address").from(`${path}.address`),
  token_name: col.str("Token (collection) name").from(`${path}.name`),
  token_symbol: col.str("Token (collection) symbol").from(`${path}.symbol`),
  token_decimals: col.int32("ERC-20 decimals: divide value by 10^decimals for whole tokens").from(`${path}.decimals`),
  token_logo_uri: col.str("Token logo URI").from(`${path}.logoUri?`),
  ...price("token_price", "ERC-20 price the service attached to the transfer", `${path}.price?`)
})

/**
 * The NFT of an ERC-721/1155 transfer or route 15 (an NftToken at `path`: "" for the record
 * itself), flattened beside it; name and symbol are ERC-721 only.
 */
export const nftToken = (path: string) => ({
  token_address: col.address("Token contract address").from(`${path}address`),
  token_name: col.str("Token (collection) name").from(`${path}name?`),
  token_symbol: col.str("Token (collection) symbol").from(`${path}symbol?`),
  token_id: col.str("NFT token id, exact decimal text (uint256)").from(`${path}tokenId`, { wire: TokenId }),
  token_uri: col.str("NFT token URI").from(`${path}tokenUri?`),
  token_owner_address: col.address("Current owner of an ERC-721 token when the service answered (not as of the transfer)").from(`${path}ownerAddress?`),
  token_metadata: nftMetadata("NFT metadata when the service answered").from(`${path}metadata`)
})

/**
 * A chain's native token (networkToken, nativeTokenBalance) at `path`, flattened as
 * network_token_*; add the description where it is sent.
 */
export const networkToken = (path: string) => ({
  network_token_name: col.str("Native token name").from(`${path}.name`),
  network_token_symbol: col.str("Native token symbol").from(`${path}.symbol`),
  network_token_decimals: col.int32("Native token decimals").from(`${path}.decimals`),
  network_token_logo_uri: col.str("Native token logo URI").from(`${path}.logoUri?`)
})

export const networkTokenDescription = (path: string) => col.str("Native token description").from(`${path}.description?`)

/** What every table cut from a transaction detail repeats of its transaction, to join and partition on. */
export const txColumns = {
  chain_id: col.str("EVM chain id of the listing").fromSlice(),
  tx_hash: col.hash("Hash of the transaction (evm_transactions.tx_hash)").fromParent(),
  block_number: col.amount("Height of the including block").fromParent(),
  block_timestamp: col.ts("Timestamp of the including block (UTC)").fromParent()
}
