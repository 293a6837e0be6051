/**
 * The background txs of a chain's slots (chain.ts): one BaseTx between two parties the world does
 * not model, funded from before the history. What each draws is drawn here, once for both forms:
 * its record (Chain.background) and its signed bytes written straight from the draws for the
 * hashing pass (stakerAdds.ts says why; packages/emulator/test/primary/selfWritten.test.ts compares
 * them with the record's).
 */
import type { NetCtx, PxChain } from "./context.ts"
import { Kind } from "./ids.ts"
import { type SelfWritten, writeCredentials, writeInput, writeOutput, writeTxStart } from "./stakerAdds.ts"

const KIND: Readonly<Record<PxChain, Kind>> = { P: Kind.BackgroundPTx, X: Kind.BackgroundXTx }
/** The BaseTx's type id in each chain's codec (vms/platformvm/txs/codec.go, vms/avm/txs/codec.go). */
const BASE_TX: Readonly<Record<PxChain, number>> = { P: 34, X: 0 }

export interface BackgroundDraws {
  readonly id: string
  readonly amount: bigint
  readonly change: bigint
  /** The sender (its input and its change) and the receiver: 20-byte addresses. */
  party(n: 0 | 1): Uint8Array
  /** The locator of the output it spends: an ExternalTx of before the history. */
  readonly funding: readonly [number, number, number]
  readonly memo: Uint8Array
}

export const backgroundDraws = (ctx: NetCtx, chain: PxChain, h: number, slot: number): BackgroundDraws => ({
  id: ctx.id(KIND[chain], h, slot),
  amount: ctx.big(10_000_000n, 900_000_000_000n, "bg-amount", chain, h, slot),
  change: ctx.big(1_000_000n, 90_000_000_000n, "bg-change", chain, h, slot),
  party: (n) => ctx.shortId(Kind.ExternalAddress, 2 ** 26 + h, slot * 4 + n + (chain === "X" ? 2 : 0)),
  funding: [2 ** 27 + h, slot, chain === "P" ? 200 : 201],
  memo: ctx.bytes(ctx.int(0, 1, "bg-memo", chain, h, slot) * 8, "memo", chain, h, slot)
})

/** The background tx `slot` of block h timed at `at`, as the hashing pass takes it. */
export const backgroundWritten = (ctx: NetCtx, chain: PxChain, h: number, slot: number, at: number): SelfWritten => {
  const d = backgroundDraws(ctx, chain, h, slot)
  return {
    id: d.id,
    chain,
    type: "BaseTx",
    issueTime: at,
    // names no tx of the world: its funding is served as made
    signed: () =>
      writeTxStart(ctx, chain, BASE_TX[chain], (w, avax) => {
        w.u32(2)
        writeOutput(w, avax, d.amount, d.party(1))
        writeOutput(w, avax, d.change, d.party(0))
        w.u32(1)
        writeInput(w, ctx.idBytes(Kind.ExternalTx, ...d.funding), 0, avax, d.amount + d.change + ctx.cfg.txFee)
        w.bytes(d.memo)
        return writeCredentials(w, ctx, d.id, 1)
      })
  }
}
