/**
 * Identifiers of the primary-network world. Every id (tx, block, node, address) looks random but
 * carries a masked locator of the entity it names, so a lookup by id regenerates that one entity
 * instead of searching or keeping an index: memory stays flat whatever the scale.
 *
 * Layout: the leading bytes are a hash of (seed, network, locator); the trailing bytes are the
 * locator XOR a mask derived from the leading bytes. Decoding unmasks the locator and accepts it
 * only if re-encoding gives the same id, so foreign or mistyped ids never resolve.
 */
import { avax } from "./avax.ts"
import { cb58, fromCb58, sha256 } from "../cb58.ts"
import { bytes } from "../rng.ts"
import { sha256Into } from "../sha256.ts"

/** What a locator names; the numeric value is part of the id bytes, so never renumber. */
export enum Kind {
  PBlock = 1,
  XBlock = 2,
  CBlock = 3,
  Validation = 10,
  Delegation = 11,
  ValidationReward = 12,
  DelegationReward = 13,
  WalletPTx = 20,
  WalletXTx = 21,
  BackgroundPTx = 22,
  BackgroundXTx = 23,
  ExternalTx = 24,
  AssetTx = 25,
  WalletImportPTx = 26,
  WalletImportXTx = 27,
  GenesisAllocation = 28,
  L1Tx = 30,
  L1Validation = 31,
  /** A tx of the P-chain's archive era (archive.ts): a = its index; b 1 names its funding instead. */
  ArchiveTx = 32,
  Node = 40,
  L1Node = 41,
  ArchiveNode = 42,
  Address = 50,
  ExternalAddress = 51,
  ArchiveAddress = 52
}

/** A locator: kind plus up to three small coordinates (a < 2^28, b < 2^20, c < 2^8). */
export interface Locator {
  readonly kind: Kind
  readonly a: number
  readonly b: number
  readonly c: number
}

const A_BITS = 28n
const B_BITS = 20n
const C_BITS = 8n

const pack = (l: Locator): bigint => {
  if (l.a < 0 || l.a >= 2 ** 28 || l.b < 0 || l.b >= 2 ** 20 || l.c < 0 || l.c >= 2 ** 8) {
    throw new RangeError(`locator out of range: ${JSON.stringify(l)}`)
  }
  return (BigInt(l.kind) << (A_BITS + B_BITS + C_BITS)) | (BigInt(l.a) << (B_BITS + C_BITS)) | (BigInt(l.b) << C_BITS) | BigInt(l.c)
}

const unpack = (v: bigint): Locator => ({
  kind: Number(v >> (A_BITS + B_BITS + C_BITS)) as Kind,
  a: Number((v >> (B_BITS + C_BITS)) & ((1n << A_BITS) - 1n)),
  b: Number((v >> C_BITS) & ((1n << B_BITS) - 1n)),
  c: Number(v & ((1n << C_BITS) - 1n))
})

const maskSuffixes = new Map<number, Buffer>()
const mask = (seed: number, head: Uint8Array, n: number): Uint8Array => {
  let suffix = maskSuffixes.get(seed)
  if (suffix === undefined) maskSuffixes.set(seed, (suffix = Buffer.from(`|mask|${seed}`)))
  const input = new Uint8Array(head.length + suffix.length)
  input.set(head, 0)
  input.set(suffix, head.length)
  return sha256(input).subarray(0, n)
}

