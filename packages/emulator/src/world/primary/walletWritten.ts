/**
 * A wallet stream event's tx as a plan (what it spends, outputs and exports, and the external
 * party's side that balances it), shared by its record (Wallets.tx) and by its signed bytes written
 * straight from the plan for the hashing pass, as the derived ImportTx's (stakerAdds.ts says why;
 * packages/emulator/test/primary/selfWritten.test.ts compares them with the records' bytes).
 */
import type { NetCtx } from "./context.ts"
import type { Assets } from "./assets.ts"
import { owners } from "./codec/owners.ts"
import { bytesVia, idBytes, type IdBytesMap } from "./codec/idBytes.ts"
import { P_TX, SECP, X_TX } from "./codec/typeIds.ts"
import type { Writer } from "./codec/writer.ts"
import { Kind } from "./ids.ts"
import { type SelfWritten, writeTxStart } from "./stakerAdds.ts"
import type { Owners } from "./types.ts"
import type { OutSpec } from "./walletOutputs.ts"
import type { StreamChain, WalletEvent } from "./walletStreams.ts"

/** An output of an earlier event that this event spends. */
export interface Spent {
  readonly source: WalletEvent
  readonly o: number
  readonly spec: OutSpec
}

export interface WalletPlan {
  readonly id: string
  readonly specs: ReadonlyArray<OutSpec>
  readonly spent: ReadonlyArray<Spent>
  readonly exportOuts: ReadonlyArray<OutSpec>
  /** What the external party puts in (by asset slot: AVAX 0, the minted assets after) and takes out. */
  readonly extInputs: ReadonlyArray<{ readonly slot: number; readonly assetId: string; readonly amount: bigint }>
  readonly extOutputs: ReadonlyArray<{ readonly assetId: string; readonly amount: bigint }>
}

/** What each asset needs beyond what the event spends (its outputs, exports and fee), put in or taken out by the external party. */
export const balance = (ctx: NetCtx, assets: Assets, specs: ReadonlyArray<OutSpec>, spent: ReadonlyArray<Spent>, exportOuts: ReadonlyArray<OutSpec>): Pick<WalletPlan, "extInputs" | "extOutputs"> => {
  const assetOrder = [ctx.avaxAssetId, ...assets.all().map((a) => a.assetId)]
  const fee = ctx.cfg.txFee
  const extInputs: Array<WalletPlan["extInputs"][number]> = []
  const extOutputs: Array<WalletPlan["extOutputs"][number]> = []
  const inputs = spent.map((s) => s.spec)
  assetOrder.forEach((assetId, slot) => {
    const sum = (xs: ReadonlyArray<{ assetId: string; amount: bigint }>): bigint => xs.filter((x) => x.assetId === assetId).reduce((acc, x) => acc + x.amount, 0n)
    const need = sum(specs) + sum(exportOuts) + (slot === 0 ? fee : 0n) - sum(inputs)
    if (need > 0n) extInputs.push({ slot, assetId, amount: need })
    else if (need < 0n) extOutputs.push({ assetId, amount: -need })
  })
  return { extInputs, extOutputs }
}

/** Type ids of each chain's codec (codec/typeIds.ts). */
const TX_TYPE: Readonly<Record<StreamChain, { readonly BaseTx: number; readonly ImportTx: number; readonly ExportTx: number }>> = { P: P_TX, X: X_TX }
const OTHER: Readonly<Record<StreamChain, StreamChain>> = { P: "X", X: "P" }

export class WalletWriter {
  constructor(
    private readonly ctx: NetCtx,
    /** The wallets' own: the event's plan, its id, an import's id and its first address. */
    private readonly wallets: {
      plan(ev: WalletEvent): WalletPlan
      txId(ev: WalletEvent): string
      importTxId(exportEv: WalletEvent): string
      addresses(w: number): Uint8Array[]
    }
  ) {}

  private asset(assetId: string, ids: IdBytesMap): Uint8Array {
    // AVAX is served as it is; a minted asset by its CreateAssetTx's served id
    return assetId === this.ctx.avaxAssetId ? idBytes(assetId) : ids(assetId)
  }

  private output(w: Writer, assetId: string, amount: bigint, o: Owners, stakeableLocktime: bigint, ids: IdBytesMap): void {
    w.raw(this.asset(assetId, ids))
    if (stakeableLocktime > 0n) {
      w.u32(P_TX.StakeableLockOut)
      w.u64(stakeableLocktime)
    }
    w.u32(SECP.TransferOutput)
    w.u64(amount)
    owners(w, o)
  }

