/**
 * Deterministic, stateless randomness: every value is a pure function of the seed and a key path,
 * so any block, transaction or UTXO can be generated on demand (memory does not grow with
 * --scale) and two emulators with one seed agree byte for byte.
 */
import { sha256 } from "./cb58.ts"
import { MAX_COUNTED, sha256AsciiCounted } from "./sha256.ts"

const mix32 = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x7feb352d)
  h ^= h >>> 15
  h = Math.imul(h, 0x846ca68b)
  h ^= h >>> 16
  return h >>> 0
}

type Key = string | number | bigint

/** A 32-bit hash of a key path under a seed; fast enough for millions of calls. */
export const hash32 = (seed: number, ...keys: ReadonlyArray<Key>): number => hashPath(seed, keys)

/** hash32 of a key path held in an array: the network's draws pass theirs on without spreading it again. */
export const hashPath = (seed: number, keys: ReadonlyArray<Key>): number => {
  let h = mix32(seed ^ 0x9e3779b9)
  for (let i = 0; i < keys.length; i++) h = hashKey(h, keys[i]!)
  return h >>> 0
}

/** Decimal digits of an integer key, least significant first (hashKey). */
const digits = new Uint8Array(16)

/**
 * The hash of a key path one key longer, from the path's hash: hash32(seed, ...keys, k) = hashKey(hash32(seed, ...keys), k).
 * A key is hashed as the characters of String(k); a non-negative integer below 2^48 (most keys:
 * heights, indexes, times) by its decimal digits without the string, which would be made for
 * every draw (the bound keeps each division by ten exact).
 */
export const hashKey = (h: number, k: Key): number => {
  if (typeof k === "number" && k >= 0 && k < 2 ** 48 && Number.isInteger(k)) {
    let n = 0
    let v = k
    do {
      const q = Math.floor(v / 10)
      digits[n++] = v - q * 10
      v = q
    } while (v > 0)
    while (n > 0) h = mix32(h ^ (0x30 + digits[--n]!)) + 0x632be5ab
    return mix32(h ^ 0x2f)
  }
  const s = String(k)
  for (let i = 0; i < s.length; i++) h = mix32(h ^ s.charCodeAt(i)) + 0x632be5ab
  return mix32(h ^ 0x2f)
}

/** A path's 32-bit hash as a uniform float in [0, 1): every draw's one rule (the network's, the wallets' held paths). */
export const unitOfHash = (h: number): number => h / 0x1_0000_0000

/** A uniform float in [0, 1) as an integer in [lo, hi] (inclusive). */
export const intOfUnit = (lo: number, hi: number, u: number): number => lo + Math.floor(u * (hi - lo + 1))

/** Uniform float in [0, 1). */
export const unit = (seed: number, ...keys: ReadonlyArray<Key>): number => unitOfHash(hashPath(seed, keys))

/** Uniform integer in [lo, hi] (inclusive). */
export const intIn = (seed: number, lo: number, hi: number, ...keys: ReadonlyArray<Key>): number => intOfUnit(lo, hi, unitOfHash(hashPath(seed, keys)))

/** Picks one element of a non-empty list. */
export const pick = <T>(seed: number, list: ReadonlyArray<T>, ...keys: ReadonlyArray<string | number | bigint>): T =>
  list[hash32(seed, ...keys) % list.length] as T

/** n pseudo-random bytes (sha256 in counter mode): ids, hashes, addresses, keys. */
export const bytes = (seed: number, n: number, ...keys: ReadonlyArray<string | number | bigint>): Uint8Array => {
  const prefix = `${seed}|${keys.join("|")}|`
  const blocks = Math.ceil(n / 32)
  if (blocks <= MAX_COUNTED) {
    // all the counters' digests at once (a signature's 65 bytes are three): their shared start is hashed once
    const all = new Uint8Array(blocks * 32)
    if (sha256AsciiCounted(prefix, blocks, all)) return all.length === n ? all : all.slice(0, n)
  }
  const out = new Uint8Array(n)
  let filled = 0
  for (let counter = 0; filled < n; counter++) {
    const h = sha256(prefix + counter)
    const take = Math.min(h.length, n - filled)
    out.set(h.subarray(0, take), filled)
    filled += take
  }
  return out
}

/** Where bytesOnce writes: MAX_COUNTED digests. */
const once = new Uint8Array(MAX_COUNTED * 32)

/**
 * The bytes of `bytes(seed, n, ...keys)` for a caller that copies them at once (a signature into a
 * tx's writer): a view of one buffer that the next call overwrites. A new typed array of more than
 * 64 bytes gets a backing store of its own outside V8's heap, which cost more than hashing a
 * signature's 65 bytes.
 */
export const bytesOnce = (seed: number, n: number, ...keys: ReadonlyArray<string | number | bigint>): Uint8Array => {
  const blocks = Math.ceil(n / 32)
  if (blocks <= MAX_COUNTED && sha256AsciiCounted(`${seed}|${keys.join("|")}|`, blocks, once)) return once.subarray(0, n)
  return bytes(seed, n, ...keys)
}

/** 0x-prefixed lowercase hex of n pseudo-random bytes (EVM hashes and addresses). */
export const hex = (seed: number, n: number, ...keys: ReadonlyArray<string | number | bigint>): string =>
  "0x" + Buffer.from(bytes(seed, n, ...keys)).toString("hex")

/** A random bigint in [0, max) for exact amounts (uint64/uint256). */
export const bigIn = (seed: number, max: bigint, ...keys: ReadonlyArray<string | number | bigint>): bigint => {
  const b = bytes(seed, 40, ...keys)
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return v % max
}
