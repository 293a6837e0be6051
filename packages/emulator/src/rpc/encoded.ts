/**
 * getBlock / getBlockByHeight / getTx answers of both chains: {block|tx, encoding}. "json" is
 * avalanchego's json encoding (txJson.ts: uint64s as JSON numbers, written exactly); "hex" is 0x +
 * real codec bytes (txBytes.ts, blockBytes.ts) + checksum. Failures are worded as the node words them.
 */
import type { PxChain } from "../world/primary/index.ts"
import type { PrimaryNetwork } from "../world/primary/index.ts"
import type { BlockRecord } from "../world/primary/types.ts"
import { encodeBlock, encodeTx } from "../world/primary/codec/encodings.ts"
import { EMPTY_ID, serverError, type Encoding } from "./params.ts"

const NOT_FOUND = "not found"

import type { Wire } from "./wire.ts"

/** An answer holding json with bigints, which the HTTP layer writes as integer literals. */
type Answer = Wire

const encodeBlockAnswer = (net: PrimaryNetwork, b: BlockRecord, encoding: Encoding): Answer => ({ block: encodeBlock(net, b, encoding), encoding })

export const blockById = (net: PrimaryNetwork, chain: PxChain, blockId: string, encoding: Encoding): Answer => {
  const b = net.blockById(chain, blockId)
  if (!b) throw serverError(`couldn't get block with id ${blockId}: ${NOT_FOUND}`)
  return encodeBlockAnswer(net, b, encoding)
}

export const blockByHeight = (net: PrimaryNetwork, chain: PxChain, height: bigint, encoding: Encoding): Answer => {
  const b = net.block(chain, height)
  if (!b) throw serverError(`couldn't get block at height ${height}: ${NOT_FOUND}`)
  return encodeBlockAnswer(net, b, encoding)
}

export const txById = (net: PrimaryNetwork, chain: PxChain, txId: string, encoding: Encoding): Answer => {
  if (txId === EMPTY_ID) throw serverError("nil transaction ID")
  const found = net.tx(txId, chain)
  if (!found) throw serverError(NOT_FOUND)
  return { tx: encodeTx(net, found, encoding), encoding }
}
