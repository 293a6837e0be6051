/**
 * The text forms avalanchego's JSON gives bytes: cb58 for ids (base58 of the bytes and the last
 * 4 bytes of their sha256), "NodeID-" + cb58 for node ids, "0x" + lowercase hex (formatting.HexNC)
 * for signatures, keys and JSONByteSlice fields, std base64 for a plain Go []byte.
 */
import bs58 from "bs58"
import * as crypto from "node:crypto"

// crypto.hash (Node 20.12+) skips the Hash object; createHash where it is missing (20.10, 20.11)
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: "buffer") => Buffer }).hash

export const sha256 = (b: Uint8Array): Buffer => (oneShot ? oneShot("sha256", b, "buffer") : crypto.createHash("sha256").update(b).digest())

const CHECKSUM_BYTES = 4

export const cb58 = (b: Uint8Array): string => {
  const withSum = new Uint8Array(b.length + CHECKSUM_BYTES)
  withSum.set(b, 0)
  withSum.set(sha256(b).subarray(32 - CHECKSUM_BYTES), b.length)
  return bs58.encode(withSum)
}

/**
 * cb58 of an id that recurs from tx to tx (the AVAX asset, the P-chain's blockchain id, subnets,
 * busy validators' node ids), remembered: base58 with its sha256 checksum is most of a decode's
 * cost. Keyed by the id's first and last bytes and confirmed byte for byte, so a collision only
 * costs a recomputation; emptied when full rather than tracking recency. Ids that never recur
 * (tx ids, parent ids) skip it, as remembering them would only churn it.
 */
const remembered = new Map<number, { readonly bytes: Uint8Array; readonly text: string }>()
const REMEMBER_AT_MOST = 1 << 14

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export const recurringIdText = (b: Uint8Array): string => {
  const n = b.length
  const key = (((b[0] as number) << 24) | ((b[1] as number) << 16) | ((b[n - 2] as number) << 8) | (b[n - 1] as number)) ^ n
  const hit = remembered.get(key)
  if (hit !== undefined && sameBytes(hit.bytes, b)) return hit.text
  const text = cb58(b)
  if (remembered.size >= REMEMBER_AT_MOST) remembered.clear()
  remembered.set(key, { bytes: b.slice(), text })
  return text
}

export const nodeIdText = (b: Uint8Array): string => `NodeID-${recurringIdText(b)}`

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength)

export const hex0x = (b: Uint8Array): string => `0x${asBuffer(b).toString("hex")}`

export const base64 = (b: Uint8Array): string => asBuffer(b).toString("base64")
