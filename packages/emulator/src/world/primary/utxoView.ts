/**
 * The UTXO listings of one primary network (REST routes 2/3, avm.getUTXOs, the balance methods):
 * the outputs of the wallets' streams, staking and asset txs, and of the parties outside the
 * wallets, as of now, in the node's or the indexer's view.
 */
import type { AssetTxs } from "./assetTxs.ts"
import type { ExternalOwners } from "./externalOwners.ts"
import { Lru } from "./lru.ts"
import type { PxChain } from "./network.ts"
import type { StakingTxs } from "./stakingTxs.ts"
import type { ChainLetter, UtxoRecord } from "./types.ts"
import type { Wallets } from "./wallets.ts"

export interface UtxoQuery {
  /** Also spent outputs (REST includeSpent). */
  readonly includeSpent?: boolean
  /**
   * "rest": everything the indexer shows, staked outputs included (flagged by `staking`).
   * "node": what the node's getUTXOs returns: only outputs it lists (staked ones once returned).
   */
  readonly view: "rest" | "node"
  /** Node view only: atomic UTXOs exported from this chain and not yet imported. */
  readonly sourceChain?: ChainLetter
}

export class UtxoView {
  private readonly cache = new Lru<string, UtxoRecord[]>(64)

  constructor(
    private readonly wallets: Wallets,
    private readonly stakingTxs: StakingTxs,
    private readonly assetTxs: AssetTxs,
    private readonly external: ExternalOwners,
    readonly now: () => number
  ) {}

  /** Every output of wallet w consumable on chain c and created by now (spent or not, staked or not). */
  private walletUtxos(w: number, c: PxChain): UtxoRecord[] {
    const now = this.now()
    return this.cache.get(`${w}|${c}|${now}`, () => {
      const found = [...this.wallets.utxos(w, c, now), ...(c === "P" ? this.stakingTxs.walletUtxos(w, now) : this.assetTxs.walletUtxos(w))]
      const seen = new Set<string>()
      return found.filter((u) => {
        const key = `${u.txId}:${u.outputIndex}`
        if (seen.has(key) || u.created.timestamp > now) return false
        seen.add(key)
        return true
      })
    })
  }

  /**
   * UTXOs consumable on chain c owned by any of `addresses` (20-byte short ids), as of now.
   * Order: creation block timestamp, then tx id, then output index.
   */
  utxos(c: PxChain, addresses: ReadonlyArray<Uint8Array>, q: UtxoQuery): UtxoRecord[] {
    const now = this.now()
    const wanted = new Set(addresses.map((a) => Buffer.from(a).toString("hex")))
    const wallets = new Set<number>()
    const candidates: UtxoRecord[] = []
    for (const a of addresses) {
      const w = this.wallets.walletOf(a)
      if (w !== undefined) wallets.add(w)
      // addresses outside the wallets (counterparties, background traffic) own outputs too
      else for (const u of this.external.utxos(a, now)) if (u.consumedOn === c && u.created.timestamp <= now) candidates.push(u)
    }
    for (const w of [...wallets].sort((a, b) => a - b)) candidates.push(...this.walletUtxos(w, c))
    const out: UtxoRecord[] = []
    for (const u of candidates) {
      if (!u.owners.addresses.some((a) => wanted.has(Buffer.from(a).toString("hex")))) continue
      const spent = u.spent !== undefined && u.spent.block.timestamp <= now
      if (q.view === "node") {
        if (spent) continue
        if (q.sourceChain !== undefined ? u.createdOn !== q.sourceChain || u.createdOn === c : u.createdOn !== c) continue
        if (u.listed === undefined || u.listed.timestamp > now) continue
      } else if (spent && !q.includeSpent) continue
      out.push(u)
    }
    const seen = new Set<string>()
    return out
      .filter((u) => {
        const key = `${u.txId}:${u.outputIndex}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      .sort((a, b) => a.created.timestamp - b.created.timestamp || (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : 0) || a.outputIndex - b.outputIndex)
  }
}
