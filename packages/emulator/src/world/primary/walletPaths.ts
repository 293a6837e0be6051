/**
 * The key paths of a wallet's stream draws, hashed once a wallet: a stream event's draws are
 * `ctx.unit(tag, chain, wallet, e, …)`, and the path up to the wallet is the same for all of them
 * (rng.ts: hash32(seed, ...keys, k) = hashKey(hash32(seed, ...keys), k)). The next events' spends
 * draw several tags of ten earlier events a tx, and each draw hashed its tag, chain and wallet
 * again; from the held path only the event (and output) is hashed.
 */
import type { NetCtx } from "./context.ts"
import { hashKey, intOfUnit, unitOfHash } from "../rng.ts"
import type { StreamChain } from "./walletStreams.ts"

/** The tags drawn from held paths (walletStreams.ts, walletOutputs.ts). */
export const PATH_TAGS = ["jitter", "type", "n-out", "lock", "spend", "offset"] as const
export type PathTag = (typeof PATH_TAGS)[number]

export class WalletPaths {
  /** By chain and tag, by wallet (NaN: not hashed yet). */
  private readonly held: Record<StreamChain, Record<PathTag, Float64Array>>

  constructor(
    private readonly ctx: NetCtx,
    wallets: number
  ) {
    const tags = () => Object.fromEntries(PATH_TAGS.map((t) => [t, new Float64Array(wallets).fill(Number.NaN)])) as Record<PathTag, Float64Array>
    this.held = { P: tags(), X: tags() }
  }

  /** The hash of the path (tag, chain, w). */
  path(tag: PathTag, chain: StreamChain, w: number): number {
    const held = this.held[chain][tag]
    const v = held[w]
    if (v !== undefined && !Number.isNaN(v)) return v
    const h = this.ctx.path(tag, chain, w)
    if (w === (w | 0) && w >= 0 && w < held.length) held[w] = h
    return h
  }

  /** ctx.unit(tag, chain, w, e). */
  unit(tag: PathTag, chain: StreamChain, w: number, e: number): number {
    return unitOfHash(hashKey(this.path(tag, chain, w), e))
  }

  /** ctx.unit(tag, chain, w, e, o). */
  unitOf(tag: PathTag, chain: StreamChain, w: number, e: number, o: number): number {
    return unitOfHash(hashKey(hashKey(this.path(tag, chain, w), e), o))
  }

  /** ctx.int(lo, hi, tag, chain, w, e). */
  int(lo: number, hi: number, tag: PathTag, chain: StreamChain, w: number, e: number): number {
    return intOfUnit(lo, hi, this.unit(tag, chain, w, e))
  }
}
