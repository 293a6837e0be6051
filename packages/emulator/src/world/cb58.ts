/**
 * cb58 (base58 of the bytes followed by the last 4 bytes of their sha256), the text form of every
 * Avalanche id, and sha256 itself: both are on the hot path of hashing a chain's ids (a few per tx),
 * where the general radix conversion of avalanchejs (@scure/base) and a hash object per call cost
 * more than the hashing. bs58 (base-x: the byte-wise base58 most of npm uses) encodes 300k ids in
 * ~1.7 s where @scure/base took several times that. Same results byte for byte
 * (packages/emulator/test/core/cb58.test.ts checks them against avalanchejs).
 */
import bs58 from "bs58"
import * as crypto from "node:crypto"

// crypto.hash (Node 20.12+) skips the Hash object; createHash where it is missing (20.10, 20.11)
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: "buffer") => Buffer }).hash
/** sha256 of `b` (a string is hashed as its UTF-8 bytes). */
export const sha256 = (b: Uint8Array | string): Buffer => (oneShot ? oneShot("sha256", b, "buffer") : crypto.createHash("sha256").update(b).digest())

/**
 * Base58 (Bitcoin alphabet) of bytes, by bs58. Its result is built a character at a time, a rope
 * of ~50 pieces; reading a character flattens it, which matters as these strings are kept by the
 * hundred thousand as map keys (the served ids of a large world: 145 → 69 MB of heap at scale 28).
 */
export const base58 = (bytes: Uint8Array): string => {
  const s = bs58.encode(bytes)
  s.charCodeAt(0)
  return s
}

/** Bytes of a base58 string, or undefined when it holds a character outside the alphabet. */
export const fromBase58 = (s: string): Uint8Array | undefined => bs58.decodeUnsafe(s)

/** cb58 of bytes. */
export const cb58 = (b: Uint8Array): string => {
  const withSum = new Uint8Array(b.length + 4)
  withSum.set(b, 0)
  withSum.set(sha256(b).subarray(28), b.length)
  return base58(withSum)
}

/**
 * The bytes of a cb58 string (undefined for a character outside the alphabet). Like avalanchejs'
 * base58check.decode, which the world used before, it drops the last 4 bytes without checking them
 * (and gives no bytes for fewer than 4): the same strings resolve to the same ids as before.
 */
export const fromCb58 = (s: string): Uint8Array | undefined => {
  const all = fromBase58(s)
  return all === undefined ? undefined : all.subarray(0, Math.max(0, all.length - 4))
}
