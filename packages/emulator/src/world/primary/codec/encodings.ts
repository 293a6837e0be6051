/**
 * The node's two encodings of a tx or block (getTx / getBlock / getBlockByHeight): "json" as
 * txJson.ts writes it (world ids, which the HTTP layer serves hashed), "hex" as 0x + its codec
 * bytes (txBytes.ts, blockBytes.ts; every id inside named by its served id) + the last 4 bytes of
 * their sha256.
 */
import type { PrimaryNetwork } from "../network.ts"
import type { JsonValue } from "../txJson.ts"
import type { BlockRecord, TxRecord } from "../types.ts"
import { lib } from "./avalanche.ts"
import { blockBytes, parentBytes } from "./blockBytes.ts"
import { TxBytes } from "./txBytes.ts"

/** 0x + bytes + checksum, as utils/formatting writes hex. */
export const checksummedHex = (bytes: Uint8Array): string => lib.utils.bufferToHex(lib.utils.addChecksum(bytes))

export const encodeTx = (net: PrimaryNetwork, tx: TxRecord, encoding: "hex" | "json"): string | JsonValue =>
  encoding === "json" ? net.json.tx(tx) : checksummedHex(new TxBytes(net, net.served.of).bytes(tx))

export const encodeBlock = (net: PrimaryNetwork, b: BlockRecord, encoding: "hex" | "json"): string | JsonValue => {
  const txs = net.chain(b.chain === "X" ? "X" : "P").txs(Number(b.height))
  return encoding === "json" ? net.json.block(b, txs) : checksummedHex(blockBytes(b, parentBytes(b, net.served.of), txs, new TxBytes(net, net.served.of)))
}
