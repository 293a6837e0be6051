/**
 * Everything the generators of one network share: its real constants, its sizes, the three
 * chains' timelines, seeded randomness scoped to the network, and the id codec.
 */
import { AVAX_ASSET_ID, BECH32_HRP, BLOCKCHAIN_ID, NETWORK_ID, type NetworkName } from "../constants.ts"
import { bytes, bytesOnce, hash32, hashKey, hashPath, intOfUnit, unitOfHash } from "../rng.ts"
import { networkConfig, type NetworkConfig } from "./config.ts"
import { Kind, bech32, cb58, chainAddress, decodeId, encodeId, fromCb58, type Locator } from "./ids.ts"
import { Lru } from "./lru.ts"
import { rememberIdBytes } from "./codec/idBytes.ts"
import { Archive } from "./archive.ts"
import { PLayout } from "./pLayout.ts"
import type { RewardIndex, RewardRef } from "./rewardIndex.ts"
import { Timeline } from "./timeline.ts"
import type { BlockRef, Owners } from "./types.ts"

type Key = string | number | bigint

/** Chains whose blocks this world generates (the C-chain's come from the EVM world). */
export type PxChain = "P" | "X"

const BLOCK_KIND: Readonly<Record<PxChain, Kind>> = { P: Kind.PBlock, X: Kind.XBlock }

/** Tx ids that name no tx of a chain (fundings from before the history, L1 validations): served as they are made. */
const SERVED_AS_MADE: ReadonlySet<Kind> = new Set([Kind.ExternalTx, Kind.GenesisAllocation, Kind.L1Validation])

/**
 * A memo key for a locator: one number where its coordinates fit 6 + 27 + 12 + 8 bits (nearly every
 * locator: a kind below 64, b and c small), so a lookup hashes a number instead of building and
 * hashing a string; the string otherwise (both kinds of key never collide in one Map).
 */
const locatorKey = (kind: Kind, a: number, b: number, c: number): number | string =>
  a === (a & 0x7ffffff) && b === (b & 0xfff) && c === (c & 0xff) && kind === (kind & 0x3f)
    ? ((kind * 0x8000000 + a) * 0x1000 + b) * 0x100 + c
    : `${kind}.${a}.${b}.${c}`

/** Height ↔ time of a chain: the X-chain's Timeline, the P-chain's PLayout. */
export interface ChainTimes {
  /** Block time of a height. */
  time(height: number): number
  /** The highest height whose time is ≤ t, or -1 before genesis. */
  heightAt(t: number): number
  readonly genesisTime: number
}

export class NetCtx {
  readonly cfg: NetworkConfig
  readonly networkId: number
  readonly hrp: string
  readonly chainIds: { readonly P: string; readonly X: string; readonly C: string }
  readonly avaxAssetId: string
  readonly timelines: Readonly<Record<PxChain, ChainTimes>>
  /** The world's own history of each chain, a standard block a slot (the P-chain's heights add more: pLayout). */
  readonly slotTimelines: Readonly<Record<PxChain, Timeline>>
  /** The P-chain's heights: its archive, the world's own slots and the reward blocks between them. */
  readonly pLayout: PLayout
  /** The P-chain's blocks before the world's history (archive.ts). */
  readonly archive: Archive
  private rewards: RewardIndex | undefined
  /** Unix seconds the world was built at: history ends here, the future continues from it. */
  readonly anchor: number
  /** Before it, validators use AddValidatorTx; from it, the permissionless txs with BLS keys. */
  readonly durangoTime: number
  private readonly seedN: number
  /** Block ids by height (the P-chain's ≥ 0, the X-chain's -1 - height, as `refs`). */
  private readonly blockIds = new Lru<number | string, string>(8192)
  /** Block refs by height (the P-chain's ≥ 0, the X-chain's -1 - height). */
  private readonly refs = new Lru<number, BlockRef>(8192)
  /** Ids are recomputed constantly (spend references, block lists); a bounded memo saves the hashing. */
  private readonly ids = new Lru<number | string, string>(32_768)
  /**
   * The reverse of `ids` for the ids made lately: they are the ones looked up again (a block's txs
   * name the txs they spend, hashing asks what each id names), and decoding one costs 4 hashes.
   */
  private readonly made = new Lru<string, Locator>(32_768)
  /**
   * The world's wallets' addresses (at most 4 a wallet, 20 bytes each), by wallet × 4 + index,
   * drawn when first asked (held: 0 not yet, 1 drawn): every output names its owner, and a typed
   * array costs no map lookup or entry.
   */
  private readonly addressStore: Uint8Array
  private readonly addressHeld: Uint8Array

