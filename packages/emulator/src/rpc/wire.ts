/**
 * What the node puts on the wire: the service replies' uint64 quantities as decimal strings (seed:
 * Conventions), and the network a request addressed. (Blocks and txs: world/primary/codec/encodings.ts.)
 */
import type { RpcContext } from "../http/contract.ts"
import type { PrimaryNetwork } from "../world/primary/index.ts"

/** A bigint is a uint64 the node writes as a JSON number (block and tx json): sent as its exact digits. */
export type Wire = string | number | bigint | boolean | null | ReadonlyArray<Wire> | { readonly [k: string]: Wire }

/** A world value with every bigint written as its decimal string. */
export const toWire = (v: unknown): Wire => {
  if (typeof v === "bigint") return v.toString()
  if (v === null || v === undefined) return null
  if (Array.isArray(v)) return v.map(toWire)
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, toWire(x)]))
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v
  throw new TypeError(`cannot put a ${typeof v} on the wire`)
}


/** The primary network the request's endpoint belongs to. */
export const networkOf = (ctx: RpcContext): PrimaryNetwork => ctx.world.primary.network(ctx.network)
