/**
 * The node's avm.* methods (seed: X-chain methods), served on /ext/bc/X and on the X-chain's
 * blockchain id. Answers follow avalanchego's field names; uint64 quantities are decimal strings.
 */
import type { RpcContext, RpcMethodDef } from "../http/contract.ts"
import { parseServiceAddress } from "./addresses.ts"
import { assetAlias, countedUtxos, lookupAssetId, sumsByAsset } from "./avmBalances.ts"
import { blockById, blockByHeight, txById } from "./encoded.ts"
import { getUtxos } from "./getUtxos.ts"
import { EMPTY_ID, U64_MAX, boolParam, encodingParam, idParam, serverError, stringParam, uintParam } from "./params.ts"
import { networkOf, type Wire } from "./wire.ts"

type Params = Record<string, unknown>

const x = (method: string, handle: (params: Params, ctx: RpcContext) => Wire): RpcMethodDef => ({ chain: "X", method, handle })

/** The address argument of the balance methods, with the node's "problem parsing address" prefix. */
const balanceAddress = (params: Params, ctx: RpcContext): Uint8Array => {
  const address = stringParam(params, "address")
  try {
    return parseServiceAddress(networkOf(ctx), "X", address)
  } catch (err) {
    throw serverError(`problem parsing address '${address}': ${err instanceof Error ? err.message : String(err)}`)
  }
}

export const methods: ReadonlyArray<RpcMethodDef> = [
  x("avm.getAllBalances", (params, ctx) => {
    const net = networkOf(ctx)
    const utxos = countedUtxos(net, balanceAddress(params, ctx), boolParam(params, "includePartial"))
    return { balances: sumsByAsset(net, utxos).map((s) => ({ asset: assetAlias(net, s.assetId), balance: s.balance.toString() })) }
  }),

  x("avm.getAssetDescription", (params, ctx) => {
    const net = networkOf(ctx)
    const assetId = lookupAssetId(net, stringParam(params, "assetID"))
    const asset = net.asset(assetId)
    if (!asset) throw serverError(net.tx(assetId, "X") ? "transaction doesn't create an asset" : "not found")
    return { assetID: asset.assetId, name: asset.name, symbol: asset.symbol, denomination: String(asset.denomination) }
  }),

  x("avm.getBalance", (params, ctx) => {
    const net = networkOf(ctx)
    const address = balanceAddress(params, ctx)
    const assetId = lookupAssetId(net, stringParam(params, "assetID"))
    const utxos = countedUtxos(net, address, boolParam(params, "includePartial")).filter((u) => u.assetId === assetId)
    return {
      balance: utxos.reduce((sum, u) => sum + u.amount, 0n).toString(),
      utxoIDs: utxos.map((u) => ({ txID: u.txId, outputIndex: u.outputIndex }))
    }
  }),

  x("avm.getBlock", (params, ctx) => blockById(networkOf(ctx), "X", idParam(params, "blockID"), encodingParam(params, ["hex", "json"]))),

  x("avm.getBlockByHeight", (params, ctx) =>
    blockByHeight(networkOf(ctx), "X", uintParam(params, "height", U64_MAX), encodingParam(params, ["hex", "json"]))
  ),

  x("avm.getHeight", (_params, ctx) => ({ height: networkOf(ctx).height("X").toString() })),

  x("avm.getTx", (params, ctx) => txById(networkOf(ctx), "X", idParam(params, "txID"), encodingParam(params, ["hex", "json"]))),

  x("avm.getTxFee", (_params, ctx) => {
    const fees = networkOf(ctx).txFee()
    return { txFee: fees.txFee.toString(), createAssetTxFee: fees.createAssetTxFee.toString() }
  }),

  x("avm.getTxStatus", (params, ctx) => {
    const txId = idParam(params, "txID")
    if (txId === EMPTY_ID) throw serverError("nil transaction ID")
    return { status: networkOf(ctx).txStatus(txId, "X") }
  }),

  x("avm.getUTXOs", getUtxos)
]
