/**
 * UTXOs of addresses outside the world's wallets: the parties of background traffic, and the
 * counterparties that fund wallet txs and receive their change. They are not indexed; each such
 * address is a locator (Kind.ExternalAddress) naming the one tx that pays it, so its UTXOs are found
 * by regenerating that tx. Without this, their outputs would be accepted outputs no getUTXOs lists.
 *
 * Locators (see chain.ts and wallets.ts):
 * - background party: a = 2^26 + height, b = 4 × slot + n (+2 on the X-chain); n 0 funds the tx
 *   and takes its change, n 1 receives its payment;
 * - wallet counterparty: a = wallet, b = event + 100,000 × k; k 0 funds the event's tx (its
 *   external inputs) and takes its first external change output, k > 0 the later ones. The same
 *   event index exists on both chains, so both are looked at.
 */
import type { Chain } from "./chain.ts"
import type { NetCtx, PxChain } from "./context.ts"
import { Kind } from "./ids.ts"
import type { TxRecord, UtxoRecord } from "./types.ts"
import type { Wallets } from "./wallets.ts"

const BACKGROUND = 2 ** 26
/** From here on, a's are L1 funding addresses (l1Txs.ts): inputs from genesis allocations only. */
const L1_FUNDING = 2 ** 27
const EVENT_SPAN = 100_000

export class ExternalOwners {
  constructor(
    private readonly ctx: NetCtx,
    private readonly wallets: Wallets,
    private readonly chains: Readonly<Record<PxChain, Chain>>
  ) {}

  /** The txs that may pay or spend from `address`, revealed at `now`; [] for other addresses. */
  private txsOf(address: Uint8Array, now: number): TxRecord[] {
    const loc = this.ctx.locateShort(address)
    if (loc?.kind !== Kind.ExternalAddress || loc.a >= L1_FUNDING) return []
    if (loc.a >= BACKGROUND) {
      const chain: PxChain = loc.b % 4 < 2 ? "P" : "X"
      const height = loc.a - BACKGROUND
      if (height > this.chains[chain].height(now)) return []
      const tx = this.chains[chain].backgroundTx(height, Math.floor(loc.b / 4))
      return tx ? [tx] : []
    }
    if (loc.a >= this.wallets.count) return []
    const e = loc.b % EVENT_SPAN
    return (["P", "X"] as const)
      .map((chain) => this.wallets.event(loc.a, chain, e))
      .filter((ev) => this.ctx.blockAt(ev.chain, ev.time).timestamp <= now)
      .map((ev) => this.wallets.tx(ev))
  }

  /** Every output (spent or not) owned by `address` that its txs created or consumed. */
  utxos(address: Uint8Array, now: number): UtxoRecord[] {
    const hex = Buffer.from(address).toString("hex")
    const owned = (u: UtxoRecord): boolean => u.owners.addresses.some((a) => Buffer.from(a).toString("hex") === hex)
    return this.txsOf(address, now).flatMap((tx) => [...tx.inputs, ...tx.outputs].filter(owned))
  }
}
