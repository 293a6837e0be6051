/**
 * Pieces the EVM datasets share: decoders of the service's shared objects (AddressInfo, Price,
 * ERC-20 token, NftToken) with their row mappers, matching the column groups of schemas/_evm.ts,
 * and the listing helpers (latest block, one-lookup slices, keys already answered 404).
 */
import { Effect, Schema } from "effect"
import type { Listing, Row } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader, type SqlParam } from "../src/crawl/OutputReader.ts"
import type { Slice } from "../src/crawl/Slice.ts"
import { SourceError } from "../src/Errors.ts"
import type { Job } from "../src/Job.ts"
import { RestClient, type Query } from "../src/source/RestClient.ts"
import { DecimalString, UnixSeconds } from "../src/transform/Decode.ts"

export const opt = Schema.optional
export const Int = Schema.Number.pipe(Schema.int())

const MAX_AMOUNT = 10n ** 38n - 1n
const UINT256_LIMIT = 1n << 256n

/** Block numbers, gas, fees: a DECIMAL(38,0) column, so a larger value rejects its record instead of failing the write. */
export const Amount = DecimalString.pipe(Schema.filter((v) => (v >= 0n && v <= MAX_AMOUNT) || "expected a non-negative integer of at most 38 digits"))

/** Token values and balances: exact up to 2^256 − 1 (the `uint256` column pair). */
export const Uint256 = DecimalString.pipe(Schema.filter((v) => (v >= 0n && v < UINT256_LIMIT) || "expected a uint256"))

/**
 * The seed sends Price.value as a decimal string, the official document as a number (a bigint from
 * the lossless parser when it is a long integer): all become the decimal text.
 */
const DecimalText = Schema.Union(Schema.String.pipe(Schema.pattern(/^-?[0-9]+(\.[0-9]+)?$/)), Schema.Number, Schema.BigIntFromSelf).pipe(
  Schema.transform(Schema.String, { strict: true, decode: (v) => String(v), encode: (s) => s })
)

export const Money = Schema.Struct({ currencyCode: Schema.String, value: DecimalText })

export const priceRow = (name: string, m: typeof Money.Type | undefined): Row => ({ [name]: m?.value ?? null, [`${name}_currency`]: m?.currencyCode ?? null })

/** The service's RichAddress: only `address` is always there; the rest describes known contracts. */
export const AddressInfo = Schema.Struct({
  address: Schema.String,
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  decimals: opt(Int),
  logoUri: opt(Schema.String)
})

export const partyRow = (role: "from" | "to", a: typeof AddressInfo.Type): Row => ({
  [`${role}_address`]: a.address,
  [`${role}_name`]: a.name ?? null,
  [`${role}_symbol`]: a.symbol ?? null,
  [`${role}_decimals`]: a.decimals ?? null,
  [`${role}_logo_uri`]: a.logoUri ?? null
})

export const Erc20Token = Schema.Struct({
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Int,
  logoUri: opt(Schema.String),
  ercType: Schema.String,
  price: opt(Money)
})

export const erc20TokenRow = (t: typeof Erc20Token.Type): Row => ({
  token_address: t.address,
  token_name: t.name,
  token_symbol: t.symbol,
  token_decimals: t.decimals,
  token_logo_uri: t.logoUri ?? null,
  ...priceRow("token_price", t.price)
})

export const NftMetadata = Schema.Struct({
  indexStatus: Schema.String,
  metadataLastUpdatedTimestamp: opt(UnixSeconds),
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  imageUri: opt(Schema.String),
  description: opt(Schema.String),
  animationUri: opt(Schema.String),
  externalUrl: opt(Schema.String),
  background: opt(Schema.String),
  decimals: opt(Int),
  attributes: opt(Schema.String),
  properties: opt(Schema.String)
})

export const metadataRow = (m: typeof NftMetadata.Type): Row => ({
  index_status: m.indexStatus,
  last_updated_at: m.metadataLastUpdatedTimestamp ?? null,
  name: m.name ?? null,
  symbol: m.symbol ?? null,
  image_uri: m.imageUri ?? null,
  description: m.description ?? null,
  animation_uri: m.animationUri ?? null,
  external_url: m.externalUrl ?? null,
  background: m.background ?? null,
  decimals: m.decimals ?? null,
  attributes: m.attributes ?? null,
  properties: m.properties ?? null
})

/** Token ids are uint256: exact decimal text, never a number. */
export const TokenId = Schema.String.pipe(Schema.pattern(/^[0-9]{1,78}$/, { message: () => "expected a decimal token id" }))

/** NftToken (route 15, and the token of ERC-721/1155 transfers); name and symbol are ERC-721 only. */
export const NftToken = Schema.Struct({
  address: Schema.String,
  name: opt(Schema.String),
  symbol: opt(Schema.String),
  ercType: Schema.String,
  tokenId: TokenId,
  tokenUri: opt(Schema.String),
  metadata: NftMetadata,
  ownerAddress: opt(Schema.String)
})

export const nftTokenRow = (t: typeof NftToken.Type): Row => ({
  token_address: t.address,
  token_name: t.name ?? null,
  token_symbol: t.symbol ?? null,
  token_id: t.tokenId,
  token_uri: t.tokenUri ?? null,
  token_owner_address: t.ownerAddress ?? null,
  token_metadata: metadataRow(t.metadata)
})

/** A chain's native token (networkToken). */
export const NetworkToken = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  decimals: Int,
  logoUri: opt(Schema.String),
  description: opt(Schema.String)
})

