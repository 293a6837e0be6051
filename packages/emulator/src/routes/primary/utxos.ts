/**
 * Routes 2 and 3: UTXOs of an address set on one primary-network chain. P-chain listings use the
 * document's PChainUtxo shape, X- and C-chain listings its Utxo shape. The world models no C-chain
 * atomic UTXOs, so a c-chain listing is always empty.
 */
import type { RequestContext, RouteDef } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import { PAGE_SPECS, pageOf, tokenField } from "../../http/pagination.ts"
import type { UtxoRecord } from "../../world/primary/index.ts"
import { fromCb58 } from "../../world/primary/ids.ts"
import { amountKey, keysetPage, type Key } from "./keyset.ts"
import { chainName, parseAddresses, readBoolean, readChain, readEnum, readList, readNetwork, readNonNegativeAmount, readSortOrder } from "./params.ts"
import { pChainUtxo, xChainUtxo } from "./wire.ts"

/** Addresses per request: the seed says only that the POST route takes more than the GET route. */
export const ADDRESS_LIMITS = { get: 64, post: 256 } as const

const bodyAddresses = (ctx: RequestContext): string[] => {
  const body = ctx.body
  const raw = typeof body === "object" && body !== null ? (body as Record<string, unknown>).addresses : undefined
  if (raw === undefined) throw badRequest("addresses is required in the JSON body (a comma-separated string of addresses)")
  if (typeof raw !== "string") throw badRequest("addresses must be a string of comma-separated addresses")
  return raw
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a.length > 0)
}

const listUtxos = (ctx: RequestContext, variant: "get" | "post"): unknown => {
  const { param, net } = readNetwork(ctx)
  const chain = readChain(ctx, net, ["P", "X", "C"])
  const raw = variant === "get" ? readList(ctx, "addresses") : bodyAddresses(ctx)
  if (raw.length === 0) throw badRequest("addresses is required: a comma-separated list of primary-network addresses")
  if (raw.length > ADDRESS_LIMITS[variant]) throw badRequest(`at most ${ADDRESS_LIMITS[variant]} addresses per request on this route (got ${raw.length})`)
  const addresses = parseAddresses(net, raw, "addresses", [chain])
  const assetId = ctx.query.get("assetId")
  if (assetId !== null && chain !== "X") throw badRequest("assetId applies to the X-chain only")
  if (assetId !== null && fromCb58(assetId)?.length !== 32) throw badRequest(`assetId must be a cb58 asset id (got "${assetId}")`)
  const minAmount = readNonNegativeAmount(ctx, "minUtxoAmount") ?? 0n
  const includeSpent = readBoolean(ctx, "includeSpent") ?? false
  const sortBy = readEnum(ctx, "sortBy", ["timestamp", "amount"] as const) ?? "timestamp"
  const order = readSortOrder(ctx)
  const now = net.now()
  const all: ReadonlyArray<UtxoRecord> =
    chain === "C" ? [] : net.utxos(chain, addresses, { view: "rest", includeSpent }).filter((u) => u.amount >= minAmount && (assetId === null || u.assetId === assetId))
  const keyOf = (u: UtxoRecord): Key => [sortBy === "amount" ? amountKey(u.amount) : u.created.timestamp, u.txId, u.outputIndex]
  const spec = variant === "get" ? PAGE_SPECS.standard : PAGE_SPECS.utxosV2
  const page = pageOf(ctx, spec, (cursor, limit) => keysetPage(all, keyOf, order, cursor, limit))
  const shape = chain === "P" ? pChainUtxo : xChainUtxo
  return {
    ...tokenField(page.nextPageToken),
    utxos: page.items.map((u) => shape(net, u, now)),
    chainInfo: { chainName: chainName(chain), network: param }
  }
}

export const utxoRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "POST",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
    seedRoute: 2,
    handle: (ctx) => listUtxos(ctx, "post")
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/utxos",
    seedRoute: 3,
    handle: (ctx) => listUtxos(ctx, "get")
  }
]
