/**
 * Reading the primary-network routes' parameters the way the document declares them (enums,
 * integer minimums, booleans, comma-separated lists); anything else is a 400 whose message says
 * which parameter and what was expected.
 */
import { HttpError, type RequestContext } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"
import type { ChainLetter, PrimaryNetwork } from "../../world/primary/index.ts"
import { nodeIdBytes, parseAddress } from "../../world/primary/ids.ts"

export type NetworkParam = "mainnet" | "fuji" | "testnet"

export const NETWORKS: ReadonlyArray<NetworkParam> = ["mainnet", "fuji", "testnet"]

export const notFound = (detail: string): HttpError => new HttpError(404, detail)

export interface NetworkRef {
  readonly param: NetworkParam
  readonly net: PrimaryNetwork
}

/** The {network} path parameter (enum mainnet | fuji | testnet; testnet is fuji). */
export const readNetwork = (ctx: RequestContext): NetworkRef => {
  const param = ctx.params.network as NetworkParam
  if (!NETWORKS.includes(param)) throw badRequest(`network must be one of ${NETWORKS.join(", ")} (got "${ctx.params.network}")`)
  return { param, net: ctx.world.primary.network(param) }
}

/** {blockchainId}: an alias (p-chain, x-chain, c-chain) or a primary-network blockchain id of this network. */
export const readChain = (ctx: RequestContext, net: PrimaryNetwork, allowed: ReadonlyArray<ChainLetter>): ChainLetter => {
  const raw = ctx.params.blockchainId ?? ""
  const chain = net.chainOf(raw)
  const aliases = allowed.map((c) => `${c.toLowerCase()}-chain`)
  if (chain === undefined || raw.length === 1 || !allowed.includes(chain)) {
    throw badRequest(`blockchainId must be one of ${[...aliases, ...allowed.map((c) => net.blockchainIds[c])].join(", ")} on ${net.name} (got "${raw}")`)
  }
  return chain
}

export const chainName = (c: ChainLetter): "p-chain" | "x-chain" | "c-chain" => (c === "P" ? "p-chain" : c === "X" ? "x-chain" : "c-chain")

/** Optional integer query parameter ≥ 0. */
export const readNonNegativeInt = (ctx: RequestContext, name: string): number | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  if (!/^\d{1,15}$/.test(raw)) throw badRequest(`${name} must be an integer >= 0 (got "${raw}")`)
  return Number(raw)
}

/** Optional number ≥ 0 (decimal digits, optionally with a fraction), as a bigint floor. */
export const readNonNegativeAmount = (ctx: RequestContext, name: string): bigint | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  const m = /^(\d{1,30})(\.\d*)?$/.exec(raw)
  if (!m) throw badRequest(`${name} must be a number >= 0 (got "${raw}")`)
  // an inclusive minimum of x.y nAVAX admits amounts ≥ ceil(x.y)
  const whole = BigInt(m[1] as string)
  return m[2] !== undefined && /[1-9]/.test(m[2]) ? whole + 1n : whole
}

export const readBoolean = (ctx: RequestContext, name: string): boolean | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  if (raw === "true") return true
  if (raw === "false") return false
  throw badRequest(`${name} must be true or false (got "${raw}")`)
}

export const readEnum = <T extends string>(ctx: RequestContext, name: string, values: ReadonlyArray<T>): T | undefined => {
  const raw = ctx.query.get(name)
  if (raw === null) return undefined
  if (!(values as ReadonlyArray<string>).includes(raw)) throw badRequest(`${name} must be one of ${values.join(", ")} (got "${raw}")`)
  return raw as T
}

export type SortOrder = "asc" | "desc"
export const readSortOrder = (ctx: RequestContext): SortOrder => readEnum(ctx, "sortOrder", ["asc", "desc"] as const) ?? "desc"

/** A time window from startTimestamp / endTimestamp (both inclusive); 400 when reversed. */
export const readTimeWindow = (ctx: RequestContext): { readonly start?: number; readonly end?: number } => {
  const start = readNonNegativeInt(ctx, "startTimestamp")
  const end = readNonNegativeInt(ctx, "endTimestamp")
  if (start !== undefined && end !== undefined && start > end) {
    throw badRequest(`startTimestamp (${start}) must not be after endTimestamp (${end})`)
  }
  return { ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) }
}

/** Comma-separated values of one or more occurrences of a query parameter, trimmed, empties dropped. */
export const readList = (ctx: RequestContext, name: string): string[] =>
  ctx.query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0)

/**
 * Primary-network addresses (bare "avax1…" or with a chain letter), as 20-byte ids. The hrp must
 * be the network's; a chain letter, when present, must be one of `chains`.
 */
export const parseAddresses = (net: PrimaryNetwork, raw: ReadonlyArray<string>, name: string, chains: ReadonlyArray<ChainLetter>): Uint8Array[] =>
  raw.map((a) => {
    const parsed = parseAddress(a)
    if (typeof parsed === "string") throw badRequest(`${name}: ${parsed}`)
    if (parsed.hrp !== net.hrp) throw badRequest(`${name}: "${a}" is not a ${net.name} address (expected the "${net.hrp}" prefix)`)
    if (parsed.chain !== undefined && !(chains as ReadonlyArray<string>).includes(parsed.chain)) {
      throw badRequest(`${name}: "${a}" is a ${parsed.chain}-chain address; expected ${chains.map((c) => `${c}-`).join(" or ")} or no chain prefix`)
    }
    return parsed.bytes
  })

/** A NodeID-… string, validated; 400 otherwise. */
export const checkNodeId = (raw: string, name: string): string => {
  const b = nodeIdBytes(raw)
  if (!b || b.length !== 20) throw badRequest(`${name} must be a node id of the form NodeID-<cb58> (got "${raw}")`)
  return raw
}