export const networkTokenRow = (t: typeof NetworkToken.Type): Row => ({
  network_token_name: t.name,
  network_token_symbol: t.symbol,
  network_token_decimals: t.decimals,
  network_token_logo_uri: t.logoUri ?? null,
  network_token_description: t.description ?? null
})

/** The fields every transfer (route 6 item or transaction-detail entry) has. */
export const TransferEnds = {
  from: AddressInfo,
  to: AddressInfo,
  logIndex: Int
}

export const Erc20Transfer = Schema.Struct({ ...TransferEnds, value: Uint256, erc20Token: Erc20Token })
export const Erc721Transfer = Schema.Struct({ ...TransferEnds, erc721Token: NftToken })
export const Erc1155Transfer = Schema.Struct({ ...TransferEnds, value: Uint256, erc1155Token: NftToken })

export const endsRow = (t: { readonly from: typeof AddressInfo.Type; readonly to: typeof AddressInfo.Type; readonly logIndex: number }): Row => ({
  log_index: t.logIndex,
  ...partyRow("from", t.from),
  ...partyRow("to", t.to)
})

const BlocksPage = Schema.Struct({ blocks: Schema.NonEmptyArray(Schema.Struct({ blockNumber: DecimalString })) })
const decodeBlocksPage = Schema.decodeUnknownEither(BlocksPage)

/** The chain's latest block: the first item of route 10 (latest first). */
export const latestBlock = (chainId: string): Effect.Effect<bigint, SourceError, RestClient> =>
  Effect.gen(function* () {
    const path = `/v1/chains/${chainId}/blocks`
    const body = yield* (yield* RestClient).get("data", path, { pageSize: 1 })
    const page = decodeBlocksPage(body)
    if (page._tag === "Left") {
      return yield* Effect.fail(new SourceError({ reason: "Decode", request: `GET data ${path}`, detail: "expected a first page with a block to read the latest height from" }))
    }
    return page.right.blocks[0].blockNumber
  })

/**
 * A slice that is one lookup (a chain, a contract, a balance): a keyed listing of one key, so a
 * 404 becomes a reject like in the fan-outs.
 */
export const lookupListing = (spec: {
  readonly key: (slice: Slice) => string
  readonly path: (slice: Slice) => string
  readonly query?: (slice: Slice) => Query
}): Listing<RestClient> =>
  keyedListing({
    nextKeys: (slice, after) => Effect.succeed(after === undefined ? [spec.key(slice)] : []),
    fetch: (slice) =>
      Effect.gen(function* () {
        return [yield* (yield* RestClient).get("data", spec.path(slice), spec.query?.(slice))]
      }),
    batch: 1,
    concurrency: 1
  })

/**
 * Keys a fan-out asked for before on this chain and the service answered 404 (keyed listings write
 * them to `_rejects` as {"key": …}, the reason naming the request): a settled answer, not asked
 * again each run. The same key on another chain is another question.
 */
const notFoundKeysSql = `SELECT k FROM (
    SELECT lower(json_extract_string(raw, '$.key')) AS k FROM _rejects
    WHERE dataset = $dataset AND starts_with(reason, 'not found: GET data /v1/chains/' || $chain || '/')
  ) WHERE k IS NOT NULL`

export interface FanOutSpec {
  readonly dataset: string
  /**
   * Keys (column `k`, lowercase) wanted on `$chain` and not in the dataset yet; `params` may add
   * parameters. Mind NULLs in a NOT IN subquery: one NULL there makes every key look fetched.
   */
  readonly candidatesSql: string
  /** Datasets the query reads (besides `_rejects`). */
  readonly reads: ReadonlyArray<string>
  readonly params?: (slice: Slice) => Readonly<Record<string, SqlParam>>
  /** The chain-data route answering one key. */
  readonly path: (slice: Slice, key: string) => string
}

/**
 * A fan-out per chain (slice param `chain_id`): keys found in other datasets' output, not in this
 * one and not answered 404 before, in text order after the cursor, looked up with one GET each,
 * 100 per page (a checkpoint step), 8 in flight.
 */
export const fanOutListing = (spec: FanOutSpec): Listing<RestClient | OutputReader> =>
  keyedListing<RestClient | OutputReader>({
    excludesCommitted: true,
    batch: 100,
    concurrency: 8,
    nextKeys: (slice, after, limit) =>
      Effect.gen(function* () {
        const found = yield* (yield* OutputReader).query(
          `SELECT DISTINCT k FROM (${spec.candidatesSql})
           WHERE k IS NOT NULL AND k > $after AND k NOT IN (${notFoundKeysSql})
           ORDER BY k LIMIT $limit`,
          { chain: String(slice.params["chain_id"]), after: after ?? "", limit, dataset: spec.dataset, ...spec.params?.(slice) },
          [...spec.reads, "_rejects"]
        )
        return found.map((r) => String(r["k"]))
      }),
    fetch: (slice, key) =>
      Effect.gen(function* () {
        return [yield* (yield* RestClient).get("data", spec.path(slice, key))]
      })
  })

/** Chains whose transactions the fan-outs look up: those of configured token contracts and transaction hashes. */
export const fanOutChains = (job: Job): ReadonlyArray<string> =>
  [...new Set([...job.tokenContracts.map((c) => c.chainId), ...job.transactionHashes.map((t) => t.chainId)])].sort()

/** Contracts of the job, deduplicated by address case, in a stable order. */
export const distinctContracts = (refs: ReadonlyArray<{ readonly chainId: string; readonly address: string }>) => {
  const seen = new Map<string, { readonly chainId: string; readonly address: string }>()
  for (const r of refs) seen.set(`${r.chainId}/${r.address.toLowerCase()}`, r)
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r)
}
