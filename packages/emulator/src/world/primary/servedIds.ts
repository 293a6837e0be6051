/**
 * The ids a node serves: a tx's id is cb58(sha256(its signed bytes)), a block's cb58(sha256(its
 * bytes)), a UTXO's cb58(sha256(tx id ‖ output index)). Internally the world names txs and blocks
 * by locator ids (ids.ts), which let it regenerate one entity from its id; this class translates
 * between the two, so every interface describes one chain whose ids any client can verify.
 *
 * Hashing is lazy and memoised: a tx's bytes name the txs whose outputs it consumes (and its
 * asset's, its subnet's CreateAssetTx/CreateSubnetTx), a block's bytes its parent and its txs, so
 * a block id needs every block before it. So a chain is hashed in height order, block by block and
 * tx by tx, up to the block asked for: then nearly every id a tx names is known when it is hashed,
 * and each tx is serialised once (its bytes are kept for its block). A tx id alone needs only the
 * txs whose outputs it names; those, and whatever height order misses (the other chain's exports),
 * are computed on an explicit stack, not by recursion, as spend chains run thousands deep. Txs' served
 * ids are kept as bytes under their locators (txIdStore.ts), told back from served to world by the
 * same store; a served id not seen yet makes both chains be hashed up to now, once per new tip.
 * Blocks' ids are kept by height in typed arrays (blockIdStore.ts), as a chain holds millions, and
 * a block's bytes take its parent's id as bytes from there.
 * The slots' staker adds and background txs are not built as records here: they write their own
 * bytes (Chain.hashTxs), which name no block, reward or spender.
 *
 * Hashed like every tx: the adopted L1's CreateSubnetTx and CreateChainTx, although the EVM world
 * names them; the rewrite at the HTTP layer serves their hashes on its routes too (route 17).
 * Not hashed, kept as they are: outputs funded from before the generated history (ExternalTx,
 * GenesisAllocation: there is no tx to hash), and every non-tx id (nodes, AVAX, primary chains).
 */
import type { PrimaryNetwork, PxChain } from "./network.ts"
import { BlockIdStore } from "./blockIdStore.ts"
import type { HashedTx } from "./chain.ts"
import { blockIdOf, parentBytes, type BlockHeader } from "./codec/blockBytes.ts"
import { TxBytes } from "./codec/txBytes.ts"
import { idBytes, rememberIdBytes, type IdBytesMap, type IdMap } from "./codec/idBytes.ts"
import { RewardIds } from "./rewardIds.ts"
import { sha256 } from "../cb58.ts"
import { Kind, cb58 } from "./ids.ts"
import { Lru } from "./lru.ts"
import { TxIdStore, locatorOfKey, txKey } from "./txIdStore.ts"
import { utxoId } from "./utxoCodec.ts"

type Named = { readonly kind: "tx"; readonly chain: PxChain } | { readonly kind: "block"; readonly chain: PxChain; readonly height: number } | undefined

const CHAINS: ReadonlyArray<PxChain> = ["P", "X"]

const BLOCK_KINDS: ReadonlyMap<Kind, PxChain> = new Map([
  [Kind.PBlock, "P"],
  [Kind.XBlock, "X"]
])
/** Locator kinds that never name a tx of a chain. */
const NOT_TX = new Set([Kind.ExternalTx, Kind.GenesisAllocation, Kind.Node, Kind.L1Node, Kind.Address, Kind.ExternalAddress, Kind.L1Validation])

/** Blocks built in one pass while hashing (Chain.prefetch builds at most 200, its cache keeps 256). */
const PREFETCH = 100

/** Ids known to name nothing hashed, remembered for a while (they are mostly seen once: a tx's funding). */
const PLAIN_MEMO = 65_536

/** Txs regenerated for hashing out of their block's turn, kept while their spend chain is hashed. */
const OUT_OF_TURN_MEMO = 4096

/** Hashed txs' served ids as text, by entry: made when a tx names one or it is served. */
const TEXTS = 16_384

/** Far more steps than any world hashes in one go (each id costs a few). */
const MAX_STEPS = 50_000_000

