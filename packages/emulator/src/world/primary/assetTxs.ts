/**
 * CreateAssetTx of each minted X-chain asset: the tx id is the asset id, and its initial state
 * holds the initial supply for the creating wallet's first address. The variable-cap asset's
 * creator is outside the wallets (Kind.ArchiveAddress, so none of this is indexed as a UTXO): its
 * initial state also holds a mint output, which its OperationTx later spends to mint more.
 */
import type { Assets, MintedAsset } from "./assets.ts"
import type { NetCtx } from "./context.ts"
import { Kind } from "./ids.ts"
import type { Owners, TxRecord, UtxoRecord } from "./types.ts"

export class AssetTxs {
  constructor(
    private readonly ctx: NetCtx,
    readonly assets: Assets
  ) {}

  /** Who holds a variable-cap asset's initial supply and mint output. */
  private minter(a: MintedAsset): Owners {
    return this.ctx.owner(this.ctx.shortId(Kind.ArchiveAddress, 10_000 + a.index))
  }

  private creator(a: MintedAsset): Owners {
    return a.creatorWallet < 0 ? this.minter(a) : this.ctx.owner(this.ctx.address(a.creatorWallet, 0))
  }

  createAssetTx(a: MintedAsset): TxRecord {
    const { ctx } = this
    const block = ctx.blockAt("X", a.createdAt)
    const genesis = ctx.blockRef("X", 0)
    const fee = ctx.cfg.createAssetTxFee
    const variable = a.mint !== undefined
    const mint: UtxoRecord = {
      txId: a.assetId,
      // the mint output sorts first in the initial state (its type id, 6, is below a transfer's, 7)
      outputIndex: variable ? 1 : 0,
      assetId: a.assetId,
      amount: a.initialSupply,
      owners: this.creator(a),
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
      owners: this.creator(a),
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
      asset: { assetId: a.assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, initialSupply: a.initialSupply, ...(variable ? { mintOwner: this.minter(a) } : {}) },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  /** The variable-cap asset's OperationTx: spends its mint output, mints `mint.amount` to the minter. */
  operationTx(a: MintedAsset): TxRecord {
    const { ctx } = this
    if (a.mint === undefined) throw new Error(`asset ${a.symbol} is fixed-cap: nothing mints it`)
    const id = ctx.id(Kind.AssetTx, a.index, 1)
    const block = ctx.blockAt("X", a.mint.at)
    const fee = ctx.cfg.txFee
    const funding: UtxoRecord = {
      txId: ctx.id(Kind.ExternalTx, 2 ** 27 - 1, a.index, 251),
      outputIndex: 0,
      assetId: ctx.avaxAssetId,
      amount: fee,
      owners: this.minter(a),
      stakeableLocktime: 0n,
      createdOn: "X",
      consumedOn: "X",
      created: ctx.blockRef("X", 0),
      listed: ctx.blockRef("X", 0),
      spent: { txId: id, block },
      kind: "transfer"
    }
    return {
      id,
      chain: "X",
      type: "OperationTx",
      block,
      issueTime: a.mint.at,
      inputs: [funding],
      outputs: [],
      operation: { assetId: a.assetId, spends: { txId: a.assetId, outputIndex: 0 }, minter: this.minter(a), to: this.minter(a), amount: a.mint.amount },
      memo: new Uint8Array(0),
      burned: fee
    }
  }

  txsIn(from: number, to: number): TxRecord[] {
    const v = this.assets.variableCap
    return [
      ...this.assets.everyMinted().filter((a) => a.createdAt >= from && a.createdAt < to).map((a) => this.createAssetTx(a)),
      ...(v.mint !== undefined && v.mint.at >= from && v.mint.at < to ? [this.operationTx(v)] : [])
    ]
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
