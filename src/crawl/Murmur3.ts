/**
 * MurmurHash3_x86_128 (Austin Appleby's public-domain SMHasher reference, `MurmurHash3.cpp`) over
 * a string's UTF-8 bytes: the listing guard's 128-bit digest of a record key.
 *
 * Why this and not `node:crypto`: every record's key is digested, and an MD5 costs about ten times
 * as much a key on Node 20 (even through the one-shot `crypto.hash`) as this, encoding included
 * (docs/performance.md#crawl-memory-part-size-and-the-listing-guard). Why
 * not an npm package: the ones found return hex strings (an allocation per key, which is what the
 * digest is meant to save) or only 32 bits. The function is checked against SMHasher's own
 * verification value (test/crawl/Murmur3.test.ts), so it is the reference algorithm, not a variant.
 *
 * Not a cryptographic hash: a service could craft two keys with one digest, and so have one of
 * them dropped as a repeat. It could as well leave the record out; the guard defends against
 * mistakes (cycles, repeats), not against a service that lies.
 */
const C1 = 0x239b961b
const C2 = 0xab0e9789
const C3 = 0x38b34ae5
const C4 = 0xa1e38b93

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r))

const fmix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/**
 * The digest of `bytes[0, length)` with `seed`, written into `out` as four 32-bit words (h1..h4 of
 * the reference, whose little-endian bytes are its 16-byte output).
 */
export const murmur3x86_128 = (bytes: Uint8Array, length: number, seed: number, out: Uint32Array): void => {
  const b = bytes
  let h1 = seed | 0
  let h2 = h1
  let h3 = h1
  let h4 = h1
  const blocks = length & ~15
  let i = 0
  for (; i < blocks; i += 16) {
    let k1 = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)
    let k2 = b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24)
    let k3 = b[i + 8]! | (b[i + 9]! << 8) | (b[i + 10]! << 16) | (b[i + 11]! << 24)
    let k4 = b[i + 12]! | (b[i + 13]! << 8) | (b[i + 14]! << 16) | (b[i + 15]! << 24)
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2)
    h1 ^= k1
    h1 = (Math.imul((rotl(h1, 19) + h2) | 0, 5) + 0x561ccd1b) | 0
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3)
    h2 ^= k2
    h2 = (Math.imul((rotl(h2, 17) + h3) | 0, 5) + 0x0bcaa747) | 0
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4)
    h3 ^= k3
    h3 = (Math.imul((rotl(h3, 15) + h4) | 0, 5) + 0x96cd1c35) | 0
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1)
    h4 ^= k4
    h4 = (Math.imul((rotl(h4, 13) + h1) | 0, 5) + 0x32ac3b17) | 0
  }
  // the tail's 1–15 bytes, little-endian into up to four words (the reference's fall-through
  // switch; each word's mix only touches its own h, so the order of the four does not matter)
  const tail = length & 15
  if (tail > 0) {
    let k1 = 0
    let k2 = 0
    let k3 = 0
    let k4 = 0
    for (let j = 0; j < tail; j++) {
      const v = b[i + j]! << ((j & 3) * 8)
      if (j < 4) k1 |= v
      else if (j < 8) k2 |= v
      else if (j < 12) k3 |= v
      else k4 |= v
    }
    if (tail > 12) h4 ^= Math.imul(rotl(Math.imul(k4, C4), 18), C1)
    if (tail > 8) h3 ^= Math.imul(rotl(Math.imul(k3, C3), 17), C4)
    if (tail > 4) h2 ^= Math.imul(rotl(Math.imul(k2, C2), 16), C3)
    h1 ^= Math.imul(rotl(Math.imul(k1, C1), 15), C2)
  }
  h1 ^= length
  h2 ^= length
  h3 ^= length
  h4 ^= length
  h1 = (h1 + h2 + h3 + h4) | 0
  h2 = (h2 + h1) | 0
  h3 = (h3 + h1) | 0
  h4 = (h4 + h1) | 0
  h1 = fmix(h1)
  h2 = fmix(h2)
  h3 = fmix(h3)
  h4 = fmix(h4)
  h1 = (h1 + h2 + h3 + h4) | 0
  h2 = (h2 + h1) | 0
  h3 = (h3 + h1) | 0
  h4 = (h4 + h1) | 0
  out[0] = h1
  out[1] = h2
  out[2] = h3
  out[3] = h4
}

const encoder = new TextEncoder()
let scratch = new Uint8Array(256)

/** The digest of `text`'s UTF-8 bytes into `out`; one reused buffer, so no allocation per key. */
export const murmur3String = (text: string, seed: number, out: Uint32Array): void => {
  // UTF-8 needs at most 3 bytes per UTF-16 unit
  if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3)
  const { written } = encoder.encodeInto(text, scratch)
  murmur3x86_128(scratch, written, seed, out)
}