export class ServedIds {
  /** Hashed blocks' served ids, by height (a block's world id is its chain and height). */
  private readonly blocks: Record<PxChain, BlockIdStore> = { P: new BlockIdStore(), X: new BlockIdStore() }
  /** Hashed txs' served ids, by their locators (txIdStore.ts). */
  private readonly txs = new TxIdStore()
  private readonly texts = new Lru<number, string>(TEXTS)
  /**
   * Ids that are not hashed (served as they are): outputs funded from before the history, node
   * and chain ids, strings of a response that only look like ids. Bounded: most are seen once, and
   * telling one again costs a decode, not a hash of anything.
   */
  private readonly plain = new Lru<string, true>(PLAIN_MEMO)
  /**
   * Signed bytes of hashed txs whose block is not hashed yet, world id → bytes: the block's bytes
   * hold them again. Dropped once the block is hashed (nothing hashes them again), so they do not
   * pile up with the chain.
   */
  private readonly txBytes = new Map<string, Uint8Array>()
  /** The next height of each chain that time-ordered hashing has not reached. */
  private readonly next: Record<PxChain, number> = { P: 0, X: 0 }
  /** Txs of the blocks being hashed, by world id: regenerating one from its locator costs far more. */
  private readonly inHand = new Map<string, HashedTx>()
  /** Txs regenerated from their locator lately (see txAnyTime). */
  private readonly outOfTurn = new Lru<string, HashedTx | undefined>(OUT_OF_TURN_MEMO)
  /** Heights up to which `resolve` caught up with the tips. */
  private readonly caughtUp: Record<PxChain, number> = { P: -1, X: -1 }
  /** The P-chain's RewardValidatorTxs, hashed from their proposal blocks' place alone (rewardIds.ts). */
  private readonly rewards: RewardIds

  constructor(private readonly net: PrimaryNetwork) {
    this.rewards = new RewardIds(net)
  }

  /**
   * The entry of a hashed tx named by its world id, if it is hashed. Locating the id is a lookup in
   * the context's memo of ids made and located lately, a decode otherwise (an old id, seldom).
   */
  private entry(id: string): number | undefined {
    return this.txs.find(this.keyOf(id))
  }

  /** What names a tx in `txs`: its locator as a number, or its world id where none fits. */
  private keyOf(id: string): number | string {
    const loc = this.net.ctx.locate(id)
    return (loc === undefined ? undefined : txKey(loc)) ?? id
  }

  /** The served id of entry e, as a node writes it. */
  private text(e: number): string {
    return this.texts.get(e, () => {
      const b = this.txs.bytes(e)
      const s = cb58(b)
      // the encoders take ids as text and want their bytes again
      rememberIdBytes(s, b)
      return s
    })
  }

  /** A world id's served id, by its text where it is not hashed (or not a tx). */
  private servedText(id: string): string {
    const e = this.entry(id)
    return e === undefined ? id : this.text(e)
  }

  /** A world id's served id as bytes: the store's where it is hashed, its text's otherwise. */
  private servedBytes(id: string): Uint8Array {
    const e = this.entry(id)
    return e === undefined ? idBytes(id) : this.txs.bytes(e)
  }

  /**
   * A tx hashed outside its block's turn (a spend chain of the other chain's exports, a tx asked
   * for by id): `named` and `bytesOf` both need it, and an id whose inputs are not hashed yet is
   * visited again, so each would be rebuilt several times.
   */
  private txAnyTime(id: string): HashedTx | undefined {
    return this.outOfTurn.get(id, () => this.net.hashedAnyTime(id))
  }

  /** What a world id names, if it is a tx or block of this network's P- or X-chain. */
  private named(id: string): Named {
    const held = this.inHand.get(id)
    if (held) return { kind: "tx", chain: held.chain }
    const loc = this.net.ctx.locate(id)
    if (!loc) {
      // the adopted L1's subnet and chain: txs of this world named by the EVM world's ids (any
      // other L1's are locators; asking bySubnetId and byChainId decoded the id twice more)
      return this.net.l1s.isAdopted(id) ? { kind: "tx", chain: "P" } : undefined
    }
    const chain = BLOCK_KINDS.get(loc.kind)
    if (chain) return loc.b === 0 && loc.c === 0 ? { kind: "block", chain, height: loc.a } : undefined
    if (NOT_TX.has(loc.kind)) return undefined
    const tx = this.txAnyTime(id)
    return tx ? { kind: "tx", chain: tx.chain } : undefined
  }

  /**
   * The bytes that hash to `id`'s served id, with every other id inside mapped by `ids` (or to its
   * bytes by `bytesOf`, for the txs that write their own); the ids a miss returned unmapped are
   * collected by the caller.
   */
  private txBytesOf(id: string, ids: IdMap, bytesOf: IdBytesMap): Uint8Array {
    const held = this.inHand.get(id) ?? this.txAnyTime(id)!
    return "signed" in held ? held.signed(ids, bytesOf) : new TxBytes(this.net, ids).bytes(held)
  }

