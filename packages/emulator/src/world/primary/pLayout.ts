/**
 * Which block sits at each P-chain height, and its time, as arithmetic over three parts:
 *
 * - the archive (archive.ts): heights 0 … A-1, from the real genesis through the Apricot era into
 *   Banff, built once as a short list of blocks;
 * - main slots: the world's own history (Timeline), one BanffStandardBlock per slot m holding the
 *   txs timed in the slot's window;
 * - reward pairs: since Banff a RewardValidatorTx is the one tx of a BanffProposalBlock, followed by
 *   its BanffCommitBlock (vms/platformvm/block/proposal_block.go, commit_block.go). The r-th reward
 *   of the staking schedule (rewardIndex.ts), timed at e inside slot m's window, sits right after
 *   slot m's block: proposal at A + m + 2r + 1, commit at A + m + 2r + 2, both timed e.
 *
 * So slot m is at height A + m + 2·R(T(m)), R(t) counting the rewards timed before t. A height maps
 * back by a binary search over slots. Times never decrease with height, as a chain's do.
 */
import type { RewardIndex } from "./rewardIndex.ts"
import type { Timeline } from "./timeline.ts"

export type PSlot =
  | { readonly kind: "archive"; readonly index: number }
  | { readonly kind: "main"; readonly slot: number }
  | { readonly kind: "proposal" | "commit"; readonly reward: number }

/** What pLayout needs of the archive: how many blocks it has and when each was made. */
export interface ArchiveTimes {
  readonly length: number
  time(index: number): number
}

/** A main slot and the heights it spans up to the next slot's. */
interface Span {
  readonly slot: number
  readonly lo: number
  readonly hi: number
}

export class PLayout {
  /**
   * The two spans `at` found last, the latest first. Walks go height by height, and between their
   * steps the records built on the way ask for far heights (a staker's reward block, its block
   * refs' times): with one span each such ask made the walk's next step search again.
   */
  private recent: [Span | undefined, Span | undefined] = [undefined, undefined]

  constructor(
    /** The main slots' times. */
    readonly main: Timeline,
    private readonly archive: () => ArchiveTimes,
    private readonly rewards: () => RewardIndex
  ) {}

  private get a(): number {
    return this.archive().length
  }

  /** Height of main slot m. */
  heightOfSlot(m: number): number {
    return this.a + m + 2 * this.rewards().countBefore(this.main.time(m))
  }

  /** Height of the proposal block of the r-th reward (its commit block is the next height). */
  rewardHeight(r: number): number {
    const slot = this.main.heightAt(this.rewards().at(r).time)
    return this.a + slot + 2 * r + 1
  }

  /** What sits at height h (h ≥ 0). */
  at(h: number): PSlot {
    const a = this.a
    if (h < a) return { kind: "archive", index: h }
    const span = this.spanOf(h)
    const offset = h - span.lo
    if (offset === 0) return { kind: "main", slot: span.slot }
    const reward = this.rewards().countBefore(this.main.time(span.slot)) + Math.floor((offset - 1) / 2)
    return { kind: offset % 2 === 1 ? "proposal" : "commit", reward }
  }

  /** The span of the last slot whose height is ≤ h (h past the archive). */
  private spanOf(h: number): Span {
    const [latest, before] = this.recent
    if (latest !== undefined && h >= latest.lo && h < latest.hi) return latest
    if (before !== undefined && h >= before.lo && h < before.hi) {
      this.recent = [before, latest]
      return before
    }
    // a walk's next slot starts where the last one ended
    const next = latest !== undefined && h === latest.hi
    const slot = next ? latest.slot + 1 : this.slotOf(h)
    const span = { slot, lo: next ? h : this.heightOfSlot(slot), hi: this.heightOfSlot(slot + 1) }
    this.recent = [span, latest]
    return span
  }

  /** The last slot whose height is ≤ h (h past the archive): heights grow with slots, and slot m's is ≥ A + m. */
  private slotOf(h: number): number {
    let lo = 0
    let hi = h - this.a
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      if (this.heightOfSlot(mid) <= h) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Block time of height h. */
  time(h: number): number {
    const s = this.at(h)
    if (s.kind === "archive") return this.archive().time(s.index)
    if (s.kind === "main") return this.main.time(s.slot)
    return this.rewards().at(s.reward).time
  }

  /** Time of the r-th reward's proposal and commit blocks: the reward's (time(h) of their heights). */
  rewardTime(r: number): number {
    return this.rewards().at(r).time
  }

  get genesisTime(): number {
    return this.a > 0 ? this.archive().time(0) : this.main.genesisTime
  }

  /** Time of the world's own first block (main slot 0). */
  get mainGenesisTime(): number {
    return this.main.genesisTime
  }

  /** The highest height whose time is ≤ t (the last block revealed at t), or -1 before genesis. */
  heightAt(t: number): number {
    const m = this.main.heightAt(t)
    if (m < 0) return this.archiveHeightAt(t)
    const rewards = this.rewards()
    return this.heightOfSlot(m) + 2 * (rewards.countThrough(t) - rewards.countBefore(this.main.time(m)))
  }

  /** The block of main slot that holds something (not a reward) timed at t; before the world's history, the block revealed then. */
  mainAt(t: number): number {
    const m = this.main.heightAt(t)
    return m < 0 ? Math.max(0, this.archiveHeightAt(t)) : this.heightOfSlot(m)
  }

  /** The time of block mainAt(t), without the slot's height (a binary search over the rewards). */
  mainTimeAt(t: number): number {
    const m = this.main.heightAt(t)
    return m < 0 ? this.time(Math.max(0, this.archiveHeightAt(t))) : this.main.time(m)
  }

  private archiveHeightAt(t: number): number {
    const archive = this.archive()
    let h = -1
    while (h + 1 < archive.length && archive.time(h + 1) <= t) h++
    return h
  }
}
