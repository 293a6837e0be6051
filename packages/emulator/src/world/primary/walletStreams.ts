/**
 * When the wallets' stream events happen (wallets.ts): event e of wallet w's stream on a chain is
 * timed at first + e × interval plus a jitter under half the interval, each wallet's interval and
 * first time drawn from the seed. Both are drawn once a wallet and chain, and held in typed arrays:
 * every event's time needs them, and a block's window asks every wallet for its events.
 */
import type { NetCtx } from "./context.ts"
import { WalletPaths } from "./walletPaths.ts"

export type StreamChain = "P" | "X"
export type WalletEventType = "BaseTx" | "ExportTx"

export interface WalletEvent {
  readonly wallet: number
  readonly chain: StreamChain
  readonly e: number
  readonly time: number
  readonly type: WalletEventType
}

export class StreamTiming {
  /** Per chain, by wallet (NaN: not drawn yet). */
  private readonly held: Record<StreamChain, { readonly interval: Float64Array; readonly first: Float64Array }>
  /** The wallets' draw paths (an event's jitter and type, and its outputs' spends: walletOutputs.ts). */
  readonly paths: WalletPaths

  constructor(
    private readonly ctx: NetCtx,
    wallets: number
  ) {
    const drawn = () => ({ interval: new Float64Array(wallets).fill(Number.NaN), first: new Float64Array(wallets).fill(Number.NaN) })
    this.held = { P: drawn(), X: drawn() }
    this.paths = new WalletPaths(ctx, wallets)
  }

  interval(w: number, chain: StreamChain): number {
    return drawnOnce(this.held[chain].interval, w, () => {
      const events = chain === "P" ? this.ctx.int(14, 30, "p-events", w) : this.ctx.int(30, 70, "x-events", w)
      return Math.floor(this.ctx.cfg.spanSeconds / events)
    })
  }

  firstTime(w: number, chain: StreamChain): number {
    return drawnOnce(this.held[chain].first, w, () => this.ctx.start + Math.floor(this.ctx.unit("first", chain, w) * this.interval(w, chain)))
  }

  eventTime(w: number, chain: StreamChain, e: number): number {
    const q = this.interval(w, chain)
    return this.firstTime(w, chain) + e * q + Math.floor(this.paths.unit("jitter", chain, w, e) * (q / 2))
  }

  /** The type of event e (without its time). */
  type(w: number, chain: StreamChain, e: number): WalletEventType {
    const exportShare = chain === "P" ? 0.15 : 0.14
    return e > 0 && this.paths.unit("type", chain, w, e) < exportShare ? "ExportTx" : "BaseTx"
  }

  event(w: number, chain: StreamChain, e: number): WalletEvent {
    return { wallet: w, chain, e, time: this.eventTime(w, chain, e), type: this.type(w, chain, e) }
  }

  /** Event indices of wallet w on chain whose time lies in [from, to). */
  indicesIn(w: number, chain: StreamChain, from: number, to: number): number[] {
    const q = this.interval(w, chain)
    const first = this.firstTime(w, chain)
    const lo = Math.max(0, Math.floor((from - first) / q) - 1)
    const hi = Math.floor((to - first) / q)
    const out: number[] = []
    for (let e = lo; e <= hi; e++) {
      const t = this.eventTime(w, chain, e)
      if (t >= from && t < to) out.push(e)
    }
    return out
  }
}

/** held[w], drawn when not yet (only the world's wallets are held; any other w is drawn each time). */
const drawnOnce = (held: Float64Array, w: number, draw: () => number): number => {
  const v = held[w]
  if (v !== undefined && !Number.isNaN(v)) return v
  const drawn = draw()
  if (w === (w | 0) && w >= 0 && w < held.length) held[w] = drawn
  return drawn
}
