/**
 * X-chain assets: AVAX (real id per network) plus a few minted ones, each created by a
 * CreateAssetTx early in the history whose id is the asset id: fixed-cap ones held by the world's
 * wallets, and one variable-cap asset whose minter, outside the wallets, mints more later with an
 * OperationTx (assetTxs.ts), so the X-chain has every tx type.
 */
import { AVAX_DENOMINATION } from "../constants.ts"
import type { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import type { AssetInfo } from "./types.ts"

const CATALOGUE: ReadonlyArray<{ readonly name: string; readonly symbol: string; readonly denomination: number }> = [
  { name: "Aurum Gold Token", symbol: "AGT", denomination: 6 },
  { name: "Harbor Credits", symbol: "HBC", denomination: 2 },
  { name: "Summit Shares", symbol: "SMT", denomination: 0 },
  { name: "Lumen Bond", symbol: "LMB", denomination: 9 },
  { name: "Orchard Points", symbol: "ORP", denomination: 4 },
  { name: "Glacier Coupon", symbol: "GLC", denomination: 8 }
]

export const ASSET_COUNT = 4

export interface MintedAsset extends AssetInfo {
  readonly index: number
  readonly createdAt: number
  /** The wallet holding the initial supply; -1 for the variable-cap asset, whose minter is outside the wallets. */
  readonly creatorWallet: number
  readonly initialSupply: bigint
  /** Variable-cap only: when its OperationTx mints more, and how much. */
  readonly mint?: { readonly at: number; readonly amount: bigint }
}

const VARIABLE_CAP = { name: "Tidewater Mintable", symbol: "TWM", denomination: 3 }

export class Assets {
  readonly avax: AssetInfo
  private readonly list: ReadonlyArray<MintedAsset>
  /** Locator index ASSET_COUNT. */
  readonly variableCap: MintedAsset

  constructor(private readonly ctx: NetCtx) {
    this.avax = { assetId: ctx.avaxAssetId, name: "Avalanche", symbol: "AVAX", denomination: AVAX_DENOMINATION }
    this.list = Array.from({ length: ASSET_COUNT }, (_, k) => this.make(k))
    const createdAt = ctx.start + Math.floor(ctx.cfg.spanSeconds / 3) + ctx.int(0, 3600, "asset-t", ASSET_COUNT)
    this.variableCap = {
      ...VARIABLE_CAP,
      index: ASSET_COUNT,
      assetId: ctx.id(Kind.AssetTx, ASSET_COUNT),
      createdAt,
      creatorWallet: -1,
      initialSupply: ctx.big(1_000_000n, 9_000_000n, "supply", ASSET_COUNT) * 1_000n,
      mint: { at: createdAt + Math.floor(ctx.cfg.spanSeconds / 10), amount: ctx.big(10_000n, 900_000n, "minted", ASSET_COUNT) * 1_000n }
    }
  }

  /** The asset of locator index k: a fixed-cap one, or the variable-cap one at ASSET_COUNT. */
  minted(k: number): MintedAsset | undefined {
    return k === ASSET_COUNT ? this.variableCap : this.list[k]
  }

  private make(k: number): MintedAsset {
    const { ctx } = this
    const offset = ctx.int(0, CATALOGUE.length - 1, "catalogue")
    const entry = CATALOGUE[(offset + k) % CATALOGUE.length] as (typeof CATALOGUE)[number]
    return {
      ...entry,
      index: k,
      assetId: ctx.id(Kind.AssetTx, k),
      createdAt: ctx.start + Math.floor(((k + 1) * ctx.cfg.spanSeconds) / 25) + ctx.int(0, 3600, "asset-t", k),
      creatorWallet: k % ctx.cfg.wallets,
      initialSupply: ctx.big(1_000_000n, 50_000_000n, "supply", k) * 10n ** BigInt(entry.denomination)
    }
  }

  /** The fixed-cap assets, which the wallets hold and trade. */
  all(): ReadonlyArray<MintedAsset> {
    return this.list
  }

  /** Every asset created besides AVAX, the variable-cap one included. */
  everyMinted(): ReadonlyArray<MintedAsset> {
    return [...this.list, this.variableCap]
  }

  /** AVAX or a minted asset by id (minted ones exist only once created by `t`). */
  byId(assetId: string, t: number): AssetInfo | undefined {
    if (assetId === this.avax.assetId) return this.avax
    const loc = this.ctx.locate(assetId)
    if (loc?.kind !== Kind.AssetTx) return undefined
    const a = this.minted(loc.a)
    return a && this.ctx.blockAt("X", a.createdAt).timestamp <= t ? a : undefined
  }
}
