/**
 * Wallets (the address sets): each owns 1–4 addresses and runs one stream of txs on the P-chain
 * and one on the X-chain. Event e of a stream happens at a jittered arithmetic time, so a block's
 * window maps to a few events per wallet without any index. An event spends some outputs of the
 * 1–10 events before it (a pure rule, so both "who spends (e,o)" and "what does e spend" are
 * arithmetic), and balances per asset against one external party, whose side is not modelled.
 *
 * Exports: an ExportTx event on one chain puts AVAX into shared memory for the other; a derived
 * ImportTx on the other chain takes it out a while later (seconds to two days), so atomic UTXOs
 * are pending in between.
 */
import { DAY } from "./config.ts"
import type { NetCtx } from "./context.ts"
import type { Assets } from "./assets.ts"
import { Kind } from "./ids.ts"
import { Lru } from "./lru.ts"
import { INDEX_HORIZON, TimeIndexBuilder, type TimeIndex } from "./timeIndex.ts"
import { MAX_SPEND_OFFSET, drawOutSpecs, exportSpecs, spentOutputs, type OutSpec } from "./walletOutputs.ts"
import type { BlockRef, Owners, TxRecord, UtxoRecord } from "./types.ts"
import { StreamTiming, type StreamChain, type WalletEvent } from "./walletStreams.ts"
import type { HashedTx } from "./chain.ts"
import type { SelfWritten } from "./stakerAdds.ts"
import { WalletWriter, balance, type Spent, type WalletPlan } from "./walletWritten.ts"

export type { StreamChain, WalletEvent, WalletEventType } from "./walletStreams.ts"

const MAX_IMPORT_DELAY = 2 * DAY
const OTHER: Readonly<Record<StreamChain, StreamChain>> = { P: "X", X: "P" }
const STREAM_KIND: Readonly<Record<StreamChain, Kind>> = { P: Kind.WalletPTx, X: Kind.WalletXTx }
const IMPORT_KIND: Readonly<Record<StreamChain, Kind>> = { P: Kind.WalletImportPTx, X: Kind.WalletImportXTx }

export class Wallets {
  /**
   * Per chain, by time: its stream events, and the imports onto it (by import time) of the other
   * chain's exports. Built on first use (null: not buildable, the windows are scanned).
   */
  private readonly specMemo = new Lru<number | string, OutSpec[]>(32_768)
  private readonly timing: StreamTiming
  private readonly indexes: Partial<Record<StreamChain, { readonly events: TimeIndex; readonly imports: TimeIndex } | null>> = {}
  private readonly writer: WalletWriter

  constructor(
    private readonly ctx: NetCtx,
    private readonly assets: Assets
  ) {
    this.timing = new StreamTiming(ctx, this.count)
    this.writer = new WalletWriter(ctx, this)
  }

  get count(): number {
    return this.ctx.cfg.wallets
  }

  addressCount(w: number): number {
    return this.ctx.walletAddressCount(w)
  }

  addresses(w: number): Uint8Array[] {
    return Array.from({ length: this.addressCount(w) }, (_, a) => this.ctx.address(w, a))
  }

  /** Wallet of a 20-byte address, when it is one of this world's wallet addresses. */
  walletOf(address: Uint8Array): number | undefined {
    const loc = this.ctx.locateShort(address)
    if (loc?.kind !== Kind.Address || loc.a >= this.count || loc.b >= this.addressCount(loc.a)) return undefined
    return loc.a
  }

  // — stream timing (walletStreams.ts) —

  eventTime(w: number, chain: StreamChain, e: number): number {
    return this.timing.eventTime(w, chain, e)
  }

  event(w: number, chain: StreamChain, e: number): WalletEvent {
    return this.timing.event(w, chain, e)
  }

  private indicesIn(w: number, chain: StreamChain, from: number, to: number): number[] {
    return this.timing.indicesIn(w, chain, from, to)
  }

  eventsIn(chain: StreamChain, from: number, to: number): WalletEvent[] {
    const out: WalletEvent[] = []
    for (let w = 0; w < this.count; w++) for (const e of this.indicesIn(w, chain, from, to)) out.push(this.event(w, chain, e))
    return out
  }

  /** Events of wallet w on chain whose block is revealed at t. */
  private eventsVisibleAt(w: number, chain: StreamChain, t: number): WalletEvent[] {
    // a block may hold events timed after its own timestamp: look a little past t, then filter
    return this.indicesIn(w, chain, Number.MIN_SAFE_INTEGER / 4, t + 7 * DAY)
      .map((e) => this.event(w, chain, e))
      .filter((ev) => this.ctx.blockAt(chain, ev.time).timestamp <= t)
  }

  // — imports derived from exports —

