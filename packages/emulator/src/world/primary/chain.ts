/**
 * A P- or X-chain as blocks. A slot of the world's timeline (Timeline.window) is one standard
 * block holding every generated tx timed inside its window, ordered by time then id, plus
 * "background" traffic between parties the world does not model, so no such block is empty. On
 * the X-chain every height is a slot. On the P-chain pLayout.ts says what each height is: an
 * archive block (archive.ts), a slot, or a reward's proposal or commit block — the slot's
 * RewardValidatorTxs are not in the slot's block but each in its own proposal block.
 * Blocks are rebuilt on demand and memoised in a small LRU.
 */
import { CORTINA_STOP_VERTEX } from "../constants.ts"
import type { NetCtx, PxChain } from "./context.ts"
import { Kind, ZERO_ID } from "./ids.ts"
import { Lru } from "./lru.ts"
import type { RewardRef } from "./rewardIndex.ts"
import { backgroundDraws, backgroundWritten } from "./backgroundTxs.ts"
import type { SelfWritten } from "./stakerAdds.ts"
import type { BlockRecord, TxRecord, UtxoRecord } from "./types.ts"

/** A tx of a block as the hashing pass takes it: a record, or a tx that writes its own bytes. */
export type HashedTx = TxRecord | SelfWritten

export interface TxSource {
  txsIn(from: number, to: number): TxRecord[]
  /** The same txs for hashing, where the source writes some without building their records. */
  hashTxsIn?(from: number, to: number): HashedTx[]
}

/** What the P-chain's reward blocks need: the reward tx of the r-th reward. */
export interface Rewards {
  rewardTx(ref: RewardRef): TxRecord
  refOf(r: number): RewardRef
}

const isReward = (t: HashedTx): boolean => t.type === "RewardValidatorTx"

const BACKGROUND_KIND: Readonly<Record<PxChain, Kind>> = { P: Kind.BackgroundPTx, X: Kind.BackgroundXTx }

/** Rough serialized size: enough for blockSizeBytes to move with content. */
const txSize = (tx: TxRecord): number =>
  90 +
  tx.inputs.length * 80 +
  (tx.imported?.utxos.length ?? 0) * 80 +
  (tx.outputs.length + (tx.stake?.length ?? 0) + (tx.exported?.utxos.length ?? 0)) * 84 +
  (tx.staking ? 200 : 0) +
  (tx.l1 ? 300 : 0)

export class Chain {
  private readonly cache = new Lru<number, ReadonlyArray<TxRecord>>(256)
  /** Slots' txs as the hashing pass takes them (hashTxs), apart: a served block needs their records. */
  private readonly hashing = new Lru<number, ReadonlyArray<HashedTx>>(256)

  constructor(
    private readonly ctx: NetCtx,
    readonly chain: PxChain,
    private readonly sources: ReadonlyArray<TxSource>,
    /** P-chain only: where its reward blocks' txs come from. */
    private readonly rewards?: Rewards
  ) {}

  get blockchainId(): string {
    return this.ctx.chainIds[this.chain]
  }

  /** Height of the last block revealed at `now` (-1 before genesis). */
  height(now: number): number {
    return this.ctx.timelines[this.chain].heightAt(now)
  }

  private background(h: number, slot: number, at: number): TxRecord {
    const { ctx } = this
    const { id, amount, change, party, funding, memo } = backgroundDraws(ctx, this.chain, h, slot)
    const fee = ctx.cfg.txFee
    const block = ctx.blockRef(this.chain, h)
    const genesis = ctx.blockRef(this.chain, 0)
    const utxo = (index: number, value: bigint, owner: 0 | 1): UtxoRecord => ({
      txId: id,
      outputIndex: index,
      assetId: ctx.avaxAssetId,
      amount: value,
      owners: ctx.owner(party(owner)),
      stakeableLocktime: 0n,
      createdOn: this.chain,
      consumedOn: this.chain,
      created: block,
      listed: block,
      spent: undefined,
      kind: "transfer"
    })
    const input: UtxoRecord = {
      ...utxo(0, amount + change + fee, 0),
      txId: ctx.id(Kind.ExternalTx, ...funding),
      created: genesis,
      listed: genesis,
      spent: { txId: id, block }
    }
    return {
      id,
      chain: this.chain,
      type: "BaseTx",
      block,
      issueTime: at,
      inputs: [input],
      outputs: [utxo(0, amount, 1), utxo(1, change, 0)],
      memo,
      burned: fee
    }
  }

