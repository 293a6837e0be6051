/**
 * One primary network (mainnet or fuji): the query API the REST routes and the JSON-RPC methods
 * read. Every answer is "as of now" (the clock): blocks, txs and UTXOs exist once their block's
 * timestamp is ≤ now; statuses (pending/active/completed, spent/unspent) are evaluated at now.
 */
import type { Clock } from "../../http/contract.ts"
import type { NetworkName } from "../constants.ts"
import type { EvmChain } from "../evm/index.ts"
import { AssetTxs } from "./assetTxs.ts"
import { Assets } from "./assets.ts"
import { Chain, type HashedTx } from "./chain.ts"
import { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import { ExternalOwners } from "./externalOwners.ts"
import { L1Txs } from "./l1Txs.ts"
import { L1s, type AdoptedL1 } from "./l1.ts"
import { Lru } from "./lru.ts"
import { RewardIndex } from "./rewardIndex.ts"
import { Staking } from "./staking.ts"
import { StakingTxs } from "./stakingTxs.ts"
import type { AssetInfo, BlockRecord, ChainLetter, TxRecord, UtxoRecord } from "./types.ts"
import { Wallets } from "./wallets.ts"
import { L1View } from "./l1View.ts"
import { NodeViews, type Balances, type BlockchainRecord, type BlockchainStatus, type L1ValidatorRecord, type PrimaryValidatorRecord } from "./nodeViews.ts"
import { StakingView, type StakingEntry } from "./stakingView.ts"
import { TxJson } from "./txJson.ts"
import { ServedIds } from "./servedIds.ts"
import { fieldsOf, utxoHex } from "./utxoCodec.ts"
import { UtxoView, type UtxoQuery } from "./utxoView.ts"

import { signedWarpMessage } from "./warp.ts"

export type PxChain = "P" | "X"

const WALLET_KINDS: ReadonlySet<Kind> = new Set([Kind.WalletPTx, Kind.WalletXTx, Kind.WalletImportPTx, Kind.WalletImportXTx])
export type { UtxoQuery }

export interface AddressSet {
  readonly wallet: number
  /** 20-byte short ids. */
  readonly addresses: ReadonlyArray<Uint8Array>
  readonly p: ReadonlyArray<string>
  readonly x: ReadonlyArray<string>
}

export class PrimaryNetwork {
  readonly ctx: NetCtx
  readonly staking: Staking
  readonly stakingTxs: StakingTxs
  readonly wallets: Wallets
  readonly assets: Assets
  readonly assetTxs: AssetTxs
  readonly l1s: L1s
  readonly l1Txs: L1Txs
  readonly p: Chain
  readonly x: Chain
  readonly stakingView: StakingView
  readonly l1View: L1View
  readonly json: TxJson
  readonly node: NodeViews
  private readonly utxoView: UtxoView
  /** The ids a node serves (hashes of bytes) for the world's locator ids, and back. */
  readonly served: ServedIds
  /** BLS signing costs milliseconds; the same tx always gets the same message. */
  private readonly warpCache = new Lru<string, string | undefined>(256)
  private stakingEntries: { readonly at: number; readonly entries: ReadonlyArray<StakingEntry> } | undefined

  constructor(
    seed: number,
    readonly name: NetworkName,
    scale: number,
    private readonly clock: Clock,
    /** The network's C-chain from the EVM world: route 12's c-chain blocks are its blocks. */
    readonly cChain: EvmChain,
    /** Unix seconds the world was built at: the same history whenever the network is first used. */
    anchor: number,
    adoptedL1?: AdoptedL1
  ) {
    this.ctx = new NetCtx(seed, name, scale, anchor)
    this.staking = new Staking(this.ctx)
    this.stakingTxs = new StakingTxs(this.ctx, this.staking)
    this.assets = new Assets(this.ctx)
    this.assetTxs = new AssetTxs(this.ctx, this.assets)
    this.wallets = new Wallets(this.ctx, this.assets)
    this.l1s = new L1s(this.ctx, adoptedL1)
    this.l1Txs = new L1Txs(this.ctx, this.l1s)
    const rewards = new RewardIndex((horizon) => this.stakingTxs.rewardEvents(horizon))
    this.ctx.bindRewards(rewards)
    this.p = new Chain(
      this.ctx,
      "P",
      [this.stakingTxs, { txsIn: (a, b) => this.wallets.txsIn("P", a, b), hashTxsIn: (a, b) => this.wallets.hashTxsIn("P", a, b) }, this.l1Txs, { txsIn: (a, b) => this.ctx.archive.lateTxsIn(a, b) }],
      { rewardTx: (ref) => this.stakingTxs.rewardTxOf(ref), refOf: (r) => rewards.at(r).ref }
    )
    this.x = new Chain(this.ctx, "X", [this.assetTxs, { txsIn: (a, b) => this.wallets.txsIn("X", a, b), hashTxsIn: (a, b) => this.wallets.hashTxsIn("X", a, b) }])
    const now = (): number => this.now()
    this.stakingView = new StakingView(this.ctx, this.staking, this.stakingTxs, now)
    this.l1View = new L1View(this.ctx, this.l1Txs, now)
    this.json = new TxJson(this.ctx)
    this.node = new NodeViews(this.ctx, this.stakingView, this.l1View, now)
    this.utxoView = new UtxoView(this.wallets, this.stakingTxs, this.assetTxs, new ExternalOwners(this.ctx, this.wallets, { P: this.p, X: this.x }), now)
    this.served = new ServedIds(this)
  }

  now(): number {
    return this.clock.now()
  }

  get networkId(): number {
    return this.ctx.networkId
  }
  get hrp(): string {
    return this.ctx.hrp
  }
  get blockchainIds(): { readonly P: string; readonly X: string; readonly C: string } {
    return this.ctx.chainIds
  }
  get avaxAssetId(): string {
    return this.ctx.avaxAssetId
  }

  /** P, X or C for a blockchain id or alias of this network (REST aliases p-chain…, node aliases P…). */
  chainOf(idOrAlias: string): ChainLetter | undefined {
    const ids = this.ctx.chainIds
    const a = idOrAlias.toLowerCase()
    if (idOrAlias === ids.P || a === "p-chain" || idOrAlias === "P") return "P"
    if (idOrAlias === ids.X || a === "x-chain" || idOrAlias === "X") return "X"
    if (idOrAlias === ids.C || a === "c-chain" || idOrAlias === "C") return "C"
    return undefined
  }

  chain(c: PxChain): Chain {
    return c === "P" ? this.p : this.x
  }

  // — blocks and txs —

  /** Height of the last accepted block at now. */
  height(c: PxChain): bigint {
    return BigInt(this.chain(c).height(this.now()))
  }

  private visibleHeight(c: PxChain, height: bigint): number | undefined {
    const h = Number(height)
    return Number.isSafeInteger(h) && h >= 0 && h <= this.chain(c).height(this.now()) ? h : undefined
  }

  block(c: PxChain, height: bigint): BlockRecord | undefined {
    const h = this.visibleHeight(c, height)
    return h === undefined ? undefined : this.chain(c).block(h)
  }

  /** A revealed block by its served id (or the world's own id). */
  blockById(c: PxChain, blockId: string): BlockRecord | undefined {
    const h = this.chain(c).heightOf(this.served.resolve(blockId))
    return h === undefined ? undefined : this.block(c, BigInt(h))
  }

  /** Height of the C-chain's last block at now (the EVM world's C-chain). */
  cHeight(): bigint {
    return this.cChain.latestHeight()
  }

  /** A revealed C-chain block as a primary-network block: the EVM block's number, hash and time. */
  cBlock(height: bigint): BlockRecord | undefined {
    const b = this.cChain.block(height)
    if (!b) return undefined
    const txIds = this.cChain.transactionsOf(height).map((t) => t.txHash)
    return {
      chain: "C",
      height: b.blockNumber,
      id: b.blockHash,
      parentId: b.parentHash,
      timestamp: b.blockTimestamp,
      txIds,
      blockType: "EVMBlock",
      // header plus a typical legacy/dynamic-fee tx size
      sizeBytes: 540 + txIds.length * 180
    }
  }

  /** Builds revealed blocks lo…hi of a chain in one pass (a page of route 12). */
  prefetch(c: PxChain, lo: bigint, hi: bigint): void {
    const top = this.chain(c).height(this.now())
    this.chain(c).prefetch(Number(lo), Math.min(Number(hi), top))
  }

  /** The txs of a revealed block, in block order. */
  blockTxs(c: PxChain, height: bigint): ReadonlyArray<TxRecord> {
    const h = this.visibleHeight(c, height)
    return h === undefined ? [] : this.chain(c).txs(h)
  }

  /** A tx of any P/X chain by id, regardless of now (undefined for ids this world never issued). */
  txAnyTime(txId: string): TxRecord | undefined {
    const loc = this.ctx.locate(txId)
    if (!loc) {
      const adopted = this.l1s.bySubnetId(txId) ?? this.l1s.byChainId(txId)
      if (!adopted) return undefined
      return txId === adopted.subnetId ? this.l1Txs.createSubnetTx(adopted) : this.l1Txs.createChainTx(adopted)
    }
    const { kind, a, b, c } = loc
    switch (kind) {
      case Kind.Validation:
      case Kind.Delegation:
      case Kind.ValidationReward:
      case Kind.DelegationReward:
        return this.stakingTxs.txByLocator(kind, a, b, c)
      case Kind.WalletPTx:
      case Kind.WalletXTx:
      case Kind.WalletImportPTx:
      case Kind.WalletImportXTx:
        return c === 0 ? this.wallets.txByLocator(kind, a, b) : undefined
      case Kind.L1Tx:
        return this.l1Txs.txByLocator(a, b, c)
      case Kind.ArchiveTx:
        return b === 0 && c === 0 ? this.ctx.archive.tx(a) : undefined
      case Kind.BackgroundPTx:
        return c === 0 ? this.p.backgroundTx(a, b) : undefined
      case Kind.BackgroundXTx:
        return c === 0 ? this.x.backgroundTx(a, b) : undefined
      case Kind.AssetTx: {
        const asset = c === 0 ? this.assets.minted(a) : undefined
        if (asset === undefined) return undefined
        if (b === 0) return this.assetTxs.createAssetTx(asset)
        return b === 1 && asset.mint !== undefined ? this.assetTxs.operationTx(asset) : undefined
      }
      default:
        return undefined
    }
  }

  /** A tx accepted by now by its served id (or the world's own id), optionally only of one chain. */
  tx(txId: string, chain?: PxChain): TxRecord | undefined {
    const tx = this.txAnyTime(this.served.resolve(txId))
    if (!tx || (chain && tx.chain !== chain)) return undefined
    return tx.block.timestamp <= this.now() ? tx : undefined
  }

  /**
   * txAnyTime's tx as the hashing pass takes it: a wallet's tx writes its own bytes
   * (walletWritten.ts). Hashing regenerates the other chain's exports and the spends behind them
   * out of their blocks' turn.
   */
  hashedAnyTime(txId: string): HashedTx | undefined {
    const loc = this.ctx.locate(txId)
    if (loc !== undefined && loc.c === 0 && WALLET_KINDS.has(loc.kind)) return this.wallets.writtenByLocator(loc.kind, loc.a, loc.b)
    return this.txAnyTime(txId)
  }

  /** avm.getTxStatus / platform.getTxStatus: Accepted once revealed, else Unknown. */
  txStatus(txId: string, chain: PxChain): "Accepted" | "Unknown" {
    return this.tx(txId, chain) ? "Accepted" : "Unknown"
  }

  /**
   * Route 4: txs staking now — validations and delegations whose period runs, and the L1 txs
   * behind the L1 validators active now (see L1View.activeStakingEntries) — sorted by block
   * timestamp, then tx id.
   */
  activeStakingEntries(): ReadonlyArray<StakingEntry> {
    // every page of a route 4 listing filters the same entries while the clock stands still, and
    // building them (their ids) costs O(scale): kept for one instant, a 100k-row listing takes
    // minutes to page through instead of hours
    const now = this.now()
    if (this.stakingEntries?.at !== now) {
      const entries = [...this.stakingView.activeStakingEntries(), ...this.l1View.activeStakingEntries()]
      entries.sort((a, b) => a.blockTimestamp - b.blockTimestamp || (a.txId < b.txId ? -1 : a.txId > b.txId ? 1 : 0))
      this.stakingEntries = { at: now, entries }
    }
    return this.stakingEntries.entries
  }

  // — assets and fees —

  asset(assetId: string): AssetInfo | undefined {
    return this.assets.byId(assetId, this.now())
  }

  /** AVAX and the minted assets created by now. */
  assetList(): AssetInfo[] {
    return [this.assets.avax, ...this.assets.everyMinted().filter((a) => this.ctx.blockAt("X", a.createdAt).timestamp <= this.now())]
  }

  txFee(): { readonly txFee: bigint; readonly createAssetTxFee: bigint } {
    return { txFee: this.ctx.cfg.txFee, createAssetTxFee: this.ctx.cfg.createAssetTxFee }
  }

  // — addresses and UTXOs —

  /** The wallets (address sets) whose UTXOs the world generates. */
  addressSets(): AddressSet[] {
    return Array.from({ length: this.wallets.count }, (_, w) => {
      const addresses = this.wallets.addresses(w)
      return {
        wallet: w,
        addresses,
        p: addresses.map((a) => this.ctx.chainAddressOf("P", a)),
        x: addresses.map((a) => this.ctx.chainAddressOf("X", a))
      }
    })
  }

  /**
   * UTXOs consumable on chain c owned by any of `addresses` (20-byte short ids), as of now.
   * Order: creation block timestamp, then tx id, then output index.
   */
  utxos(c: PxChain, addresses: ReadonlyArray<Uint8Array>, q: UtxoQuery): UtxoRecord[] {
    return this.utxoView.utxos(c, addresses, q)
  }

  /** The node's hex form of a UTXO (0x + codec bytes + checksum), naming its tx and asset by their served ids. */
  utxoHex(u: UtxoRecord): string {
    return utxoHex(u.consumedOn === "P" ? "P" : "X", { ...fieldsOf(u), txId: this.served.of(u.txId), assetId: this.served.of(u.assetId) })
  }

  /** The UTXO's id as a node computes it: from its tx's served id. */
  utxoId(u: UtxoRecord): string {
    return this.served.utxoId(u.txId, u.outputIndex)
  }

  /** platform.getBalance / avm.getAllBalances over the node's UTXO view of an address set. */
  balances(c: PxChain, addresses: ReadonlyArray<Uint8Array>): Balances {
    return this.node.balances(this.utxos(c, addresses, { view: "node" }))
  }

  // — validators, chains, supply —

  currentValidators(subnetId?: string, nodeIds?: ReadonlyArray<string>): ReadonlyArray<PrimaryValidatorRecord | L1ValidatorRecord> | undefined {
    return this.node.currentValidators(subnetId, nodeIds)
  }

  blockchains(): BlockchainRecord[] {
    return this.node.blockchains()
  }

  blockchainStatus(blockchainId: string): BlockchainStatus {
    return this.node.blockchainStatus(blockchainId)
  }

  /** nAVAX supply at time t (genesis supply plus steady minting); ignores burns, as the node's does. */
  supplyAt(t: number): bigint {
    // minted from the world's own history on (the archive before it mints nothing)
    const since = Math.max(0, t - this.ctx.pLayout.mainGenesisTime)
    return this.ctx.cfg.genesisSupply + this.ctx.cfg.mintPerSecond * BigInt(since)
  }

  /** platform.getCurrentSupply; undefined for an unknown subnet. */
  currentSupply(subnetId?: string): bigint | undefined {
    return this.node.currentSupply(subnetId, this.supplyAt(this.now()))
  }

  // — warp —

  /** Route 1: the signed warp message of an L1-related P-chain tx; "none" for other revealed txs. */
  signedWarpMessage(txId: string): string | "none" | undefined {
    const tx = this.tx(txId, "P")
    if (!tx) return undefined
    return this.warpCache.get(txId, () => signedWarpMessage(this.ctx, tx)) ?? "none"
  }
}