  /** When an export's outputs are imported; undefined for the quarter never imported (left in shared memory, as happens). */
  importTime(exportEv: WalletEvent): number | undefined {
    const keys = [exportEv.chain, exportEv.wallet, exportEv.e] as const
    if (this.ctx.unit("never-imported", ...keys) < 0.25) return undefined
    return exportEv.time + this.ctx.int(60, MAX_IMPORT_DELAY, "import-delay", ...keys)
  }

  /** Exports of the other chain whose import onto `chain` is timed in [from, to). */
  importsIn(chain: StreamChain, from: number, to: number): WalletEvent[] {
    const src = OTHER[chain]
    return this.eventsIn(src, from - MAX_IMPORT_DELAY, to).filter((ev) => {
      if (ev.type !== "ExportTx") return false
      const t = this.importTime(ev)
      return t !== undefined && t >= from && t < to
    })
  }

  importTxId(exportEv: WalletEvent): string {
    return this.ctx.id(IMPORT_KIND[OTHER[exportEv.chain]], exportEv.wallet, exportEv.e)
  }

  // — outputs —

  txId(ev: WalletEvent): string {
    return this.ctx.id(STREAM_KIND[ev.chain], ev.wallet, ev.e)
  }

  /** An event's outputs: drawn for the event's tx, and again by each of the next 10 events to find what they spend. */
  private outSpecs(ev: WalletEvent): OutSpec[] {
    // one number where wallet and event fit 22 + 30 bits (a string otherwise)
    const key = ev.wallet === (ev.wallet & 0x3fffff) && ev.e === (ev.e & 0x3fffffff) ? (ev.e * 0x400000 + ev.wallet) * 2 + (ev.chain === "P" ? 0 : 1) : `${ev.chain}.${ev.wallet}.${ev.e}`
    return this.specMemo.get(key, () => drawOutSpecs(this.ctx, this.assets, this.addresses(ev.wallet), ev))
  }

  private block(chain: StreamChain, t: number): BlockRef {
    return this.ctx.blockAt(chain, t)
  }

  /** Outputs of earlier events spent by ev, as (event, output index); only those events' outputs are drawn whole. */
  private spentBy(ev: WalletEvent): Spent[] {
    const out: Spent[] = []
    const { wallet: w, chain } = ev
    const spent: number[] = []
    for (let d = MAX_SPEND_OFFSET; d >= 1; d--) {
      const e = ev.e - d
      if (e < 0) continue
      spent.length = 0
      spentOutputs(this.timing.paths, chain, w, e, this.timing.type(w, chain, e), d, spent)
      if (spent.length === 0) continue
      const source = this.event(w, chain, e)
      const specs = this.outSpecs(source)
      for (const o of spent) out.push({ source, o, spec: specs[o]! })
    }
    return out
  }

  private localUtxo(ev: WalletEvent, o: number, spec: OutSpec): UtxoRecord {
    const spender = spec.spendOffset === undefined ? undefined : this.event(ev.wallet, ev.chain, ev.e + spec.spendOffset)
    const block = this.block(ev.chain, ev.time)
    return {
      txId: this.txId(ev),
      outputIndex: o,
      assetId: spec.assetId,
      amount: spec.amount,
      owners: spec.owners,
      stakeableLocktime: spec.stakeableLocktime,
      createdOn: ev.chain,
      consumedOn: ev.chain,
      created: block,
      listed: block,
      spent: spender && { txId: this.txId(spender), block: this.block(ev.chain, spender.time) },
      kind: "transfer"
    }
  }

  private externalUtxo(ev: WalletEvent, assetSlot: number, assetId: string, amount: bigint, spentBy: string): UtxoRecord {
    const chain = ev.chain
    return {
      txId: this.ctx.id(Kind.ExternalTx, ev.wallet, ev.e, (chain === "P" ? 0 : 64) + assetSlot),
      outputIndex: 0,
      assetId,
      amount,
      owners: this.ctx.owner(this.ctx.shortId(Kind.ExternalAddress, ev.wallet, ev.e)),
      stakeableLocktime: 0n,
      createdOn: chain,
      consumedOn: chain,
      // funded before the generated history: shown as created at genesis
      created: this.ctx.blockRef(chain, 0),
      listed: this.ctx.blockRef(chain, 0),
      spent: { txId: spentBy, block: this.block(chain, ev.time) },
      kind: "transfer"
    }
  }

  /** What a stream event's tx spends, outputs and exports, and the external party's side (walletWritten.ts). */
  plan(ev: WalletEvent): WalletPlan {
    const specs = this.outSpecs(ev)
    const spent = this.spentBy(ev)
    // an export's outputs name the wallet's addresses: drawn only for an export
    const exportOuts = ev.type === "ExportTx" ? exportSpecs(this.ctx, this.addresses(ev.wallet), ev) : []
    return { id: this.txId(ev), specs, spent, exportOuts, ...balance(this.ctx, this.assets, specs, spent, exportOuts) }
  }