  /** Orders a slot's txs and adds background traffic (always some when nothing else happened); h is the slot's height. */
  private assemble<T extends HashedTx>(h: number, from: number, found: Array<T | TxRecord>, hashing = false): ReadonlyArray<T | TxRecord> {
    const count = found.length === 0 ? 1 : this.ctx.unit("bg", this.chain, h) < 0.25 ? 1 : 0
    for (let slot = 0; slot < count; slot++) found.push(hashing ? (backgroundWritten(this.ctx, this.chain, h, slot, from + slot) as T) : this.background(h, slot, from + slot))
    return found.sort((a, b) => a.issueTime - b.issueTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }

  /** The slot's window on the world's timeline. */
  private window(slot: number): readonly [number, number] {
    return this.ctx.slotTimelines[this.chain].window(slot)
  }

  private slotTxs(slot: number, h: number): ReadonlyArray<TxRecord> {
    const [from, to] = this.window(slot)
    return this.assemble(
      h,
      from,
      this.sources.flatMap((s) => s.txsIn(from, to)).filter((t) => !isReward(t))
    )
  }

  /** A source's txs in [from, to), as hashing takes them or as records. */
  private found(s: TxSource, from: number, to: number, hashing: boolean): HashedTx[] {
    return hashing && s.hashTxsIn !== undefined ? s.hashTxsIn(from, to) : s.txsIn(from, to)
  }

  /**
   * Block h's txs in block order as the hashing pass takes them: a slot's staker adds and
   * background txs write their own bytes (stakerAdds.ts, backgroundTxs.ts); any other block's txs
   * are its records.
   */
  hashTxs(h: number): ReadonlyArray<HashedTx> {
    const slot = this.slotAt(h)
    if (slot === undefined) return this.txs(h)
    return this.hashing.get(h, () => {
      const [from, to] = this.window(slot)
      return this.assemble(h, from, this.sources.flatMap((s) => this.found(s, from, to, true)).filter((t) => !isReward(t)), true)
    })
  }

  /** All txs of block h in block order (regardless of now). */
  txs(h: number): ReadonlyArray<TxRecord> {
    return this.cache.get(h, () => {
      if (this.chain === "X") return this.slotTxs(h, h)
      const at = this.ctx.pLayout.at(h)
      switch (at.kind) {
        case "archive":
          return this.ctx.archive.block(at.index)?.txs ?? []
        case "main":
          return this.slotTxs(at.slot, h)
        case "proposal":
          return [this.rewardsOf().rewardTx(this.rewardsOf().refOf(at.reward))]
        case "commit":
          return []
      }
    })
  }

  private rewardsOf(): Rewards {
    if (this.rewards === undefined) throw new Error(`the ${this.chain}-chain has no reward blocks`)
    return this.rewards
  }

  /** The slot at height h, when h is one. */
  private slotAt(h: number): number | undefined {
    if (this.chain === "X") return h
    const at = this.ctx.pLayout.at(h)
    return at.kind === "main" ? at.slot : undefined
  }

  private heightOfSlot(slot: number): number {
    return this.chain === "X" ? slot : this.ctx.pLayout.heightOfSlot(slot)
  }

  /**
   * Builds blocks lo…hi with one pass over the sources (each pass costs about the same whatever
   * the window), so a page of blocks costs one scan instead of one per block.
   */
  prefetch(lo: number, hi: number, hashing = false): void {
    if (hi < lo || hi - lo + 1 > 200) return
    const slots: number[] = []
    for (let h = lo; h <= hi; h++) {
      const slot = this.slotAt(h)
      if (slot !== undefined) slots.push(slot)
    }
    const first = slots[0]
    const last = slots[slots.length - 1]
    if (first === undefined || last === undefined) return
    const buckets = new Map<number, HashedTx[]>()
    for (const slot of slots) buckets.set(slot, [])
    const timeline = this.ctx.slotTimelines[this.chain]
    for (const tx of this.sources.flatMap((s) => this.found(s, timeline.time(first), timeline.time(last + 1), hashing))) {
      if (!isReward(tx)) buckets.get(timeline.heightAt(tx.issueTime))?.push(tx)
    }
    for (const [slot, found] of buckets) {
      const h = this.heightOfSlot(slot)
      // records only where no source wrote its own (found holds records then)
      if (hashing) this.hashing.get(h, () => this.assemble(h, timeline.time(slot), found, true))
      else this.cache.get(h, () => this.assemble(h, timeline.time(slot), found as TxRecord[]))
    }
  }

  /** The node's type of block h. */
  private blockType(h: number): BlockRecord["blockType"] {
    if (this.chain === "X") return "StandardBlock"
    const at = this.ctx.pLayout.at(h)
    switch (at.kind) {
      case "archive":
        return this.ctx.archive.block(at.index)?.type ?? "ApricotCommitBlock"
      case "main":
        return "BanffStandardBlock"
      case "proposal":
        return "BanffProposalBlock"
      case "commit":
        return "BanffCommitBlock"
    }
  }

  /** What block h's bytes hold besides its parent and txs: cheaper than `block`, which names ids. */
  header(h: number): Pick<BlockRecord, "blockType" | "height" | "timestamp"> {
    return { blockType: this.blockType(h), height: BigInt(h), timestamp: this.ctx.timelines[this.chain].time(h) }
  }

  block(h: number): BlockRecord {
    const txs = this.txs(h)
    const ref = this.ctx.blockRef(this.chain, h)
    return {
      chain: this.chain,
      height: ref.height,
      id: ref.blockId,
      // the X-chain's first block follows the last vertex of its DAG (upgrade.go CortinaXChainStopVertexID)
      parentId: h > 0 ? this.ctx.blockId(this.chain, h - 1) : this.chain === "X" ? CORTINA_STOP_VERTEX[this.ctx.name] : ZERO_ID,
      timestamp: ref.timestamp,
      txIds: txs.map((t) => t.id),
      blockType: this.blockType(h),
      sizeBytes: 6 + 32 + 8 + 8 + 4 + txs.reduce((sum, t) => sum + txSize(t), 0)
    }
  }

  /** Block height named by a block id of this chain (regardless of now). */
  heightOf(blockId: string): number | undefined {
    const loc = this.ctx.locate(blockId)
    const kind = this.chain === "P" ? Kind.PBlock : Kind.XBlock
    return loc?.kind === kind && loc.b === 0 && loc.c === 0 ? loc.a : undefined
  }

  /** A background tx by its locator (block, slot). */
  backgroundTx(h: number, slot: number): TxRecord | undefined {
    return this.txs(h).find((t) => t.id === this.ctx.id(BACKGROUND_KIND[this.chain], h, slot))
  }
}