  /**
   * Hashes block h of a chain, whose parent and txs are hashed: its txs' bytes are the ones kept
   * when they were hashed, its parent's id the bytes the store holds.
   */
  private hashBlock(chain: PxChain, h: number, txs: ReadonlyArray<HashedTx>): void {
    const ids = (other: string): string => this.servedText(other)
    const bytesOf = (other: string): Uint8Array => this.servedBytes(other)
    const txBytes = new TxBytes(this.net, ids)
    const signed = txs.map((t) => this.txBytes.get(t.id) ?? ("signed" in t ? t.signed(ids, bytesOf) : txBytes.bytes(t)))
    const store = this.blocks[chain]
    if (store.count !== h) throw new Error(`${chain}-chain block ${h} hashed out of order (${store.count} are)`)
    const blocks = this.net.chain(chain)
    const parent = h > 0 ? store.bytes(h - 1) : parentBytes(blocks.block(h), ids)
    store.push(blockIdOf(blocks.header(h), parent, signed))
  }

  /**
   * Hashes P-chain proposal block h, whose one tx is reward r: from the served id of the staker it
   * rewards, without building the tx (whose served id the reward table keeps).
   */
  private hashProposal(h: number, r: number): void {
    const store = this.blocks.P
    if (store.count !== h || h === 0) throw new Error(`P-chain block ${h} hashed out of order (${store.count} are)`)
    const key = txKey(this.rewards.rewardedLocatorOf(r))
    const e = key === undefined ? undefined : this.txs.find(key)
    const tx = this.rewards.hash(r, e === undefined ? idBytes(this.of(this.rewards.rewardedOf(r))) : this.txs.bytes(e))
    store.push(blockIdOf(this.rewardHeader("BanffProposalBlock", h, r), store.bytes(h - 1), [tx]))
  }

  /** Chain.header of reward r's proposal or commit block at h, from what hashThrough knows of it (the layout's lookup of h costs a search). */
  private rewardHeader(blockType: "BanffProposalBlock" | "BanffCommitBlock", h: number, r: number): BlockHeader {
    return { blockType, height: BigInt(h), timestamp: this.net.ctx.pLayout.rewardTime(r) }
  }

  /** Hashes P-chain commit block h (no txs: its header and parent alone), without asking the chain for its txs. */
  private hashCommit(h: number, r: number): void {
    const store = this.blocks.P
    if (store.count !== h || h === 0) throw new Error(`P-chain block ${h} hashed out of order (${store.count} are)`)
    store.push(blockIdOf(this.rewardHeader("BanffCommitBlock", h, r), store.bytes(h - 1), []))
  }

  /** Hashes `root` and every id it needs that is not hashed yet. */
  private compute(root: string): void {
    const stack = [root]
    // ids are pushed again when a sibling needs them first; a true cycle would never end
    let steps = 0
    while (stack.length > 0) {
      if (++steps > MAX_STEPS) throw new Error(`served ids: no end in sight hashing ${root} (a cycle of ids?)`)
      const id = stack[stack.length - 1]!
      const key = this.plain.has(id) ? undefined : this.keyOf(id)
      if (key === undefined || this.txs.find(key) !== undefined) {
        stack.pop()
        continue
      }
      const what = this.named(id)
      if (what === undefined) {
        this.plain.set(id, true)
        stack.pop()
        continue
      }
      if (what.kind === "block") {
        this.block(what.chain, what.height)
        stack.pop()
        continue
      }
      // made for the few txs that name one not hashed yet
      let missing: Set<string> | undefined
      // the entry of a hashed tx, or what the bytes name in its place (told once for both maps below)
      const served = (other: string): number | string => {
        if (other === id || this.plain.has(other)) return other
        const known = this.entry(other)
        if (known !== undefined) return known
        // told here rather than after a restart: most misses are fundings from before the history
        // (served as they are), and a restart serialised the tx a second time for each
        const named = this.named(other)
        if (named === undefined) {
          this.plain.set(other, true)
          return other
        }
        if (named.kind === "block" && named.height < this.blocks[named.chain].count) return this.blocks[named.chain].text(named.height)
        missing ??= new Set<string>()
        missing.add(other)
        return other
      }
      const bytes = this.txBytesOf(
        id,
        (other) => {
          const s = served(other)
          return typeof s === "number" ? this.text(s) : s
        },
        // the txs that write their own bytes take a hashed tx's served id as the store holds it, without its text
        (other) => {
          const s = served(other)
          return typeof s === "number" ? this.txs.bytes(s) : idBytes(s)
        }
      )
      if (missing !== undefined) {
        stack.push(...missing)
        continue
      }
      this.txs.add(key, sha256(bytes))
      this.txBytes.set(id, bytes)
      stack.pop()
    }
  }