  /** The full tx of a stream event: inputs, outputs, external balance, exports. */
  tx(ev: WalletEvent): TxRecord {
    const { ctx } = this
    const { id, specs, spent, exportOuts, extInputs: ext, extOutputs } = this.plan(ev)
    const outputs: UtxoRecord[] = specs.map((s, o) => this.localUtxo(ev, o, s))
    const inputs: UtxoRecord[] = spent.map(({ source, o, spec }) => this.localUtxo(source, o, spec))
    const fee = ctx.cfg.txFee
    const extInputs = ext.map((x) => this.externalUtxo(ev, x.slot, x.assetId, x.amount, id))
    extOutputs.forEach((x, k) => {
      outputs.push({
        txId: id,
        outputIndex: outputs.length,
        assetId: x.assetId,
        amount: x.amount,
        owners: ctx.owner(ctx.shortId(Kind.ExternalAddress, ev.wallet, ev.e + k * 100_000)),
        stakeableLocktime: 0n,
        createdOn: ev.chain,
        consumedOn: ev.chain,
        created: this.block(ev.chain, ev.time),
        listed: this.block(ev.chain, ev.time),
        spent: undefined,
        kind: "transfer"
      })
    })
    const base = {
      id,
      chain: ev.chain,
      type: ev.type,
      block: this.block(ev.chain, ev.time),
      issueTime: ev.time,
      inputs: [...inputs, ...extInputs],
      outputs,
      memo: new Uint8Array(0),
      burned: fee
    }
    if (ev.type !== "ExportTx") return base
    return { ...base, exported: { destinationChain: OTHER[ev.chain], utxos: this.exportedUtxos(ev, outputs.length, exportOuts) } }
  }

  private exportedUtxos(ev: WalletEvent, localCount: number, specs: ReadonlyArray<OutSpec>): UtxoRecord[] {
    const dest = OTHER[ev.chain]
    const importAt = this.importTime(ev)
    const spent = importAt === undefined ? undefined : { txId: this.importTxId(ev), block: this.block(dest, importAt) }
    return specs.map((s, k) => ({
      txId: this.txId(ev),
      outputIndex: localCount + k,
      assetId: s.assetId,
      amount: s.amount,
      owners: s.owners,
      stakeableLocktime: 0n,
      createdOn: ev.chain,
      consumedOn: dest,
      created: this.block(ev.chain, ev.time),
      listed: this.block(ev.chain, ev.time),
      spent,
      kind: "transfer"
    }))
  }

