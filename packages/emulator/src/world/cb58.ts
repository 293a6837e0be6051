/**
 * cb58 (base58 of the bytes followed by the last 4 bytes of their sha256), the text form of every
 * Avalanche id, and sha256 itself: both are on the hot path of hashing a chain's ids (a few per tx),
 * where the general radix conversion of avalanchejs (@scure/base) and a hash object per call cost
 * more than the hashing. Encoding is done here (below), decoding by bs58 (base-x: the byte-wise
 * base58 most of npm uses; decoding is rarer). Same results byte for byte
 * (packages/emulator/test/core/cb58.test.ts checks them against avalanchejs).
 */
import bs58 from "bs58"
import * as crypto from "node:crypto"
import { sha256Ascii, sha256Bytes } from "./sha256.ts"

// crypto.hash (Node 20.12+) skips the Hash object; createHash where it is missing (20.10, 20.11)
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: "buffer") => Buffer }).hash
const native = (b: Uint8Array | string): Buffer => (oneShot ? oneShot("sha256", b, "buffer") : crypto.createHash("sha256").update(b).digest())

/** Up to one block of bytes, two of ASCII text (which node:crypto would encode first), the JavaScript rounds cost less than the call. */
const JS_BYTES = 55
const JS_TEXT = 119

/** sha256 of `b` (a string is hashed as its UTF-8 bytes). */
export const sha256 = (b: Uint8Array | string): Buffer => {
  if (typeof b === "string") {
    if (b.length <= JS_TEXT) {
      const out = Buffer.allocUnsafe(32)
      if (sha256Ascii(b, out)) return out
    }
  } else if (b.length <= JS_BYTES) return sha256Bytes(b, Buffer.allocUnsafe(32)) as Buffer
  return native(b)
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
/** 58^5: five base58 digits a limb, and a remainder times 2^16 stays exact in a double (< 2^46). */
const LIMB = 58 ** 5
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))
const ZERO_DIGIT = ALPHABET_CODES[0]!

/**
 * Base58 (Bitcoin alphabet) of bytes, as bs58 writes it (a '1' per leading zero byte, then the
 * number's digits). bs58 divides byte by byte, ~50 passes of 36 bytes for an id; here the bytes
 * are taken 16 bits at a time and divided by 58^5, ~10 passes of 18 words, into scratch arrays
 * reused from call to call: a chain's hashing makes a few ids a tx. The digits become one string
 * at once (a rope of characters would be flattened when read, and these strings are kept by the
 * hundred thousand as map keys).
 */
export const base58 = (bytes: Uint8Array): string => {
  const n = bytes.length
  if (n > scratch.words.length * 2) scratch = newScratch(n)
  const { words, limbs, codes } = scratch
  let zeros = 0
  while (zeros < n && bytes[zeros] === 0) zeros++
  let w = 0
  let i = zeros
  if ((n - i) % 2 === 1) words[w++] = bytes[i++]!
  for (; i < n; i += 2) words[w++] = (bytes[i]! << 8) | bytes[i + 1]!
  // base 58^5 limbs, least significant first
  let count = 0
  for (let start = 0; start < w; ) {
    let rem = 0
    for (let j = start; j < w; j++) {
      const cur = rem * 65_536 + words[j]!
      const q = Math.floor(cur / LIMB)
      words[j] = q
      rem = cur - q * LIMB
    }
    limbs[count++] = rem
    while (start < w && words[start] === 0) start++
  }
  const end = count * 5
  for (let l = 0, at = end; l < count; l++) {
    let rest = limbs[l]!
    for (let d = 0; d < 5; d++) {
      const q = Math.floor(rest / 58)
      codes[--at] = ALPHABET_CODES[rest - q * 58]!
      rest = q
    }
  }
  // the top limb's leading zero digits are padding, not digits of the number
  let first = 0
  while (first < end && codes[first] === ZERO_DIGIT) first++
  return "1".repeat(zeros) + String.fromCharCode.apply(null, codes.subarray(first, end) as unknown as number[])
}

const newScratch = (bytes: number) => ({
  words: new Float64Array(Math.ceil(bytes / 2)),
  limbs: new Float64Array(Math.ceil(bytes / 2)),
  codes: new Uint8Array(Math.ceil(bytes / 2) * 5)
})
/** Room for ids and keys (up to 128 bytes); a longer input gets larger arrays. */
let scratch = newScratch(128)

/** Bytes of a base58 string, or undefined when it holds a character outside the alphabet. */
export const fromBase58 = (s: string): Uint8Array | undefined => bs58.decodeUnsafe(s)

/** An id and its checksum, and the checksum's digest, reused from call to call (cb58: base58 reads them and keeps nothing). */
const withSumScratch = new Uint8Array(JS_BYTES + 4)
const sumScratch = new Uint8Array(32)

/** cb58 of bytes. */
export const cb58 = (b: Uint8Array): string => {
  const n = b.length
  if (n > JS_BYTES) {
    const withSum = new Uint8Array(n + 4)
    withSum.set(b, 0)
    withSum.set(sha256(b).subarray(28), n)
    return base58(withSum)
  }
  sha256Bytes(b, sumScratch)
  withSumScratch.set(b, 0)
  for (let i = 0; i < 4; i++) withSumScratch[n + i] = sumScratch[28 + i]!
  return base58(withSumScratch.subarray(0, n + 4))
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