  constructor(
    readonly seed: number,
    readonly name: NetworkName,
    scale: number,
    anchor: number
  ) {
    this.cfg = networkConfig(name, scale)
    this.networkId = NETWORK_ID[name]
    this.hrp = BECH32_HRP[name]
    this.chainIds = BLOCKCHAIN_ID[name]
    this.avaxAssetId = AVAX_ASSET_ID[name]
    this.anchor = Math.floor(anchor)
    this.seedN = hash32(seed, "primary", name)
    const c = this.cfg
    const pMain = new Timeline({ anchor: this.anchor, history: c.pHistoryBlocks, spanSeconds: c.spanSeconds, interval: c.pInterval })
    this.archive = new Archive(this, pMain.genesisTime)
    this.pLayout = new PLayout(pMain, () => this.archive, () => this.rewardIndex())
    const x = new Timeline({ anchor: this.anchor - 7, history: c.xHistoryBlocks, spanSeconds: c.spanSeconds, interval: c.xInterval })
    this.slotTimelines = { P: pMain, X: x }
    this.timelines = { P: this.pLayout, X: x }
    this.durangoTime = this.anchor - Math.floor(c.spanSeconds * 0.55)
    this.addressStore = new Uint8Array(c.wallets * 4 * 20)
    this.addressHeld = new Uint8Array(c.wallets * 4)
  }

  /** The staking schedule's rewards, which the P-chain's heights depend on; bound once the schedule exists. */
  bindRewards(rewards: RewardIndex): void {
    this.rewards = rewards
  }

  /** The staker of the r-th reward of the staking schedule, in chain order. */
  rewardRef(r: number): RewardRef {
    return this.rewardIndex().at(r).ref
  }

  private rewardIndex(): RewardIndex {
    if (this.rewards === undefined) throw new Error("P-chain heights asked for before the staking schedule's rewards were bound")
    return this.rewards
  }

  /** Earliest moment generated activity may happen: an hour after the latest of the world's first blocks. */
  get start(): number {
    return Math.max(this.pLayout.mainGenesisTime, this.timelines.X.genesisTime) + 3600
  }

  // — randomness scoped to this network —
  // (the key paths are hashed as they came: spreading them on into rng.ts's unit and intIn copied each twice a draw)
  unit(...keys: Key[]): number {
    return unitOfHash(hashPath(this.seedN, keys))
  }
  int(lo: number, hi: number, ...keys: Key[]): number {
    return intOfUnit(lo, hi, unitOfHash(hashPath(this.seedN, keys)))
  }
  /** The hash of a key path, from which rng.ts's hashKey draws the paths one key longer: draws sharing a start hash it once. */
  path(...keys: Key[]): number {
    return hashPath(this.seedN, keys)
  }
  /** Uniform bigint in [lo, hi] (ranges below 2^64; two 32-bit draws, no sha256: amounts are hot). */
  big(lo: bigint, hi: bigint, ...keys: Key[]): bigint {
    // the two draws share their key path: hashed once
    const path = hashPath(this.seedN, keys)
    const v = (BigInt(hashKey(path, "hi")) << 32n) | BigInt(hashKey(path, "lo"))
    return lo + (v % (hi - lo + 1n))
  }
  bytes(n: number, ...keys: Key[]): Uint8Array {
    return bytes(this.seedN, n, ...keys)
  }
  /** `bytes(n, ...keys)` as a view that the next call overwrites: for a writer that copies them at once (rng.ts bytesOnce). */
  bytesOnce(n: number, ...keys: Key[]): Uint8Array {
    return bytesOnce(this.seedN, n, ...keys)
  }

  // — ids —
  idBytes(kind: Kind, a: number, b = 0, c = 0): Uint8Array {
    return encodeId(this.seed, this.name, { kind, a, b, c }, 32)
  }
  id(kind: Kind, a: number, b = 0, c = 0): string {
    return this.ids.get(locatorKey(kind, a, b, c), () => {
      const bytes = this.idBytes(kind, a, b, c)
      const id = cb58(bytes)
      this.made.set(id, { kind, a, b, c })
      // an encoder writes these bytes soon (a funding's id is served as made), and would decode the string again
      if (SERVED_AS_MADE.has(kind)) rememberIdBytes(id, bytes)
      return id
    })
  }
  shortId(kind: Kind, a: number, b = 0): Uint8Array {
    return encodeId(this.seed, this.name, { kind, a, b, c: 0 }, 20)
  }
  /** The locator of a cb58 id of this network, if it is one. */
  locate(id: string): Locator | undefined {
    const made = this.made.find(id)
    if (made !== undefined) return made
    const b = fromCb58(id)
    const loc = b === undefined ? undefined : decodeId(this.seed, this.name, b)
    // held as if made: the hashing pass locates a world id each time it looks one up, and decoding costs three sha256
    if (loc !== undefined) this.made.set(id, loc)
    return loc
  }
  locateShort(b: Uint8Array): Locator | undefined {
    return decodeId(this.seed, this.name, b)
  }

