/** Request parameters of the EVM and metrics routes: parse or answer 400/404 with a message that explains. */
import { HttpError, type RequestContext } from "../../../http/contract.ts"
import type { EvmChain } from "../chain.ts"

export const badRequest = (message: string): HttpError => new HttpError(400, message)
export const notFound = (message: string): HttpError => new HttpError(404, message)

/** A chain by EVM chain id or blockchain id (chain-data routes). */
export const chainParam = (ctx: RequestContext): EvmChain => {
  const id = ctx.params.chainId ?? ""
  const chain = ctx.world.evm.chain(id)
  if (!chain) throw notFound(`chain ${id} is not supported: use one of ${ctx.world.evm.chains().map((c) => c.info.evmChainId).join(", ")} or their blockchain ids`)
  return chain
}

/** A chain by EVM chain id only (metrics routes). */
export const metricsChainParam = (ctx: RequestContext): EvmChain => {
  const id = ctx.params.chainId ?? ""
  const chain = ctx.world.evm.chains().find((c) => c.info.evmChainId === id)
  if (!chain) throw notFound(`chain ${id} is not supported: use one of the EVM chain ids ${ctx.world.evm.chains().map((c) => c.info.evmChainId).join(", ")}`)
  return chain
}

export const addressParam = (ctx: RequestContext, name = "address"): string => {
  const a = ctx.params[name] ?? ""
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw badRequest(`${name} must be a 0x-prefixed 20-byte hex address (got "${a}")`)
  return a
}

/** An optional non-negative integer query parameter as bigint (block numbers). */
export const optionalBigQuery = (ctx: RequestContext, name: string): bigint | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null || raw === "") return undefined
  if (!/^\d{1,30}$/.test(raw)) throw badRequest(`${name} must be a non-negative integer (got "${raw}")`)
  return BigInt(raw)
}

/** An optional Unix timestamp in seconds (integer >= 0). */
export const optionalTimestamp = (ctx: RequestContext, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null || raw === "") return undefined
  if (!/^\d{1,12}$/.test(raw)) throw badRequest(`${name} must be an integer >= 0 (Unix seconds), got "${raw}"`)
  return Number(raw)
}

/** startTimestamp/endTimestamp, with start ≤ end. */
export const timeRange = (ctx: RequestContext): { start?: number; end?: number } => {
  const start = optionalTimestamp(ctx, "startTimestamp")
  const end = optionalTimestamp(ctx, "endTimestamp")
  if (start !== undefined && end !== undefined && start > end) throw badRequest(`startTimestamp (${start}) must not be after endTimestamp (${end})`)
  return { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) }
}
