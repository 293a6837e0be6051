/**
 * The node's "hex" encoding (utils/formatting Encode): "0x", the bytes, then the last 4 bytes of
 * their sha256 as a checksum, all in hex.
 */
import { PvmDecodeError } from "./errors.ts"
import { sha256 } from "./text.ts"

const CHECKSUM_BYTES = 4

/** The bytes of a node hex string, checksum verified and removed. Throws PvmDecodeError. */
export const pBytesFromNodeHex = (hex: string): Uint8Array => {
  if (!hex.startsWith("0x")) throw new PvmDecodeError(`node hex does not start with 0x: ${hex.slice(0, 16)}`, 0)
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex.slice(2))) {
    throw new PvmDecodeError(`node hex is not whole bytes of hex digits: ${hex.slice(0, 16)}…`, 0)
  }
  const all = Buffer.from(hex.slice(2), "hex")
  if (all.length < CHECKSUM_BYTES) throw new PvmDecodeError(`node hex of ${all.length} bytes is too short to hold its checksum`, 0)
  const body = all.subarray(0, all.length - CHECKSUM_BYTES)
  const sum = sha256(body)
  for (let i = 0; i < CHECKSUM_BYTES; i++) {
    if (sum[32 - CHECKSUM_BYTES + i] !== all[body.length + i]) {
      throw new PvmDecodeError(`node hex fails its checksum: its last 4 bytes are not the tail of sha256 of the rest`, body.length)
    }
  }
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
}