  private input(w: Writer, txId: Uint8Array, index: number, assetId: string, amount: bigint, stakeableLocktime: bigint, threshold: number, ids: IdBytesMap): void {
    w.raw(txId)
    w.u32(index)
    w.raw(this.asset(assetId, ids))
    if (stakeableLocktime > 0n) {
      w.u32(P_TX.StakeableLockIn)
      w.u64(stakeableLocktime)
    }
    w.u32(SECP.TransferInput)
    w.u64(amount)
    w.u32(threshold)
    for (let i = 0; i < threshold; i++) w.u32(i)
  }

  /** The credentials: `thresholds[k]` signatures for consumed input k (TxJson.signatures). */
  private credentials(w: Writer, id: string, thresholds: ReadonlyArray<number>): Uint8Array {
    w.u32(thresholds.length)
    thresholds.forEach((n, k) => {
      w.u32(SECP.Credential)
      w.u32(n)
      for (let s = 0; s < n; s++) w.raw(this.ctx.bytesOnce(65, "sig", id, k, s))
    })
    return w.copy()
  }

  /** The tx of a stream event, as Wallets.tx builds its record. */
  event(ev: WalletEvent): SelfWritten {
    const id = this.wallets.txId(ev)
    // planned once: the bytes are written again when an id they name was not hashed yet
    let plan: WalletPlan | undefined
    return { id, chain: ev.chain, type: ev.type, issueTime: ev.time, signed: (ids, bytesOf = bytesVia(ids)) => this.eventBytes(ev, (plan ??= this.wallets.plan(ev)), bytesOf) }
  }

  private eventBytes(ev: WalletEvent, p: WalletPlan, ids: IdBytesMap): Uint8Array {
    const { ctx } = this
    const exporting = ev.type === "ExportTx"
    return writeTxStart(ctx, ev.chain, exporting ? TX_TYPE[ev.chain].ExportTx : TX_TYPE[ev.chain].BaseTx, (w) => {
      w.u32(p.specs.length + p.extOutputs.length)
      for (const s of p.specs) this.output(w, s.assetId, s.amount, s.owners, s.stakeableLocktime, ids)
      p.extOutputs.forEach((x, k) => this.output(w, x.assetId, x.amount, ctx.owner(ctx.shortId(Kind.ExternalAddress, ev.wallet, ev.e + k * 100_000)), 0n, ids))
      w.u32(p.spent.length + p.extInputs.length)
      for (const s of p.spent) this.input(w, ids(this.wallets.txId(s.source)), s.o, s.spec.assetId, s.spec.amount, s.spec.stakeableLocktime, s.spec.owners.threshold, ids)
      for (const x of p.extInputs) this.input(w, ctx.idBytes(Kind.ExternalTx, ev.wallet, ev.e, (ev.chain === "P" ? 0 : 64) + x.slot), 0, x.assetId, x.amount, 0n, 1, ids)
      w.bytes(new Uint8Array(0))
      if (exporting) {
        w.raw(idBytes(ctx.chainIds[OTHER[ev.chain]]))
        w.u32(p.exportOuts.length)
        for (const s of p.exportOuts) this.output(w, s.assetId, s.amount, s.owners, 0n, ids)
      }
      return this.credentials(w, p.id, [...p.spent.map((s) => s.spec.owners.threshold), ...p.extInputs.map(() => 1)])
    })
  }

  /** The ImportTx taking an export's outputs out of shared memory at `at`, as Wallets.importTx builds its record. */
  importOf(exportEv: WalletEvent, at: number): SelfWritten {
    const id = this.wallets.importTxId(exportEv)
    let plan: WalletPlan | undefined
    return { id, chain: OTHER[exportEv.chain], type: "ImportTx", issueTime: at, signed: (ids, bytesOf = bytesVia(ids)) => this.importBytes(exportEv, id, (plan ??= this.wallets.plan(exportEv)), bytesOf) }
  }

  private importBytes(exportEv: WalletEvent, id: string, p: WalletPlan, ids: IdBytesMap): Uint8Array {
    const { ctx } = this
    const chain = OTHER[exportEv.chain]
    const localCount = p.specs.length + p.extOutputs.length
    const total = p.exportOuts.reduce((acc, s) => acc + s.amount, 0n)
    const exporter = ids(p.id)
    return writeTxStart(ctx, chain, TX_TYPE[chain].ImportTx, (w) => {
      w.u32(1)
      this.output(w, ctx.avaxAssetId, total - ctx.cfg.txFee, ctx.owner(this.wallets.addresses(exportEv.wallet)[0]!), 0n, ids)
      w.u32(0)
      w.bytes(new Uint8Array(0))
      w.raw(idBytes(ctx.chainIds[exportEv.chain]))
      w.u32(p.exportOuts.length)
      p.exportOuts.forEach((s, k) => this.input(w, exporter, localCount + k, s.assetId, s.amount, 0n, s.owners.threshold, ids))
      return this.credentials(w, id, p.exportOuts.map((s) => s.owners.threshold))
    })
  }
}
