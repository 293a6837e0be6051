/**
 * The chain-data service's EVM routes (seed routes 6, 9, 10, 11, 15, 16, 17) over the EVM world.
 * Lists are newest first: blocks by timestamp descending (seed route 10), token transfers by
 * block descending (the official service's order), each keyset-paged with opaque tokens.
 */
import type { CursorPage, PageSpec, RouteDef } from "../http/contract.ts"
import { pageOf, tokenField } from "../http/pagination.ts"
import { blockJson, chainInfoJson, contractJson, nativeBalanceJson, nftTokenJson, transactionJson, transferJson } from "../world/evm/wire/data.ts"
import { addressParam, badRequest, chainParam, notFound, optionalBigQuery } from "../world/evm/wire/params.ts"
import { isCurrency } from "../world/evm/wire/price.ts"

/** Seed Limits: "all other list routes: 10 / 100". */
const STANDARD: PageSpec = { defaultSize: 10, maxSize: 100, tokenKind: "opaque" }

/** Keyset cursor: a non-negative integer written in decimal. */
const cursorNumber = (cursor: string | undefined): number | undefined => {
  if (cursor === undefined) return undefined
  if (!/^\d{1,16}$/.test(cursor)) throw badRequest("invalid page token: cursor is not a position")
  return Number(cursor)
}

export const routes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/tokens/{address}/transfers",
    seedRoute: 6,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const address = addressParam(ctx)
      const startBlock = optionalBigQuery(ctx, "startBlock")
      const endBlock = optionalBigQuery(ctx, "endBlock")
      if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) {
        throw badRequest(`startBlock (${startBlock}) must not be greater than endBlock (${endBlock}); endBlock is exclusive`)
      }
      const range = chain.tokenTransfers(address, startBlock, endBlock)
      if (!range) throw notFound(`no ERC-20, ERC-721 or ERC-1155 token contract at ${address} on chain ${chain.info.evmChainId}`)
      // the cursor is the sequence position below which the next page starts (newest first)
      const page = pageOf(ctx, STANDARD, (cursor, limit): CursorPage<Record<string, unknown>> => {
        const top = Math.min(cursorNumber(cursor) ?? range.end, range.end)
        const bottom = Math.max(range.first, top - limit)
        const items = []
        for (let seq = top - 1; seq >= bottom; seq--) items.push(transferJson(chain, range.at(seq)))
        return bottom > range.first ? { items, nextCursor: String(bottom) } : { items }
      })
      return { ...tokenField(page.nextPageToken), transfers: page.items }
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
    seedRoute: 9,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const address = addressParam(ctx)
      const currency = ctx.query.get("currency") ?? "usd"
      if (!isCurrency(currency)) {
        throw badRequest(`currency must be one of usd, eur, aud, cad, chf, clp, cny, czk, dkk, gbp, hkd, huf, jpy, nzd (got "${currency}")`)
      }
      const blockNumber = optionalBigQuery(ctx, "blockNumber")
      const latest = chain.latestHeight()
      if (blockNumber !== undefined && blockNumber > latest) throw notFound(`block ${blockNumber} does not exist yet on chain ${chain.info.evmChainId} (latest is ${latest})`)
      const height = blockNumber ?? latest
      const at = (chain.block(height)?.blockTimestamp ?? chain.now())
      return nativeBalanceJson(chain, chain.nativeBalance(address, height), currency, at)
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/blocks",
    seedRoute: 10,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const latest = chain.latest()
      // the cursor is the last height returned; blocks revealed later never enter a listing already under way
      const page = pageOf(ctx, STANDARD, (cursor, limit): CursorPage<Record<string, unknown>> => {
        const after = cursorNumber(cursor)
        const top = after === undefined ? latest : Math.min(after - 1, latest)
        const bottom = Math.max(0, top - limit + 1)
        const items = []
        for (let h = top; h >= bottom; h--) items.push(blockJson(chain.blockAt(h)))
        return bottom > 0 ? { items, nextCursor: String(bottom) } : { items }
      })
      return { ...tokenField(page.nextPageToken), blocks: page.items }
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/transactions/{txHash}",
    seedRoute: 11,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const hash = ctx.params.txHash ?? ""
      if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw badRequest(`txHash must be a 0x-prefixed 32-byte hex hash (got "${hash}")`)
      const tx = chain.transaction(hash)
      if (!tx) throw notFound(`transaction ${hash} not found on chain ${chain.info.evmChainId}`)
      return transactionJson(chain, tx)
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}",
    seedRoute: 15,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const address = addressParam(ctx)
      const tokenId = ctx.params.tokenId ?? ""
      if (!/^\d{1,78}$/.test(tokenId)) throw badRequest(`tokenId must be a non-negative integer (got "${tokenId}")`)
      const token = chain.token(address)
      if (!token || token.ercType === "ERC-20") throw notFound(`no ERC-721 or ERC-1155 collection at ${address} on chain ${chain.info.evmChainId}`)
      const nft = chain.nftToken(address, BigInt(tokenId))
      if (!nft) throw notFound(`token ${tokenId} of collection ${address} does not exist (not minted)`)
      return nftTokenJson(nft)
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/addresses/{address}",
    seedRoute: 16,
    handle: (ctx) => {
      const chain = chainParam(ctx)
      const address = addressParam(ctx)
      const c = chain.contract(address)
      if (!c) throw notFound(`no contract deployed at ${address} on chain ${chain.info.evmChainId}`)
      return contractJson(c)
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}",
    seedRoute: 17,
    handle: (ctx) => chainInfoJson(chainParam(ctx))
  }
]
