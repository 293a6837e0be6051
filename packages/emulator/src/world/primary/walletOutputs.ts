/**
 * What a wallet's stream event outputs: a pure draw from the event's keys, so both the event's own
 * tx and each of the next MAX_SPEND_OFFSET events (looking for what they spend) get the same outputs.
 */
import { DAY } from "./config.ts"
import type { NetCtx } from "./context.ts"
import type { Assets } from "./assets.ts"
import type { Owners } from "./types.ts"
import type { StreamChain, WalletEvent, WalletEventType } from "./walletStreams.ts"
import type { WalletPaths } from "./walletPaths.ts"

export const MAX_SPEND_OFFSET = 10

export interface OutSpec {
  readonly assetId: string
  readonly amount: bigint
  readonly owners: Owners
  readonly stakeableLocktime: bigint
  /** Spent by the event this many later; undefined = never. */
  readonly spendOffset: number | undefined
}

/** How many outputs an event's tx has (an ExportTx's AVAX goes mostly into its exports). */
const OUTPUTS: Readonly<Record<WalletEventType, readonly [number, number]>> = { ExportTx: [0, 1], BaseTx: [1, 3] }

/**
 * Whether an output's lock draw locks it: under 0.05 until a month after the event (its
 * locktime), then on the P-chain up to 0.09 stakeable-locked; a locked output is never spent.
 * (Both locktimes are event times plus days, never 0.)
 */
const locked = (chain: StreamChain, lockDraw: number): boolean => lockDraw < 0.05 || (chain === "P" && lockDraw < 0.09)

/** Of an unlocked output, the later event that spends it (over half are spent), from its spend and offset draws. */
const spendOffset = (spend: number, offset: () => number): number | undefined => (spend < 0.55 ? 1 + Math.floor(offset() * MAX_SPEND_OFFSET) : undefined)

/**
 * The outputs of event e (of `type`) of wallet w's stream that event e + d spends, in output
 * order, into `out`: drawOutSpecs' spend offsets alone, from the wallet's held draw paths. An
 * event looks up what it spends among ten earlier events, so drawing their whole outputs (or
 * memoising them) cost more than the few draws that say which are spent.
 */
export const spentOutputs = (paths: WalletPaths, chain: StreamChain, w: number, e: number, type: WalletEventType, d: number, out: number[]): void => {
  const [lo, hi] = OUTPUTS[type]
  const n = paths.int(lo, hi, "n-out", chain, w, e)
  for (let o = 0; o < n; o++) {
    if (locked(chain, paths.unitOf("lock", chain, w, e, o))) continue
    if (spendOffset(paths.unitOf("spend", chain, w, e, o), () => paths.unitOf("offset", chain, w, e, o)) === d) out.push(o)
  }
}

/** The outputs of a stream event's tx: how many, of which asset, to whom, locked or not, and which later event spends each. */
export const drawOutSpecs = (ctx: NetCtx, assets: Assets, addrs: ReadonlyArray<Uint8Array>, ev: WalletEvent): OutSpec[] => {
  const keys = [ev.chain, ev.wallet, ev.e] as const
  const [lo, hi] = OUTPUTS[ev.type]
  const n = ctx.int(lo, hi, "n-out", ...keys)
  const minted = ev.chain === "X" ? assets.all().filter((a) => ctx.blockAt("X", a.createdAt).timestamp < ev.time) : []
  return Array.from({ length: n }, (_, o) => {
    const r = (tag: string): number => ctx.unit(tag, ...keys, o)
    const asset = minted.length > 0 && r("asset") < 0.3 ? minted[Math.floor(r("which") * minted.length)] : undefined
    const amount =
      asset === undefined
        ? ctx.big(50_000_000n, 400_000_000_000n, "amount", ...keys, o)
        : ctx.big(1n, 1_000_000n, "amount", ...keys, o) * 10n ** BigInt(asset.denomination)
    const lockDraw = r("lock")
    const locktime = lockDraw < 0.05 ? BigInt(ev.time + 30 * DAY) : 0n
    const stakeableLocktime = ev.chain === "P" && lockDraw >= 0.05 && lockDraw < 0.09 ? BigInt(ev.time + 90 * DAY) : 0n
    const multisig = addrs.length >= 2 && r("multisig") < 0.12
    const owners: Owners = multisig
      ? { addresses: [addrs[0] as Uint8Array, addrs[1] as Uint8Array], threshold: r("threshold") < 0.5 ? 1 : 2, locktime }
      : { addresses: [addrs[Math.floor(r("owner") * addrs.length)] as Uint8Array], threshold: 1, locktime }
    const spends = locked(ev.chain, lockDraw) ? undefined : spendOffset(r("spend"), () => r("offset"))
    return { assetId: asset?.assetId ?? ctx.avaxAssetId, amount, owners, stakeableLocktime, spendOffset: spends }
  })
}

/** The AVAX an ExportTx puts into shared memory for the other chain, to the wallet's own addresses. */
export const exportSpecs = (ctx: NetCtx, addrs: ReadonlyArray<Uint8Array>, ev: WalletEvent): OutSpec[] => {
if (ev.type !== "ExportTx") return []
  const keys = [ev.chain, ev.wallet, ev.e] as const
  return Array.from({ length: ctx.int(1, 2, "n-export", ...keys) }, (_, k) => ({
    assetId: ctx.avaxAssetId,
    amount: ctx.big(1_000_000_000n, 200_000_000_000n, "export-amount", ...keys, k),
    owners: ctx.owner(addrs[k % addrs.length] as Uint8Array),
    stakeableLocktime: 0n,
    spendOffset: undefined
  }))
}
