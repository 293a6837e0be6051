/**
 * One EVM chain's query API: blocks, transactions, token transfers, contracts, NFTs, balances and
 * holders, all generated on demand from the chain model. "Now" is the clock's; nothing later than
 * the latest block (the last with timestamp ≤ now) is visible.
 */
import type { Clock } from "../../http/contract.ts"
import { bigBelow, h32, intIn } from "./hash.ts"
import { decodeBlockHash, decodeTxHash } from "./ids.ts"
import { Lru } from "./lru.ts"
import type { ChainModel } from "./model.ts"
import { AddressKind, indexOf, kindOf, ref, type Ref } from "./refs.ts"
import { blockHashOf, parentHashOf, renderTx, tokenRefOf, transferOf } from "./render.ts"
import { transferAt, transfersThroughTx } from "./tokens.ts"
import { baseFeeOf, txCore, type TxCore } from "./txgen.ts"
import type { ContractInfo, EvmBlock, EvmChainInfo, EvmTransaction, TokenRef, TokenTransfer } from "./types.ts"
import { holdersAbove, nftHolders, nftTokenOf, type NftHolders } from "./holdings.ts"
import { ChainMetrics } from "./metrics/chainMetrics.ts"

export interface BlockCores {
  readonly height: number
  readonly time: number
  readonly baseFee: bigint
  readonly cores: ReadonlyArray<TxCore>
}

/** A token's transfers within a block range, addressed by their position in the token's sequence. */
export interface TokenTransferRange {
  readonly token: TokenRef
  /** First sequence position in range (inclusive). */
  readonly first: number
  /** End sequence position (exclusive); first === end when empty. */
  readonly end: number
  at(seq: number): TokenTransfer
}

export class EvmChain {
  readonly info: EvmChainInfo
  readonly metrics: ChainMetrics
  private readonly blockCache = new Lru<number, BlockCores>(512)

  constructor(
    readonly model: ChainModel,
    private readonly clock: Clock
  ) {
    const s = model.spec
    const multicall = s.systems.find((x) => x.role === "multicall")?.index ?? 0
    this.info = {
      evmChainId: s.evmChainId,
      blockchainId: s.blockchainId,
      subnetId: s.subnetId,
      network: s.network,
      isTestnet: s.network === "fuji",
      isCChain: s.isCChain,
      chainName: s.chainName,
      description: s.description,
      vmId: s.vmId,
      networkToken: { name: s.tokenName, symbol: s.tokenSymbol, decimals: 18, description: s.tokenDescription },
      genesisTime: model.timeline.genesisTime,
      blockGap: model.timeline.gap,
      gasLimit: s.gasLimit,
      multicallAddress: model.hex(ref(AddressKind.system, multicall))
    }
    this.metrics = new ChainMetrics(this)
  }

  now(): number {
    return this.clock.now()
  }

  /** Height of the last block with timestamp ≤ now, as a number (internal use). */
  latest(): number {
    return this.model.timeline.latestAt(this.clock.now())
  }

  latestHeight(): bigint {
    return BigInt(this.latest())
  }

  /** Cores of block h, cached for the few blocks a page touches. */
  cores(h: number): BlockCores {
    let b = this.blockCache.get(h)
    if (!b) {
      const m = this.model
      const first = m.counts.total(h - 1)
      const count = m.counts.total(h) - first
      const baseFee = baseFeeOf(m, h)
      const cores: TxCore[] = []
      for (let i = 0; i < count; i++) cores.push(txCore(m, first + i, h, i, baseFee))
      b = { height: h, time: m.timeline.time(h), baseFee, cores }
      this.blockCache.set(h, b)
    }
    return b
  }

  private visible(height: bigint | number): number | undefined {
    const h = Number(height)
    return Number.isSafeInteger(h) && h >= 0 && h <= this.latest() ? h : undefined
  }

  block(height: bigint): EvmBlock | undefined {
    const h = this.visible(height)
    return h === undefined ? undefined : this.blockAt(h)
  }

