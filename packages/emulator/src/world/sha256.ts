/**
 * SHA-256 (FIPS 180-4) in JavaScript, for the short inputs a chain's hashing hashes by the hundred
 * thousand: an id's seeded bytes and mask, a cb58 checksum, a signature's pseudo-random bytes
 * (under 120 bytes each). Node's one-shot crypto.hash costs a call into C++ and a new Buffer each
 * time, several times the 64 rounds themselves at these sizes; for longer inputs (txs, blocks) it
 * is the faster one and cb58.ts keeps it. Same digests byte for byte
 * (packages/emulator/test/core/sha256.test.ts compares them with node:crypto).
 */

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
])

const H0 = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])

/** The longest input hashed here; callers send longer ones to node:crypto. */
export const SMALL_INPUT = 247

/** The padded message (at most four blocks), the schedule and the state, reused from call to call. */
const block = new Uint8Array(256)
const blockView = new DataView(block.buffer)
const w = new Int32Array(64)
const h = new Int32Array(8)

const compress = (offset: number): void => {
  for (let i = 0, o = offset; i < 16; i++, o += 4) w[i] = (block[o]! << 24) | (block[o + 1]! << 16) | (block[o + 2]! << 8) | block[o + 3]!
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!
    const y = w[i - 2]!
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
  }
  let a = h[0]!
  let b = h[1]!
  let c = h[2]!
  let d = h[3]!
  let e = h[4]!
  let f = h[5]!
  let g = h[6]!
  let k = h[7]!
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    k = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  h[0] = (h[0]! + a) | 0
  h[1] = (h[1]! + b) | 0
  h[2] = (h[2]! + c) | 0
  h[3] = (h[3]! + d) | 0
  h[4] = (h[4]! + e) | 0
  h[5] = (h[5]! + f) | 0
  h[6] = (h[6]! + g) | 0
  h[7] = (h[7]! + k) | 0
}

/** Pads the `length` message bytes in `block` (the bytes after them are overwritten); returns the padded length. */
const pad = (length: number): number => {
  const padded = (length + 9 + 63) & ~63
  block[length] = 0x80
  block.fill(0, length + 1, padded - 4)
  // the bit length fits in 32 bits at these sizes
  blockView.setUint32(padded - 4, length * 8)
  return padded
}

/** Writes the state as a digest into out at `at`. */
const digest = (out: Uint8Array, at: number): void => {
  for (let i = 0, o = at; i < 8; i++, o += 4) {
    const x = h[i]!
    out[o] = x >>> 24
    out[o + 1] = x >>> 16
    out[o + 2] = x >>> 8
    out[o + 3] = x
  }
}

/** Hashes the `length` message bytes already in `block` and writes the digest into `out`. */
const finish = (length: number, out: Uint8Array): Uint8Array => {
  const padded = pad(length)
  h.set(H0)
  for (let offset = 0; offset < padded; offset += 64) compress(offset)
  digest(out, 0)
  return out
}

/** The state after a message's first block, shared by messages that begin alike. */
const midstate = new Int32Array(8)

/** Counters 0 … 9: one decimal digit each. */
export const MAX_COUNTED = 10

/** sha256 of bytes no longer than SMALL_INPUT, into `out` (32 bytes). */
export const sha256Bytes = (data: Uint8Array, out: Uint8Array): Uint8Array => {
  if (data.length > SMALL_INPUT) throw new RangeError(`sha256Bytes hashes at most ${SMALL_INPUT} bytes (got ${data.length})`)
  block.set(data)
  return finish(data.length, out)
}

/** sha256 of the first `length` bytes of `data` (at most SMALL_INPUT), into `out`: for a caller writing its message into scratch. */
export const sha256Into = (data: Uint8Array, length: number, out: Uint8Array): Uint8Array => {
  if (length > SMALL_INPUT || length > data.length) throw new RangeError(`sha256Into hashes at most ${SMALL_INPUT} bytes of its data (got ${length} of ${data.length})`)
  for (let i = 0; i < length; i++) block[i] = data[i]!
  return finish(length, out)
}

/**
 * sha256 of a string's UTF-8 bytes into `out`, when it is ASCII and no longer than SMALL_INPUT;
 * false (nothing written) otherwise.
 */
export const sha256Ascii = (s: string, out: Uint8Array): boolean => {
  const n = s.length
  if (n > SMALL_INPUT) return false
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c > 0x7f) return false
    block[i] = c
  }
  finish(n, out)
  return true
}

/**
 * The digests of ASCII `prefix` followed by each counter 0 … count-1 in decimal (sha256 in
 * counter mode, as rng.ts draws bytes), one after the other into `out` (32 bytes each). The
 * messages differ only in their last character, so a first block they share is hashed once.
 * False (nothing written) when the prefix is not ASCII, the messages are too long or count is over
 * MAX_COUNTED.
 */
export const sha256AsciiCounted = (prefix: string, count: number, out: Uint8Array): boolean => {
  const n = prefix.length
  if (count > MAX_COUNTED || n + 1 > SMALL_INPUT) return false
  for (let i = 0; i < n; i++) {
    const c = prefix.charCodeAt(i)
    if (c > 0x7f) return false
    block[i] = c
  }
  // the counter's digit sits at n, the padding after it is the same for every counter
  const padded = pad(n + 1)
  const shared = n >= 64
  if (shared) {
    h.set(H0)
    compress(0)
    midstate.set(h)
  }
  for (let counter = 0; counter < count; counter++) {
    block[n] = 0x30 + counter
    h.set(shared ? midstate : H0)
    for (let offset = shared ? 64 : 0; offset < padded; offset += 64) compress(offset)
    digest(out, counter * 32)
  }
  return true
}
