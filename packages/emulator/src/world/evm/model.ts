/**
 * The generative core of one chain: spec, block times, transaction counts, the role layout and
 * address hex forms. Higher layers (tokens.ts, txgen.ts, chain.ts) build records from it.
 */
import { checksumAddress, ZERO_ADDRESS } from "./encoding.ts"
import { h32, saltOf } from "./hash.ts"
import { decodeAddress, encodeAddress } from "./ids.ts"
import { Layout } from "./layout.ts"
import { Lru } from "./lru.ts"
import { AddressKind, kindOf, indexOf, ref, type Ref } from "./refs.ts"
import type { ChainSpec } from "./spec.ts"
import { Timeline } from "./timeline.ts"
import { TxCounts } from "./txCount.ts"

export class ChainModel {
  readonly salt: number
  readonly timeline: Timeline
  readonly counts: TxCounts
  readonly layout: Layout
  private readonly hexCache = new Lru<Ref, string>(4096)

  constructor(
    readonly seed: number,
    readonly spec: ChainSpec,
    scale: number,
    /** The clock's time when the world was made: the chain's history ends there. */
    anchorTime: number
  ) {
    this.salt = saltOf(seed, "chain", spec.ordinal)
    // blocks grow linearly with scale: first denser (down to 2 s apart), then further back in time
    const gap = Math.max(2, Math.round(spec.gapAtScale1 / scale))
    const blocks = Math.max(10, Math.round(spec.blocksAtScale1 * scale))
    this.timeline = new Timeline(saltOf(seed, "time", spec.ordinal), anchorTime - blocks * gap, gap)
    this.counts = new TxCounts(saltOf(seed, "txcount", spec.ordinal), {
      mean: spec.txMean,
      daily: spec.txDaily,
      weekly: spec.txWeekly,
      noise: spec.txNoise,
      blocksPerDay: 86_400 / gap,
      phase: (h32(this.salt, 1) / 2 ** 32) * 2 * Math.PI
    })
    this.layout = new Layout(seed, spec.ordinal, spec.systems.length, spec.genesisAccounts)
  }

  /** Salt for one purpose within this chain. */
  sub(label: string): number {
    return saltOf(this.salt, label)
  }

  /** EIP-55 hex of an address reference. */
  hex(r: Ref): string {
    if (r === 0) return ZERO_ADDRESS
    let h = this.hexCache.get(r)
    if (h === undefined) {
      h = checksumAddress(encodeAddress(this.salt, kindOf(r), indexOf(r)))
      this.hexCache.set(r, h)
    }
    return h
  }

  /** The reference behind a hex address, if this chain issued it (existence is checked elsewhere). */
  refOf(address: string): Ref | undefined {
    if (/^0x0{40}$/.test(address)) return 0
    const d = decodeAddress(this.salt, address.toLowerCase())
    if (!d || d.kind < AddressKind.faucet || d.kind > AddressKind.created) return undefined
    return ref(d.kind as 1 | 2 | 3 | 4 | 5, d.index)
  }

  /** Global number of the first transaction in which the address appears, or undefined if never. */
  firstTxOf(r: Ref): number | undefined {
    const i = indexOf(r)
    switch (kindOf(r)) {
      case AddressKind.zero:
      case AddressKind.faucet:
        return 0
      case AddressKind.system:
        return i < this.spec.systems.length ? i : undefined
      case AddressKind.account:
        return this.layout.accountTx(i)
      case AddressKind.deployer:
        return this.layout.deployerFirstTx(i)
      case AddressKind.created:
        return this.layout.creationTx(i)
    }
  }

  /** Global number of the last transaction at or before height h (−1 when none). */
  lastTxAt(h: number): number {
    return this.counts.total(h) - 1
  }

  /** Global number of the last transaction whose block time is ≤ t. */
  lastTxAtTime(t: number): number {
    const h = this.timeline.latestAt(t)
    return h < 0 ? -1 : this.lastTxAt(h)
  }
}