  /** Block h regardless of the clock (metrics and tests use it for revealed blocks only). */
  blockAt(h: number): EvmBlock {
    const m = this.model
    const b = this.cores(h)
    let gasUsed = 0n
    let fees = 0n
    for (const c of b.cores) {
      gasUsed += c.gasUsed
      fees += c.gasUsed * c.gasPrice
    }
    return {
      chainId: m.spec.evmChainId,
      blockNumber: BigInt(h),
      blockTimestamp: b.time,
      blockHash: blockHashOf(m, h),
      parentHash: parentHashOf(m, h),
      txCount: b.cores.length,
      baseFee: b.baseFee,
      gasUsed,
      gasLimit: m.spec.gasLimit,
      gasCost: m.spec.isCChain ? BigInt(intIn(m.sub("gascost"), 0, 40, h) * 5_000) : 0n,
      feesSpent: fees,
      cumulativeTransactions: BigInt(m.counts.total(h))
    }
  }

  blockByHash(hash: string): EvmBlock | undefined {
    const h = decodeBlockHash(this.model.salt, hash.toLowerCase())
    return h === undefined ? undefined : this.block(BigInt(h))
  }

  /** Height of the last block with timestamp ≤ t (−1n before genesis); not limited by now. */
  heightAtTime(t: number): bigint {
    return BigInt(this.model.timeline.latestAt(t))
  }

  transactionsOf(height: bigint): EvmTransaction[] {
    const h = this.visible(height)
    if (h === undefined) return []
    const b = this.cores(h)
    let logs = 0
    return b.cores.map((c) => {
      const tx = renderTx(this.model, c, b.time, b.baseFee, logs)
      logs += c.transfers.length
      return tx
    })
  }

  transactionAt(height: bigint, index: number): EvmTransaction | undefined {
    const h = this.visible(height)
    if (h === undefined) return undefined
    const b = this.cores(h)
    const c = b.cores[index]
    if (!c) return undefined
    let logs = 0
    for (let i = 0; i < index; i++) logs += (b.cores[i] as TxCore).transfers.length
    return renderTx(this.model, c, b.time, b.baseFee, logs)
  }

  /** O(1): the hash carries its height and index. */
  transaction(hash: string): EvmTransaction | undefined {
    const d = decodeTxHash(this.model.salt, hash.toLowerCase())
    return d ? this.transactionAt(BigInt(d.height), d.index) : undefined
  }

  tokens(): TokenRef[] {
    return this.model.spec.systems.filter((s) => s.token).map((s) => tokenRefOf(this.model, s.index))
  }

  /** System index of a token contract address, if it is one. */
  private tokenSystem(address: string): number | undefined {
    const r = this.model.refOf(address)
    if (r === undefined || kindOf(r) !== AddressKind.system) return undefined
    const i = indexOf(r)
    return this.model.spec.systems[i]?.token && i <= this.model.lastTxAt(this.latest()) ? i : undefined
  }

  token(address: string): TokenRef | undefined {
    const s = this.tokenSystem(address)
    return s === undefined ? undefined : tokenRefOf(this.model, s)
  }

  /**
   * The token's transfers in blocks [startBlock, endBlock) (both clamped to genesis..latest), by
   * sequence position; undefined when the address is not a token contract of this chain.
   */
  tokenTransfers(address: string, startBlock?: bigint, endBlock?: bigint): TokenTransferRange | undefined {
    const system = this.tokenSystem(address)
    if (system === undefined) return undefined
    const m = this.model
    const latest = this.latest()
    const lo = startBlock === undefined ? 0 : Number(startBlock < 0n ? 0n : startBlock > BigInt(latest + 1) ? BigInt(latest + 1) : startBlock)
    const hiExcl = endBlock === undefined ? latest + 1 : Number(endBlock > BigInt(latest + 1) ? BigInt(latest + 1) : endBlock < 0n ? 0n : endBlock)
    const first = transfersThroughTx(m, system, m.lastTxAt(lo - 1))
    const end = hiExcl <= lo ? first : transfersThroughTx(m, system, m.lastTxAt(hiExcl - 1))
    return { token: tokenRefOf(m, system), first, end, at: (seq) => this.renderTransfer(transferAt(m, system, seq)) }
  }