  /** The ImportTx on the other chain that takes an export's outputs out of shared memory. */
  importTx(exportEv: WalletEvent): TxRecord | undefined {
    const chain = OTHER[exportEv.chain]
    const at = this.importTime(exportEv)
    if (at === undefined) return undefined
    const exported = this.tx(exportEv).exported?.utxos ?? []
    const id = this.importTxId(exportEv)
    const fee = this.ctx.cfg.txFee
    const total = exported.reduce((acc, u) => acc + u.amount, 0n)
    const owner = this.ctx.owner(this.addresses(exportEv.wallet)[0] as Uint8Array)
    const out: UtxoRecord = {
      txId: id,
      outputIndex: 0,
      assetId: this.ctx.avaxAssetId,
      amount: total - fee,
      owners: owner,
      stakeableLocktime: 0n,
      createdOn: chain,
      consumedOn: chain,
      created: this.block(chain, at),
      listed: this.block(chain, at),
      spent: undefined,
      kind: "transfer"
    }
    return {
      id,
      chain,
      type: "ImportTx",
      block: this.block(chain, at),
      issueTime: at,
      inputs: [],
      outputs: [out],
      imported: { sourceChain: exportEv.chain, utxos: exported },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  /** Every tx of the wallet streams and imports on `chain` timed in [from, to). */
  txsIn(chain: StreamChain, from: number, to: number): TxRecord[] {
    const index = this.timeIndex(chain)
    if (index !== undefined && index.events.covers(to) && index.imports.covers(to)) {
      const out: TxRecord[] = []
      index.events.forEachIn(from, to, (w, e) => out.push(this.tx(this.event(w, chain, e))))
      index.imports.forEachIn(from, to, (w, e) => out.push(this.importTx(this.event(w, OTHER[chain], e)) as TxRecord))
      return out
    }
    return this.scanTxsIn(chain, from, to)
  }

  /** The txs of txsIn as the hashing pass takes them: written from their plans (walletWritten.ts); past the index's horizon, the records. */
  hashTxsIn(chain: StreamChain, from: number, to: number): HashedTx[] {
    const index = this.timeIndex(chain)
    if (index === undefined || !index.events.covers(to) || !index.imports.covers(to)) return this.scanTxsIn(chain, from, to)
    const out: HashedTx[] = []
    index.events.forEachIn(from, to, (w, e) => out.push(this.writer.event(this.event(w, chain, e))))
    index.imports.forEachIn(from, to, (w, e) => {
      const ev = this.event(w, OTHER[chain], e)
      out.push(this.writer.importOf(ev, this.importTime(ev) as number))
    })
    return out
  }

  /** The same txs by asking every wallet (windows past the index's horizon). */
  private scanTxsIn(chain: StreamChain, from: number, to: number): TxRecord[] {
    const imports = this.importsIn(chain, from, to).map((ev) => this.importTx(ev))
    return [...this.eventsIn(chain, from, to).map((ev) => this.tx(ev)), ...imports.filter((t): t is TxRecord => t !== undefined)]
  }

  /**
   * The events eventsIn and importsIn find, indexed once: every wallet's events on `chain` (event
   * times grow with e) and the other chain's exports by their import time (after the export's).
   */
  private timeIndex(chain: StreamChain): { readonly events: TimeIndex; readonly imports: TimeIndex } | undefined {
    if (this.indexes[chain] === undefined) {
      const horizon = this.ctx.anchor + INDEX_HORIZON
      const events = new TimeIndexBuilder(horizon)
      const imports = new TimeIndexBuilder(horizon)
      for (let w = 0; w < this.count; w++) {
        for (let e = 0; ; e++) {
          const t = this.eventTime(w, chain, e)
          if (t >= horizon) break
          events.add(t, w, e, 0)
        }
        for (let e = 0; ; e++) {
          const ev = this.event(w, OTHER[chain], e)
          if (ev.time >= horizon) break
          const at = ev.type === "ExportTx" ? this.importTime(ev) : undefined
          if (at !== undefined) imports.add(at, w, e, 0)
        }
      }
      const built = { events: events.build(), imports: imports.build() }
      this.indexes[chain] = built.events && built.imports ? { events: built.events, imports: built.imports } : null
    }
    return this.indexes[chain] ?? undefined
  }

  /** A wallet tx by locator (stream event or derived import), whether or not revealed yet. */
  txByLocator(kind: Kind, w: number, e: number): TxRecord | undefined {
    if (w >= this.count) return undefined
    if (kind === Kind.WalletPTx || kind === Kind.WalletXTx) return this.tx(this.event(w, kind === Kind.WalletPTx ? "P" : "X", e))
    if (kind === Kind.WalletImportPTx || kind === Kind.WalletImportXTx) {
      const src: StreamChain = kind === Kind.WalletImportPTx ? "X" : "P"
      const ev = this.event(w, src, e)
      return ev.type === "ExportTx" ? this.importTx(ev) : undefined
    }
    return undefined
  }

  /** txByLocator's tx as the hashing pass takes it: it writes its own bytes (walletWritten.ts). */
  writtenByLocator(kind: Kind, w: number, e: number): SelfWritten | undefined {
    if (w >= this.count) return undefined
    if (kind === Kind.WalletPTx || kind === Kind.WalletXTx) return this.writer.event(this.event(w, kind === Kind.WalletPTx ? "P" : "X", e))
    const ev = this.event(w, kind === Kind.WalletImportPTx ? "X" : "P", e)
    const at = ev.type === "ExportTx" ? this.importTime(ev) : undefined
    return at === undefined ? undefined : this.writer.importOf(ev, at)
  }

  /**
   * Every output of wallet w consumable on `chain` whose creating block is revealed at t, spent or
   * not (the caller filters by spend and owner): stream outputs, imports, and exports from the
   * other chain.
   */
  utxos(w: number, chain: StreamChain, t: number): UtxoRecord[] {
    const mine = new Set(this.addresses(w).map((a) => Buffer.from(a).toString("hex")))
    const owned = (u: UtxoRecord): boolean => u.owners.addresses.some((a) => mine.has(Buffer.from(a).toString("hex")))
    const out: UtxoRecord[] = []
    for (const ev of this.eventsVisibleAt(w, chain, t)) {
      this.outSpecs(ev).forEach((spec, o) => out.push(this.localUtxo(ev, o, spec)))
    }
    for (const ev of this.eventsVisibleAt(w, OTHER[chain], t)) {
      if (ev.type !== "ExportTx") continue
      out.push(...(this.tx(ev).exported?.utxos ?? []))
      const at = this.importTime(ev)
      if (at !== undefined && this.block(chain, at).timestamp <= t) out.push(...(this.importTx(ev)?.outputs ?? []))
    }
    return out.filter(owned)
  }
}
