/**
 * Integer-only hashing for the hot paths (per-transaction fields while aggregating metrics):
 * rng.ts's hash32 stringifies its keys, which is too slow to run over millions of transactions.
 * Inputs are non-negative integers below 2^53; every result is a pure function of its inputs.
 */
import { createHash } from "node:crypto"

const mix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  h = Math.imul(h, 0x846ca68b)
  h ^= h >>> 16
  return h >>> 0
}

const TWO32 = 0x1_0000_0000

const absorb = (h: number, x: number): number => {
  // both halves of a 53-bit integer take part, so heights past 2^32 do not collide
  const lo = x >>> 0
  const hi = Math.floor(x / TWO32) >>> 0
  h = mix((h ^ lo) + 0x9e3779b9)
  return mix((h ^ hi) + 0x632be5ab)
}

/** 32-bit hash of a salt and up to three integer keys. */
export const h32 = (salt: number, a: number, b = 0, c = 0): number => absorb(absorb(absorb(mix(salt ^ 0x85ebca6b), a), b), c)

/** Uniform float in [0, 1). */
export const u01 = (salt: number, a: number, b = 0, c = 0): number => h32(salt, a, b, c) / TWO32

/** Uniform integer in [lo, hi] (inclusive); lo and hi below 2^32 apart. */
export const intIn = (salt: number, lo: number, hi: number, a: number, b = 0, c = 0): number =>
  lo + Math.floor(u01(salt, a, b, c) * (hi - lo + 1))

/** A salt for one purpose, derived from the world seed and a label, so streams do not correlate. */
export const saltOf = (seed: number, ...labels: ReadonlyArray<string | number>): number => {
  let h = mix(seed ^ 0x27d4eb2f)
  for (const label of labels) {
    const s = String(label)
    for (let i = 0; i < s.length; i++) h = mix((h ^ s.charCodeAt(i)) + 0x165667b1)
    h = mix(h ^ 0x2f)
  }
  return h
}

/** n bytes from sha256 in counter mode over a salt and integer keys: hashes, ids, big amounts. */
export const bytesOf = (salt: number, n: number, ...keys: ReadonlyArray<number | string>): Buffer => {
  const parts: Buffer[] = []
  let have = 0
  for (let counter = 0; have < n; counter++) {
    const d = createHash("sha256").update(`${salt}|${keys.join("|")}|${counter}`).digest()
    parts.push(d)
    have += d.length
  }
  return Buffer.concat(parts).subarray(0, n)
}

/** Uniform bigint in [0, max) (max > 0), exact for uint256 ranges. */
export const bigBelow = (salt: number, max: bigint, ...keys: ReadonlyArray<number | string>): bigint => {
  const b = bytesOf(salt, 40, ...keys)
  return BigInt("0x" + b.toString("hex")) % max
}

/** Uniform bigint in [lo, hi] (inclusive) from the fast hash: for amounts below 2^52. */
export const smallBig = (salt: number, lo: bigint, hi: bigint, a: number, b = 0, c = 0): bigint => {
  const span = Number(hi - lo) + 1
  return lo + BigInt(Math.floor(u01(salt, a, b, c) * span))
}
