/**
 * Address arguments as avalanchego's ParseServiceAddress reads them: a cb58 short id, or
 * "<chain>-<bech32>" whose chain is the serving chain (alias or id) and whose prefix is the
 * network's. Failures are handler errors (-32000) worded like the node's.
 */
import type { PrimaryNetwork } from "../world/primary/index.ts"
import { fromCb58 } from "../world/primary/ids.ts"
import type { ChainLetter } from "../world/primary/types.ts"
import { lib } from "../world/primary/codec/avalanche.ts"
import { serverError } from "./params.ts"

const SHORT_ID_BYTES = 20

/** P, X or C for an alias or blockchain id of the network, as the node's chain lookup resolves it. */
export const lookupChain = (net: PrimaryNetwork, aliasOrId: string): ChainLetter | undefined => {
  if (aliasOrId === "P" || aliasOrId === "X" || aliasOrId === "C") return aliasOrId
  const ids = net.blockchainIds
  return aliasOrId === ids.P ? "P" : aliasOrId === ids.X ? "X" : aliasOrId === ids.C ? "C" : undefined
}

const bech32Parts = (s: string): [string, Uint8Array] => {
  try {
    return lib.utils.parseBech32(s)
  } catch (err) {
    throw new Error(`invalid bech32 string: ${err instanceof Error ? err.message : String(err)}`)
  }
}

const parseLocal = (net: PrimaryNetwork, chain: ChainLetter, s: string): Uint8Array => {
  const dash = s.indexOf("-")
  if (dash < 0) throw new Error("no separator found in address")
  const alias = s.slice(0, dash)
  const [hrp, bytes] = bech32Parts(s.slice(dash + 1))
  const addressChain = lookupChain(net, alias)
  if (!addressChain) throw new Error(`there is no chain with alias/ID "${alias}"`)
  if (hrp !== net.hrp) throw new Error(`expected hrp "${net.hrp}" but got "${hrp}"`)
  if (addressChain !== chain) {
    throw new Error(`mismatched chainIDs: expected "${net.blockchainIds[chain]}" but got "${net.blockchainIds[addressChain]}"`)
  }
  if (bytes.length !== SHORT_ID_BYTES) throw new Error(`expected ${SHORT_ID_BYTES} bytes but got ${bytes.length}`)
  return bytes
}

/** The 20 address bytes of `s` for `chain`; throws the node's -32000 "couldn't parse address" otherwise. */
export const parseServiceAddress = (net: PrimaryNetwork, chain: ChainLetter, s: string): Uint8Array => {
  const short = fromCb58(s)
  if (short && short.length === SHORT_ID_BYTES) return short
  try {
    return parseLocal(net, chain, s)
  } catch (err) {
    throw serverError(`couldn't parse address "${s}": ${err instanceof Error ? err.message : String(err)}`)
  }
}

/** The node's own form of an address on `chain` ("X-avax1…"). */
export const formatAddress = (net: PrimaryNetwork, chain: ChainLetter, bytes: Uint8Array): string => net.ctx.chainAddressOf(chain, bytes)
