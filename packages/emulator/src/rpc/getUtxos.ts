/**
 * avm.getUTXOs (seed rules 1–7). The UTXOs and their bytes are the primary world's node view, the
 * same records and the same hex its REST UTXO routes serve; this module only pages them.
 *
 * - addresses are required (1…1024), each "X-<hrp>1…" of the serving chain or a cb58 short id;
 * - limit 0, omitted or above 1024 means 1024;
 * - startIndex {address, utxo} continues after that key; endIndex is the last key returned;
 * - sourceChain (alias or id) returns the atomic UTXOs exported from that chain to this one;
 * - encoding can only be hex;
 * - with the world's utxoChurn option, pages overlap and the set flickers (churn.ts).
 */
import type { RpcContext } from "../http/contract.ts"
import { cb58, fromCb58 } from "../world/primary/ids.ts"
import type { ChainLetter } from "../world/primary/types.ts"
import { formatAddress, lookupChain, parseServiceAddress } from "./addresses.ts"
import { churnedSet, nextCall, overlaps } from "./churn.ts"
import { U32_MAX, encodingParam, invalidRequest, serverError, stringListParam, stringParam, uintParam } from "./params.ts"
import { keyUtxos, pageAfter, type IndexKey } from "./utxoPages.ts"
import { networkOf, type Wire } from "./wire.ts"

export const MAX_UTXO_PAGE = 1024
export const MAX_UTXO_ADDRESSES = 1024

type Params = Record<string, unknown>

const startKey = (params: Params, parseAddress: (s: string) => Uint8Array): IndexKey | undefined => {
  const raw = params.startIndex
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalidRequest("json: cannot unmarshal startIndex into Go struct field .startIndex of type api.Index")
  const index = raw as Params
  const address = stringParam(index, "address")
  const utxo = stringParam(index, "utxo")
  if (address === "" && utxo === "") return undefined
  let addressBytes: Uint8Array
  try {
    addressBytes = parseAddress(address)
  } catch (err) {
    throw serverError(`couldn't parse start index address "${address}": ${err instanceof Error ? err.message : String(err)}`)
  }
  const utxoBytes = fromCb58(utxo)
  if (!utxoBytes || utxoBytes.length !== 32) throw serverError(`couldn't parse start index utxo: "${utxo}" is not a cb58-encoded 32-byte id`)
  return { address: addressBytes, utxo: utxoBytes }
}

const pageLimit = (params: Params): number => {
  const asked = uintParam(params, "limit", U32_MAX)
  return asked === 0n || asked > BigInt(MAX_UTXO_PAGE) ? MAX_UTXO_PAGE : Number(asked)
}

export const getUtxos = (params: Params, ctx: RpcContext): Wire => {
  const net = networkOf(ctx)
  const chain: ChainLetter = ctx.chain
  const given = stringListParam(params, "addresses")
  encodingParam(params, ["hex"])
  if (given.length === 0) throw serverError("no addresses provided")
  if (given.length > MAX_UTXO_ADDRESSES) throw serverError(`number of addresses given, ${given.length}, exceeds maximum, ${MAX_UTXO_ADDRESSES}`)
  const sourceChain = stringParam(params, "sourceChain")
  const source = sourceChain === "" ? chain : lookupChain(net, sourceChain)
  if (!source) throw serverError(`problem parsing source chainID "${sourceChain}": there is no chain with alias/ID "${sourceChain}"`)
  const addresses = given.map((s) => parseServiceAddress(net, chain, s))
  const start = startKey(params, (s) => parseServiceAddress(net, chain, s))
  const limit = pageLimit(params)

  const utxos = net.utxos(chain === "P" ? "P" : "X", addresses, source === chain ? { view: "node" } : { view: "node", sourceChain: source })
  const keyed = keyUtxos(utxos, addresses, (u) => fromCb58(net.utxoId(u)) as Uint8Array)
  const churn = ctx.world.options.utxoChurn
  const set = churn ? churnedSet(keyed, nextCall(ctx.world)) : keyed
  const page = pageAfter(set, start, limit, churn && start !== undefined && overlaps(limit))

  return {
    numFetched: String(page.items.length),
    utxos: page.items.map((k) => net.utxoHex(k.record)),
    endIndex: { address: formatAddress(net, chain, page.end.address), utxo: cb58(page.end.utxo) },
    ...(sourceChain === "" ? {} : { sourceChain }),
    encoding: "hex"
  }
}