  private renderTransfer(t: ReturnType<typeof transferAt>): TokenTransfer {
    const m = this.model
    const h = m.counts.blockOf(t.n)
    const b = this.cores(h)
    const index = t.n - m.counts.total(h - 1)
    let logs = 0
    for (let i = 0; i < index; i++) logs += (b.cores[i] as TxCore).transfers.length
    return transferOf(m, t, h, index, b.time, logs)
  }

  /** Contract metadata for a deployed contract address (as of the latest block). */
  contract(address: string): ContractInfo | undefined {
    const m = this.model
    const r = m.refOf(address)
    if (r === undefined) return undefined
    const kind = kindOf(r)
    if (kind !== AddressKind.system && kind !== AddressKind.created) return undefined
    const i = indexOf(r)
    const n = kind === AddressKind.system ? (i < m.spec.systems.length ? i : undefined) : m.layout.creationTx(i)
    if (n === undefined || n > m.lastTxAt(this.latest())) return undefined
    const h = m.counts.blockOf(n)
    const tx = this.transactionAt(BigInt(h), n - m.counts.total(h - 1))
    if (!tx) return undefined
    const deployment = {
      txHash: tx.txHash,
      blockNumber: tx.blockNumber,
      deployerAddress: tx.from,
      ...(tx.method.callType === "CONTRACT_CALL" ? { deployerContractAddress: tx.to } : {})
    }
    if (kind === AddressKind.created) return { address: m.hex(r), kind: "created", name: `Contract ${i}`, deployment }
    const sys = m.spec.systems[i]
    if (!sys) return undefined
    return sys.token
      ? { address: m.hex(r), kind: "token", name: sys.name, token: tokenRefOf(m, i), deployment }
      : { address: m.hex(r), kind: sys.role === "token" ? "token" : sys.role, name: sys.name, deployment }
  }

  /**
   * Native balance in wei at a height (latest when omitted). Not derived from the transfers: a
   * deterministic amount per address that changes every 64 blocks once the address exists.
   */
  nativeBalance(address: string, height?: bigint): bigint {
    const m = this.model
    const h = height === undefined ? this.latest() : Number(height)
    const r = m.refOf(address)
    if (r === undefined) return 0n
    const first = m.firstTxOf(r)
    if (first === undefined || first > m.lastTxAt(h)) return 0n
    const kind = kindOf(r)
    if (kind === AddressKind.zero || kind === AddressKind.created) return 0n
    if (kind === AddressKind.system) return m.spec.systems[indexOf(r)]?.role === "dapp" ? bigBelow(m.sub("bal"), 10n ** 24n, r, Math.floor(h / 64)) : 0n
    const scale = kind === AddressKind.faucet ? 10n ** 27n : 10n ** 22n
    return bigBelow(m.sub("bal"), scale, r, Math.floor(h / 64), h32(m.salt, r % 2 ** 32) & 7)
  }

  /** Was the address seen on this chain (transactions 0..latest)? */
  knowsAddress(address: string): boolean {
    const r = this.model.refOf(address)
    if (r === undefined) return false
    const first = this.model.firstTxOf(r)
    return first !== undefined && first <= this.model.lastTxAt(this.latest())
  }

  nftToken(address: string, tokenId: bigint) {
    const s = this.tokenSystem(address)
    return s === undefined ? undefined : nftTokenOf(this, s, tokenId)
  }

  /** Addresses whose balance of the token exceeded `threshold` at some time in [startTime, endTime], with their latest balances. */
  holdersAbove(address: string, threshold: bigint, startTime: number, endTime: number) {
    const s = this.tokenSystem(address)
    return s === undefined ? undefined : holdersAbove(this, s, threshold, startTime, endTime)
  }

  nftHolders(address: string): NftHolders | undefined {
    const s = this.tokenSystem(address)
    return s === undefined ? undefined : nftHolders(this, s)
  }
}

export type { Ref }
