/**
 * CreateAssetTx of each minted X-chain asset: the tx id is the asset id, and its single output
 * mints the initial supply to the creating wallet's first address.
 */
import type { Assets, MintedAsset } from "./assets.ts"
import type { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import type { TxRecord, UtxoRecord } from "./types.ts"

export class AssetTxs {
  constructor(
    private readonly ctx: NetCtx,
    readonly assets: Assets
  ) {}

  createAssetTx(a: MintedAsset): TxRecord {
    const { ctx } = this
    const block = ctx.blockAt("X", a.createdAt)
    const genesis = ctx.blockRef("X", 0)
    const fee = ctx.cfg.createAssetTxFee
    const mint: UtxoRecord = {
      txId: a.assetId,
      outputIndex: 0,
      assetId: a.assetId,
      amount: a.initialSupply,
      owners: ctx.owner(ctx.address(a.creatorWallet, 0)),
      stakeableLocktime: 0n,
      createdOn: "X",
      consumedOn: "X",
      created: block,
      listed: block,
      spent: undefined,
      kind: "transfer"
    }
    const funding: UtxoRecord = {
      ...mint,
      txId: ctx.id(Kind.ExternalTx, 2 ** 27 - 1, a.index, 250),
      assetId: ctx.avaxAssetId,
      amount: fee,
      owners: ctx.owner(ctx.address(a.creatorWallet, 0)),
      created: genesis,
      listed: genesis,
      spent: { txId: a.assetId, block }
    }
    return {
      id: a.assetId,
      chain: "X",
      type: "CreateAssetTx",
      block,
      issueTime: a.createdAt,
      inputs: [funding],
      outputs: [mint],
      asset: { assetId: a.assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, initialSupply: a.initialSupply },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  txsIn(from: number, to: number): TxRecord[] {
    return this.assets
      .all()
      .filter((a) => a.createdAt >= from && a.createdAt < to)
      .map((a) => this.createAssetTx(a))
  }

  /** Outputs of wallet w from asset creation (mint and its funding), created by t + slack. */
  walletUtxos(w: number): UtxoRecord[] {
    return this.assets
      .all()
      .filter((a) => a.creatorWallet === w)
      .flatMap((a) => {
        const tx = this.createAssetTx(a)
        return [...tx.inputs, ...tx.outputs]
      })
  }
}
