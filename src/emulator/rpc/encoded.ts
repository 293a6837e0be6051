/**
 * getBlock / getBlockByHeight / getTx answers of both chains: {block|tx, encoding}. "json" is the
 * world's avalanchego-shaped json with quantities as decimal strings; "hex" is 0x + real codec
 * bytes (txBytes.ts, blockBytes.ts) + checksum. Failures are worded as the node words them.
 */
import type { PxChain } from "../world/primary/index.ts"
import type { PrimaryNetwork } from "../world/primary/index.ts"
import type { BlockRecord } from "../world/primary/types.ts"
import { blockBytes } from "../world/primary/codec/blockBytes.ts"
import { EMPTY_ID, serverError, type Encoding } from "./params.ts"
import { TxBytes } from "../world/primary/codec/txBytes.ts"
import { checksummedHex, toWire, type Wire } from "./wire.ts"

const NOT_FOUND = "not found"

const encodeBlock = (net: PrimaryNetwork, b: BlockRecord, encoding: Encoding): Wire => {
  const block =
    encoding === "json"
      ? toWire(net.encodedBlock(b, "json"))
      : checksummedHex(blockBytes(b, net.blockTxs(b.chain === "X" ? "X" : "P", b.height), new TxBytes(net, net.served.of), net.served.of))
  return { block, encoding }
}

export const blockById = (net: PrimaryNetwork, chain: PxChain, blockId: string, encoding: Encoding): Wire => {
  const b = net.blockById(chain, blockId)
  if (!b) throw serverError(`couldn't get block with id ${blockId}: ${NOT_FOUND}`)
  return encodeBlock(net, b, encoding)
}

export const blockByHeight = (net: PrimaryNetwork, chain: PxChain, height: bigint, encoding: Encoding): Wire => {
  const b = net.block(chain, height)
  if (!b) throw serverError(`couldn't get block at height ${height}: ${NOT_FOUND}`)
  return encodeBlock(net, b, encoding)
}

export const txById = (net: PrimaryNetwork, chain: PxChain, txId: string, encoding: Encoding): Wire => {
  if (txId === EMPTY_ID) throw serverError("nil transaction ID")
  const found = net.tx(txId, chain)
  if (!found) throw serverError(NOT_FOUND)
  const tx = encoding === "json" ? toWire(net.json.tx(found)) : checksummedHex(new TxBytes(net, net.served.of).bytes(found))
  return { tx, encoding }
}
