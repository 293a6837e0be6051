/**
 * The node's platform.* methods (seed: P-chain methods), served on /ext/bc/P. Answers follow
 * avalanchego's field names; uint64 quantities are decimal strings.
 */
import type { RpcContext, RpcMethodDef } from "../http/contract.ts"
import { fromCb58 } from "../world/primary/ids.ts"
import { lookupChain, parseServiceAddress } from "./addresses.ts"
import { blockById, blockByHeight, txById } from "./encoded.ts"
import { U64_MAX, encodingParam, idParam, nodeIdListParam, serverError, stringListParam, stringParam, uintParam } from "./params.ts"
import { currentValidators } from "./validators.ts"
import { networkOf, toWire, type Wire } from "./wire.ts"

type Params = Record<string, unknown>

const p = (method: string, handle: (params: Params, ctx: RpcContext) => Wire): RpcMethodDef => ({ chain: "P", method, handle })

export const methods: ReadonlyArray<RpcMethodDef> = [
  p("platform.getBalance", (params, ctx) => {
    const net = networkOf(ctx)
    const addresses = stringListParam(params, "addresses").map((s) => parseServiceAddress(net, "P", s))
    const b = net.balances("P", addresses)
    const avax = (m: Readonly<Record<string, bigint>>): bigint => m[net.avaxAssetId] ?? 0n
    return toWire({
      balance: avax(b.balances),
      unlocked: avax(b.unlocked),
      lockedStakeable: avax(b.lockedStakeable),
      lockedNotStakeable: avax(b.lockedNotStakeable),
      balances: b.balances,
      unlockeds: b.unlocked,
      lockedStakeables: b.lockedStakeable,
      lockedNotStakeables: b.lockedNotStakeable,
      utxoIDs: b.utxoIDs
    })
  }),

  p("platform.getBlock", (params, ctx) => blockById(networkOf(ctx), "P", idParam(params, "blockID"), encodingParam(params, ["hex", "json"]))),

  p("platform.getBlockByHeight", (params, ctx) =>
    blockByHeight(networkOf(ctx), "P", uintParam(params, "height", U64_MAX), encodingParam(params, ["hex", "json"]))
  ),

  p("platform.getBlockchains", (_params, ctx) => ({ blockchains: toWire(networkOf(ctx).blockchains()) })),

  p("platform.getBlockchainStatus", (params, ctx) => {
    const net = networkOf(ctx)
    const given = stringParam(params, "blockchainID")
    if (given === "") throw serverError("argument 'blockchainID' not given")
    const alias = lookupChain(net, given)
    if (alias) return { status: net.blockchainStatus(net.blockchainIds[alias]) }
    const bytes = fromCb58(given)
    if (!bytes || bytes.length !== 32) throw serverError(`problem parsing blockchainID "${given}": not a cb58-encoded 32-byte id`)
    return { status: net.blockchainStatus(given) }
  }),

  p("platform.getCurrentSupply", (params, ctx) => {
    const net = networkOf(ctx)
    const supply = net.currentSupply(idParam(params, "subnetID"))
    if (supply === undefined) throw serverError("fetching current supply failed: not found")
    return { supply: supply.toString(), height: net.height("P").toString() }
  }),

  p("platform.getCurrentValidators", (params, ctx) =>
    currentValidators(networkOf(ctx), idParam(params, "subnetID"), nodeIdListParam(params, "nodeIDs"))
  ),

  // past the seed's list ("not shown"): the official document has it, and clients verify tx ids through it
  p("platform.getTx", (params, ctx) => txById(networkOf(ctx), "P", idParam(params, "txID"), encodingParam(params, ["hex", "json"])))
]