  /** Hashes a chain's blocks (each block's txs first) in height order up to time t. */
  private hashThrough(chain: PxChain, t: number): void {
    const timeline = this.net.ctx.timelines[chain]
    const blocks = this.net.chain(chain)
    while (timeline.time(this.next[chain]) <= t) {
      const height = this.next[chain]++
      // blocks are built a page at a time (one pass over the generators instead of one per block)
      if (height % PREFETCH === 0) blocks.prefetch(height, height + PREFETCH - 1, true)
      const at = chain === "P" ? this.net.ctx.pLayout.at(height) : undefined
      if (at?.kind === "proposal" && at.reward === this.rewards.count) {
        this.hashProposal(height, at.reward)
        continue
      }
      if (at?.kind === "commit") {
        this.hashCommit(height, at.reward)
        continue
      }
      const txs = blocks.hashTxs(height)
      for (const tx of txs) this.inHand.set(tx.id, tx)
      for (const tx of txs) this.compute(tx.id)
      this.hashBlock(chain, height, txs)
      for (const tx of txs) {
        this.inHand.delete(tx.id)
        this.txBytes.delete(tx.id)
      }
    }
  }

  /** The id a node serves for a world id: hashed for txs and blocks, unchanged for anything else. */
  of = (id: string): string => {
    if (this.plain.has(id)) return id
    const known = this.entry(id)
    if (known !== undefined) return this.text(known)
    // a block needs its chain hashed up to it, in order; a tx only the txs whose outputs it names
    const what = this.named(id)
    if (what?.kind === "block") return this.block(what.chain, what.height)
    this.compute(id)
    return this.servedText(id)
  }

  /** The block id a node serves for height h of a chain. */
  block(chain: PxChain, height: number): string {
    const store = this.blocks[chain]
    if (height >= store.count) this.hashThrough(chain, this.net.ctx.timelines[chain].time(height))
    return store.text(height)
  }

  /** The world id of a hashed block named by its served id. */
  private blockNamed(id: string): string | undefined {
    for (const chain of CHAINS) {
      const h = this.blocks[chain].heightOf(id)
      if (h !== undefined) return this.net.ctx.blockId(chain, h)
    }
    return undefined
  }

  /** A UTXO's id from its tx's served id and its index. */
  utxoId(txId: string, outputIndex: number): string {
    return utxoId(this.of(txId), outputIndex)
  }

  /** The world id behind a served id already hashed, without hashing anything new. */
  known(id: string): string | undefined {
    return this.txNamed(id) ?? this.blockNamed(id) ?? this.rewards.worldIdOf(id)
  }

  /** The world id of a hashed tx (not a reward) named by its served id. */
  private txNamed(id: string): string | undefined {
    const e = this.txs.entryOfServed(id)
    if (e === undefined) return undefined
    const name = this.txs.nameOf(e)
    if (typeof name === "string") return name
    const l = locatorOfKey(name)
    return this.net.ctx.id(l.kind, l.a, l.b, l.c)
  }

  /** The world id behind a served id; anything else (unknown, or already a world id) unchanged. */
  resolve = (id: string): string => {
    const hit = this.known(id)
    if (hit !== undefined) return hit
    // the world's own ids (in-process callers) and ids of nothing need no hashing to be told apart
    if (this.plain.has(id) || this.entry(id) !== undefined || this.net.ctx.locate(id) !== undefined || !this.catchUp()) return id
    return this.known(id) ?? id
  }

  /** Hashes both chains up to now (once per new tip); false when nothing new was hashed. */
  private catchUp(): boolean {
    const tops = { P: Number(this.net.height("P")), X: Number(this.net.height("X")) }
    if (tops.P <= this.caughtUp.P && tops.X <= this.caughtUp.X) return false
    this.hashThrough("P", this.net.now())
    this.hashThrough("X", this.net.now())
    this.caughtUp.P = tops.P
    this.caughtUp.X = tops.X
    return true
  }
}
