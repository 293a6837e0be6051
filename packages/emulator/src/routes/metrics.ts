/**
 * The metrics service's EVM routes (seed routes 5, 14, 18, 19), computed from the EVM world.
 *
 * Ordering: metric points newest first (timestamp descending), as the official examples list
 * them; holders by sortKey descending, ties by address. Route 19 returns the daily avgTps series
 * (the same values as route 5's avgTps/day), newest first, 100 points a page: the seed names no
 * page size for it and takes no pageSize parameter. All tokens are UUIDs kept server-side.
 */
import type { CursorPage, PageSpec, RouteDef } from "../http/contract.ts"
import { issuePageToken, pageOf, readPageCursor, tokenField } from "../http/pagination.ts"
import type { EvmChain } from "../world/evm/chain.ts"
import { type ChainGroup, dayOnly, isMetric, metricPoints, seriesRange, TIME_INTERVALS, type TimeInterval } from "../world/evm/index.ts"
import type { Holder } from "../world/evm/types.ts"
import { addressParam, badRequest, metricsChainParam, notFound, timeRange } from "../world/evm/wire/params.ts"

/** Seed Limits: metrics route 100 / 2160; holder and balance-threshold routes 1000 / 5000. */
const METRICS: PageSpec = { defaultSize: 100, maxSize: 2160, tokenKind: "uuid" }
const HOLDERS: PageSpec = { defaultSize: 1000, maxSize: 5000, tokenKind: "uuid" }
/** Route 19: fixed page (see the header). */
const AVG_TPS: PageSpec = { defaultSize: 100, maxSize: 100, tokenKind: "uuid" }

const GROUPS: ReadonlyArray<ChainGroup> = ["total", "mainnet", "testnet"]

const timestampCursor = (cursor: string | undefined): number | undefined => {
  if (cursor === undefined) return undefined
  if (!/^\d{1,12}$/.test(cursor)) throw badRequest("invalid page token: cursor is not a timestamp")
  return Number(cursor)
}

/** Holders keyset: the last (amount, address) returned; the next page starts strictly after it. */
const holderPage = (holders: ReadonlyArray<Holder>, cursor: string | undefined, limit: number): CursorPage<Holder> => {
  let start = 0
  if (cursor !== undefined) {
    const m = /^(\d+):(0x[0-9a-fA-F]{40})$/.exec(cursor)
    if (!m) throw badRequest("invalid page token: cursor is not a holder position")
    const amount = BigInt(m[1] as string)
    const address = (m[2] as string).toLowerCase()
    const after = (h: Holder): boolean => h.amount < amount || (h.amount === amount && h.address.toLowerCase() > address)
    start = holders.findIndex(after)
    if (start < 0) start = holders.length
  }
  const items = holders.slice(start, start + limit)
  const last = items[items.length - 1]
  return start + items.length < holders.length && last ? { items, nextCursor: `${last.amount}:${last.address}` } : { items }
}

/** Seed: Holder {address, sortKey integer}: an exact integer literal, however large the balance. */
const holderJson = (h: Holder) => ({ address: h.address, sortKey: h.amount })

const withToken = <T extends object>(body: T, token: string | undefined): T & { nextPageToken?: string } => ({ ...body, ...tokenField(token) })

export const routes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "metrics",
    path: "/v2/chains/{chainId}/metrics/{metric}",
    seedRoute: 5,
    handle: (ctx) => {
      const id = ctx.params.chainId ?? ""
      const chains: ReadonlyArray<EvmChain> = (GROUPS as ReadonlyArray<string>).includes(id) ? ctx.world.evm.group(id as ChainGroup) : [metricsChainParam(ctx)]
      const metric = ctx.params.metric ?? ""
      if (!isMetric(metric)) throw badRequest(`metric must be one of the ChainMetric values (got "${metric}")`)
      const rawInterval = ctx.query.get("timeInterval") ?? "day"
      if (!(TIME_INTERVALS as ReadonlyArray<string>).includes(rawInterval)) throw badRequest(`timeInterval must be one of hour, day, week, month (got "${rawInterval}")`)
      const interval = rawInterval as TimeInterval
      if (dayOnly(metric) && interval !== "day") {
        throw badRequest(`metric ${metric} supports only timeInterval=day: metrics prefixed with cumulative, max or avg, and contracts, deployers, feesPaid are daily only`)
      }
      const { start, end } = timeRange(ctx)
      const range = seriesRange(chains, interval, ctx.clock.now(), start, end)
      const page = pageOf(ctx, METRICS, (cursor, limit) => {
        const { points, more } = metricPoints(chains, metric, interval, range, timestampCursor(cursor), limit)
        const items = points.map((p) => ({ value: Number(p.value), timestamp: p.timestamp }))
        const last = points[points.length - 1]
        return more && last ? { items, nextCursor: String(last.timestamp) } : { items }
      })
      return withToken({ results: page.items }, page.nextPageToken)
    }
  },
  {
    method: "GET",
    host: "metrics",
    path: "/v2/chains/{chainId}/contracts/{address}/balances",
    seedRoute: 14,
    handle: (ctx) => {
      const chain = metricsChainParam(ctx)
      const address = addressParam(ctx)
      const raw = ctx.query.get("threshold")
      if (raw === null || raw === "") throw badRequest("threshold is required: the minimum balance, in the token's base units, as a decimal string")
      if (!/^\d{1,80}$/.test(raw)) throw badRequest(`threshold must be a non-negative integer in the token's base units (got "${raw}")`)
      const { start, end } = timeRange(ctx)
      const holders = chain.holdersAbove(address, BigInt(raw), start ?? 0, end ?? chain.now())
      if (!holders) throw notFound(`no token contract at ${address} on chain ${chain.info.evmChainId}`)
      const page = pageOf(ctx, HOLDERS, (cursor, limit) => holderPage(holders, cursor, limit))
      return withToken({ addresses: page.items.map(holderJson) }, page.nextPageToken)
    }
  },
  {
    method: "GET",
    host: "metrics",
    path: "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders",
    seedRoute: 18,
    handle: (ctx) => {
      const chain = metricsChainParam(ctx)
      const address = addressParam(ctx)
      const nft = chain.nftHolders(address)
      if (!nft) throw notFound(`no ERC-721 or ERC-1155 collection at ${address} on chain ${chain.info.evmChainId}`)
      const page = pageOf(ctx, HOLDERS, (cursor, limit) => holderPage(nft.holders, cursor, limit))
      return withToken(
        {
          addresses: page.items.map(holderJson),
          nftCollectionName: nft.name,
          nftSymbol: nft.symbol,
          totalHolders: nft.totalHolders,
          totalTokens: nft.totalTokens
        },
        page.nextPageToken
      )
    }
  },
  {
    method: "GET",
    host: "metrics",
    path: "/v1/avg_tps/{chainId}",
    seedRoute: 19,
    handle: (ctx) => {
      const chain = metricsChainParam(ctx)
      const range = seriesRange([chain], "day", ctx.clock.now())
      const { points, more } = metricPoints([chain], "avgTps", "day", range, timestampCursor(readPageCursor(ctx, AVG_TPS)), AVG_TPS.defaultSize)
      const last = points[points.length - 1]
      const body = {
        results: points.map((p) => ({ timestamp: p.timestamp, value: Number(p.value) })),
        status: 200,
        lastRun: ctx.clock.now()
      }
      return more && last ? { ...body, nextPageToken: issuePageToken(ctx, AVG_TPS, String(last.timestamp)) } : body
    }
  }
]