  blockId(chain: PxChain, height: number): string {
    const key = height >= 0 ? (chain === "P" ? height : -1 - height) : `${chain}${height}`
    return this.blockIds.get(key, () => this.id(BLOCK_KIND[chain], height))
  }
  /** The block of `chain` that includes something timed at `t` (clamped to genesis); not a RewardValidatorTx (rewardBlock). */
  blockAt(chain: PxChain, t: number): BlockRef {
    if (chain === "X") return this.blockRef(chain, Math.max(0, this.timelines.X.heightAt(t)))
    const h = this.pLayout.mainAt(t)
    // its time from t's slot: a far height's time is a search over the layout's slots
    return this.refs.find(h) ?? this.newRef("P", h, this.pLayout.mainTimeAt(t))
  }

  /** The BanffProposalBlock of the schedule's reward `ref`, timed at `t` (the staker's end). */
  rewardBlock(t: number, ref: RewardRef): BlockRef {
    const h = this.pLayout.rewardHeight(this.rewardIndex().indexOf(t, ref))
    // a proposal block is timed at its reward's time, which indexOf found to be t
    return this.refs.find(h) ?? this.newRef("P", h, t)
  }
  /**
   * Every UTXO and staking record names blocks (where it was made, listed, spent, rewarded), but
   * only what is served reads their ids: hashing a chain builds records by the million and reads
   * none, and a locator id costs three sha256 and a base58. So the id is made when first read, and
   * a block's ref is shared by the records built around the same time (one object, one id).
   */
  blockRef(chain: PxChain, height: number): BlockRef {
    return this.refs.find(chain === "P" ? height : -1 - height) ?? this.newRef(chain, height, this.timelines[chain].time(height))
  }

  /** A new ref to block `height` timed at `timestamp` (its chain's time of that height), held for the next ask. */
  private newRef(chain: PxChain, height: number, timestamp: number): BlockRef {
    const ctx = this
    let id: string | undefined
    const ref: BlockRef = {
      chain,
      height: BigInt(height),
      get blockId() {
        return (id ??= ctx.blockId(chain, height))
      },
      timestamp
    }
    this.refs.set(chain === "P" ? height : -1 - height, ref)
    return ref
  }

  // — wallets' addresses —
  /** How many addresses wallet w owns (1–4). */
  walletAddressCount(wallet: number): number {
    return 1 + this.int(0, 3, "addr-count", wallet)
  }
  address(wallet: number, index: number): Uint8Array {
    // a copy out, so no caller can change what the next one reads
    return this.addressView(wallet, index).slice()
  }
  /** The bytes of `address(wallet, index)` as held: for a writer that copies them at once, never to be changed. */
  addressView(wallet: number, index: number): Uint8Array {
    // drawn once (two hashes each) for the world's wallets
    if (!(index === (index & 3) && wallet === (wallet | 0) && wallet >= 0 && wallet * 4 < this.addressHeld.length)) return this.shortId(Kind.Address, wallet, index)
    const slot = wallet * 4 + index
    const at = slot * 20
    if (this.addressHeld[slot] === 0) {
      this.addressStore.set(this.shortId(Kind.Address, wallet, index), at)
      this.addressHeld[slot] = 1
    }
    return this.addressStore.subarray(at, at + 20)
  }
  /** "P-avax1…" form of a 20-byte address (the node's form). */
  chainAddressOf(chain: "P" | "X" | "C", address: Uint8Array): string {
    return chainAddress(chain, this.hrp, address)
  }
  /** "avax1…" form (the REST services' form). */
  bech32Of(address: Uint8Array): string {
    return bech32(this.hrp, address)
  }

  /** One-address owner, spendable now. */
  owner(address: Uint8Array): Owners {
    return { addresses: [address], threshold: 1, locktime: 0n }
  }
}
