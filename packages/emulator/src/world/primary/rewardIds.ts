/**
 * The served ids of the staking schedule's RewardValidatorTxs, by reward index (rewardIndex.ts).
 * Since Banff each is the one tx of a proposal block, so they are two fifths of a P-chain's blocks
 * and more, and a RewardValidatorTx's bytes are the served id of the staker add it rewards and
 * nothing else (codec/directTx.ts). So hashing the chain makes them from that id alone, without
 * the tx's record, its world id or its cb58 text, and keeps them as bytes in order of their
 * rewards, as blocks are kept by height (blockIdStore.ts), apart from the other txs' (txIdStore.ts,
 * keyed by locator). A served id is told back to its world id by the same table.
 */
import { sha256 } from "../cb58.ts"
import { BlockIdStore } from "./blockIdStore.ts"
import { rewardTxBytes } from "./codec/directTx.ts"
import { Kind, type Locator } from "./ids.ts"
import type { PrimaryNetwork } from "./network.ts"
import { VALIDATION } from "./rewardIndex.ts"

export class RewardIds {
  /** Served ids of rewards 0 … count-1 (the store's "heights" are reward indexes here). */
  private readonly ids = new BlockIdStore()

  constructor(private readonly net: PrimaryNetwork) {}

  /** Rewards hashed so far: 0 … count-1. */
  get count(): number {
    return this.ids.count
  }

  /** The world id of the staker add reward r closes. */
  rewardedOf(r: number): string {
    return this.net.stakingTxs.rewardedTxIdOf(this.net.ctx.rewardRef(r))
  }

  /**
   * The locator of the staker add reward r closes, as rewardedOf names it (stakingTxs.ts
   * rewardedTxIdOf), without making its id: hashing a proposal block needs only the served id
   * of that tx, which the served ids keep by locator, and an old staker's id is no longer in the
   * context's memo (three sha256 and a base58 to make again).
   */
  rewardedLocatorOf(r: number): Locator {
    const ref = this.net.ctx.rewardRef(r)
    return ref.k === VALIDATION ? { kind: Kind.Validation, a: ref.i, b: ref.j, c: 0 } : { kind: Kind.Delegation, a: ref.i, b: ref.j, c: ref.k }
  }

  /**
   * Reward r's signed bytes from the served id of the tx it rewards, its served id recorded
   * (rewards are hashed in their order, as their proposal blocks are).
   */
  hash(r: number, rewarded: Uint8Array): Uint8Array {
    if (r !== this.ids.count) throw new Error(`reward ${r} hashed out of order (${this.ids.count} are)`)
    const bytes = rewardTxBytes(rewarded)
    this.ids.push(sha256(bytes))
    return bytes
  }

  /** The world id of the hashed reward whose served id is `id`, if one is. */
  worldIdOf(id: string): string | undefined {
    const r = this.ids.heightOf(id)
    return r === undefined ? undefined : this.net.stakingTxs.rewardTxIdOf(this.net.ctx.rewardRef(r))
  }
}