const toBytesBE = (v: bigint, n: number): Uint8Array => {
  const out = new Uint8Array(n)
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

const fromBytesBE = (b: Uint8Array): bigint => b.reduce((acc, x) => (acc << 8n) | BigInt(x), 0n)

/** Locator bytes in an id of `size` bytes: 8 for 32-byte ids, 7 for 20-byte ids (whose c is 0). */
const tailSize = (size: number): number => (size >= 32 ? 8 : 7)

const packFor = (loc: Locator, size: number): bigint => {
  if (size === 32) return pack(loc)
  if (loc.c !== 0) throw new RangeError("20-byte ids carry no third coordinate")
  return pack(loc) >> C_BITS
}

const unpackFor = (v: bigint, size: number): Locator => unpack(size === 32 ? v : v << C_BITS)

/** Digests, the head's message and the mask's input, reused from call to call (encodeId). */
const digestScratch = new Uint8Array(32)
const headInput = new Uint8Array(128)
const maskInput = new Uint8Array(64)

/** The start of the head's message, `${seed}|id|${network}|${size}|`, as bytes; null where it is not ASCII. */
const headStarts = new Map<number, Map<string, { 32: Uint8Array | null; 20: Uint8Array | null }>>()
const ascii = (s: string): Uint8Array | null => (/^[\x00-\x7f]*$/.test(s) && s.length < 64 ? Buffer.from(s, "latin1") : null)
const headStart = (seed: number, network: string, size: 32 | 20): Uint8Array | null => {
  let bySeed = headStarts.get(seed)
  if (bySeed === undefined) headStarts.set(seed, (bySeed = new Map()))
  let starts = bySeed.get(network)
  if (starts === undefined) bySeed.set(network, (starts = { 32: ascii(`${seed}|id|${network}|32|`), 20: ascii(`${seed}|id|${network}|20|`) }))
  return starts[size]
}

/**
 * Writes the decimal digits of high · 2^32 + low (high < 2^30, low < 2^32), as a bigint prints
 * them, into `out` at `at`; returns the position after them. Divided by 10^9 16 bits at a time
 * (each step stays below 2^53), then the two parts' digits.
 */
const writeDecimal = (high: number, low: number, out: Uint8Array, at: number): number => {
  let rem = 0
  let q = 0
  for (let i = 0; i < 4; i++) {
    const word = i === 0 ? Math.floor(high / 0x10000) : i === 1 ? high % 0x10000 : i === 2 ? Math.floor(low / 0x10000) : low % 0x10000
    const cur = rem * 0x10000 + word
    const d = Math.floor(cur / 1e9)
    rem = cur - d * 1e9
    q = q * 0x10000 + d
  }
  if (q > 0) {
    at = writeDigits(q, out, at, 0)
    return writeDigits(rem, out, at, 9)
  }
  return writeDigits(rem, out, at, 0)
}

/** The decimal digits of an integer v < 2^53, at least `width` of them (zeros before), into out at `at`. */
const writeDigits = (v: number, out: Uint8Array, at: number, width: number): number => {
  let n = 1
  for (let p = 10; p <= v; p *= 10) n++
  if (n < width) n = width
  for (let i = at + n - 1; i >= at; i--) {
    const q = Math.floor(v / 10)
    out[i] = 0x30 + (v - q * 10)
    v = q
  }
  return at + n
}

/**
 * The id bytes (32 for txs/blocks, 20 for nodes/addresses) naming `loc` in one network: the
 * leading bytes `bytes(seed, size - tail, "id", network, size, packed)` (one sha256 of the key
 * path and counter 0), then the packed locator's big-endian tail XOR `mask`. Written here with
 * the hash into scratch and the tail from the coordinates as numbers, not through bigint shifts
 * and a new array a step: a chain's hashing makes an id or two a tx
 * (encodeIdSlowly is the general form; test/primary/locatorIds.test.ts decodes what it makes).
 */
export const encodeId = (seed: number, network: string, loc: Locator, size: 32 | 20): Uint8Array => {
  const { kind, a, b, c } = loc
  // out of range (pack says why) or not whole: the general form, which throws as it always did
  if (!(a >= 0 && a < 2 ** 28 && b >= 0 && b < 2 ** 20 && c >= 0 && c < 256 && (size === 32 || c === 0)) || !Number.isInteger(kind + a + b + c)) {
    return encodeIdSlowly(seed, network, loc, size)
  }
  const tail = tailSize(size)
  const headSize = size - tail
  // the packed locator's low 56 (20-byte ids) or 64 bits (32-byte ids) as two numbers: bits 32 and up, bits 0-31
  const high = size === 32 ? kind * 0x1000000 + Math.floor(a / 16) : kind * 0x10000 + Math.floor(a / 0x1000)
  const low = size === 32 ? (a % 16) * 0x10000000 + b * 0x100 + c : (a % 0x1000) * 0x100000 + b
  const start = headStart(seed, network, size)
  if (start === null) return encodeIdSlowly(seed, network, loc, size)
  // the head's message written as bytes, not made as a string and read back a character at a time
  headInput.set(start, 0)
  let at = writeDecimal(high, low, headInput, start.length)
  headInput[at++] = 0x7c // "|0": counter 0
  headInput[at++] = 0x30
  sha256Into(headInput, at, digestScratch)
  const out = new Uint8Array(size)
  out.set(digestScratch.subarray(0, headSize), 0)
  let suffix = maskSuffixes.get(seed)
  if (suffix === undefined) maskSuffixes.set(seed, (suffix = Buffer.from(`|mask|${seed}`)))
  maskInput.set(digestScratch.subarray(0, headSize), 0)
  maskInput.set(suffix, headSize)
  sha256Into(maskInput, headSize + suffix.length, digestScratch)
  for (let i = 0; i < tail; i++) {
    const shift = 8 * (tail - 1 - i)
    // high < 2^30 and low < 2^32: their bytes by shifts (>>> reads low as unsigned)
    const byte = shift >= 32 ? (high >>> (shift - 32)) & 0xff : (low >>> shift) & 0xff
    out[headSize + i] = byte ^ digestScratch[i]!
  }
  return out
}

/** encodeId as the layout states it (a network name that is not ASCII, which no network has). */
const encodeIdSlowly = (seed: number, network: string, loc: Locator, size: 32 | 20): Uint8Array => {
  const tail = tailSize(size)
  const packed = packFor(loc, size)
  const head = bytes(seed, size - tail, "id", network, size, packed)
  const m = mask(seed, head, tail)
  const t = toBytesBE(packed, tail).map((x, i) => x ^ (m[i] as number))
  const out = new Uint8Array(size)
  out.set(head, 0)
  out.set(t, size - tail)
  return out
}

/** The locator inside an id of this world and network, or undefined for any other bytes. */
export const decodeId = (seed: number, network: string, id: Uint8Array): Locator | undefined => {
  if (id.length !== 32 && id.length !== 20) return undefined
  const size = id.length as 32 | 20
  const tail = tailSize(size)
  const head = id.subarray(0, size - tail)
  const m = mask(seed, head, tail)
  const packed = fromBytesBE(id.subarray(size - tail).map((x, i) => x ^ (m[i] as number)))
  const loc = unpackFor(packed, size)
  if (!(loc.kind in Kind)) return undefined
  try {
    const again = encodeId(seed, network, loc, size)
    return Buffer.from(again).equals(Buffer.from(id)) ? loc : undefined
  } catch {
    return undefined
  }
}

/** cb58 of bytes and back, as avalanchejs' base58check (the checksum is not checked on decoding, as there). */
export { cb58, fromCb58 } from "../cb58.ts"

export const NODE_ID_PREFIX = "NodeID-"

export const nodeIdString = (b: Uint8Array): string => NODE_ID_PREFIX + cb58(b)

export const nodeIdBytes = (s: string): Uint8Array | undefined =>
  s.startsWith(NODE_ID_PREFIX) ? fromCb58(s.slice(NODE_ID_PREFIX.length)) : undefined

/** The all-zero id: the P-chain's id, the primary subnet's id and the genesis block's parent. */
export const ZERO_ID = cb58(new Uint8Array(32))

export const hex0x = (b: Uint8Array): string => "0x" + Buffer.from(b).toString("hex")

/** Bare bech32 address ("avax1…"), the REST services' form. */
export const bech32 = (hrp: string, b: Uint8Array): string => avax.utils.formatBech32(hrp, b)

/** Chain-prefixed address ("P-avax1…"), the node's form. */
export const chainAddress = (chain: "P" | "X" | "C", hrp: string, b: Uint8Array): string => avax.utils.format(chain, hrp, b)

/**
 * Parses an address as the REST and JSON-RPC inputs allow it: bare or with a chain letter prefix.
 * Returns the hrp and 20 address bytes, or a reason it is not an address.
 */
export const parseAddress = (s: string): { readonly chain?: string; readonly hrp: string; readonly bytes: Uint8Array } | string => {
  const dash = s.indexOf("-")
  const chain = dash > 0 ? s.slice(0, dash) : undefined
  const rest = dash > 0 ? s.slice(dash + 1) : s
  try {
    const [hrp, b] = avax.utils.parseBech32(rest)
    if (b.length !== 20) return `"${s}" does not hold a 20-byte address`
    return chain === undefined ? { hrp, bytes: b } : { chain, hrp, bytes: b }
  } catch {
    return `"${s}" is not a bech32 address`
  }
}
