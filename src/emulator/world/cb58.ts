/**
 * cb58 (base58 of the bytes followed by the last 4 bytes of their sha256), the text form of every
 * Avalanche id, and sha256 itself: both are on the hot path of hashing a chain's ids (a few per tx),
 * where the general radix conversion of avalanchejs (@scure/base) and a hash object per call cost
 * more than the hashing. Same results byte for byte (test/emulator/cb58.test.ts checks them
 * against avalanchejs).
 */
import * as crypto from "node:crypto"

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0))
const CODES = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < ALPHABET.length; i++) t[ALPHABET.charCodeAt(i)] = i
  return t
})()

// crypto.hash (Node 20.12+) skips the Hash object; createHash where it is missing (20.10, 20.11)
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: "buffer") => Buffer }).hash
/** sha256 of `b` (a string is hashed as its UTF-8 bytes). */
export const sha256 = (b: Uint8Array | string): Buffer => (oneShot ? oneShot("sha256", b, "buffer") : crypto.createHash("sha256").update(b).digest())

/** Base58 (Bitcoin alphabet) of bytes: leading zero bytes become "1"s. */
export const base58 = (bytes: Uint8Array): string => {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  // digits in base 58, least significant first; ~1.37 digits a byte
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1)
  let len = 0
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i] as number
    for (let j = 0; j < len; j++) {
      carry += (digits[j] as number) << 8
      digits[j] = carry % 58
      carry = (carry / 58) | 0
    }
    while (carry > 0) {
      digits[len++] = carry % 58
      carry = (carry / 58) | 0
    }
  }
  // one flat string from char codes: appending a character at a time makes a rope of ~50 pieces,
  // and these strings are kept by the hundred thousand as map keys
  const codes = new Array<number>(zeros + len)
  for (let j = 0; j < zeros; j++) codes[j] = 49
  for (let j = 0; j < len; j++) codes[zeros + j] = ALPHABET_CODES[digits[len - 1 - j] as number] as number
  return String.fromCharCode.apply(null, codes)
}

/** Bytes of a base58 string, or undefined when it holds a character outside the alphabet. */
export const fromBase58 = (s: string): Uint8Array | undefined => {
  let zeros = 0
  while (zeros < s.length && s.charCodeAt(zeros) === 49) zeros++
  const bytes = new Uint8Array(Math.ceil((s.length - zeros) * 0.733) + 1)
  let len = 0
  for (let i = zeros; i < s.length; i++) {
    const c = s.charCodeAt(i)
    let carry = c < 128 ? (CODES[c] as number) : -1
    if (carry < 0) return undefined
    for (let j = 0; j < len; j++) {
      carry += (bytes[j] as number) * 58
      bytes[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes[len++] = carry & 0xff
      carry >>= 8
    }
  }
  const out = new Uint8Array(zeros + len)
  for (let j = 0; j < len; j++) out[zeros + j] = bytes[len - 1 - j] as number
  return out
}

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
