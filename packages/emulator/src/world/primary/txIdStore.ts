/**
 * The served ids of hashed txs (all but the RewardValidatorTxs: rewardIds.ts), kept as blocks'
 * are (blockIdStore.ts): 32 bytes an entry in chunked typed arrays, with an open-addressing table
 * from the bytes back to the entry. An entry is named by its tx's locator packed into one number
 * (kind, a, b, c in 6 + 27 + 12 + 8 bits: every tx locator the world makes), held in a second
 * table, so neither direction keeps a string or a Map entry: a chain of millions of txs held two
 * string maps of millions of entries, which the garbage collector walked again and again, whose
 * lookups slowed as they grew, and which V8 caps at 2^24 entries. The few txs named by no
 * packable locator (the adopted L1's subnet and chain, named by the EVM world's ids) are kept by
 * their world id string beside.
 */
import { BlockIdStore } from "./blockIdStore.ts"
import { Kind, type Locator } from "./ids.ts"

/** Locator keys an entry: chunked like the ids. */
const CHUNK = 65_536

/** A locator as one number, or undefined where it does not fit (a ≥ 2^27, b ≥ 2^12, c ≥ 2^8). */
export const txKey = (l: Locator): number | undefined =>
  l.a === (l.a & 0x7ffffff) && l.b === (l.b & 0xfff) && l.c === (l.c & 0xff) && l.kind === (l.kind & 0x3f)
    ? ((l.kind * 0x8000000 + l.a) * 0x1000 + l.b) * 0x100 + l.c
    : undefined

/** The locator of a key made by txKey. */
export const locatorOfKey = (key: number): Locator => {
  const c = key % 0x100
  const b = Math.floor(key / 0x100) % 0x1000
  const rest = Math.floor(key / 0x100000)
  return { kind: Math.floor(rest / 0x8000000) as Kind, a: rest % 0x8000000, b, c }
}

/** A key's slot: its two 32-bit halves mixed (keys are dense in a and sparse in kind). */
const slotOf = (key: number): number => {
  let h = Math.imul((key >>> 0) ^ Math.imul(Math.floor(key / 0x100000000) | 0, 0x9e3779b1), 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

export class TxIdStore {
  /** Served ids by entry, and the table back from a served id to its entry. */
  private readonly ids = new BlockIdStore()
  /** Each entry's key (NaN for an entry named by string). */
  private readonly keys: Float64Array[] = []
  /** Slots of entry+1 (0: empty), addressed by slotOf(key); kept under half full. */
  private table = new Int32Array(1 << 16)
  /** Entries of txs whose world id is no packable locator, by that id, and back. */
  private readonly byString = new Map<string, number>()
  private readonly stringOf = new Map<number, string>()

  get count(): number {
    return this.ids.count
  }

  /** The entry of a hashed tx by its key (txKey) or, for a tx named by no locator, its world id. */
  find(key: number | string): number | undefined {
    if (typeof key === "string") return this.byString.get(key)
    const mask = this.table.length - 1
    for (let slot = slotOf(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot]!
      if (entry === 0) return undefined
      if (this.keyAt(entry - 1) === key) return entry - 1
    }
  }

  /** Records a hashed tx's served id under its key; its entry. */
  add(key: number | string, served: Uint8Array): number {
    const e = this.ids.count
    this.ids.push(served)
    if (e % CHUNK === 0) this.keys.push(new Float64Array(CHUNK))
    this.keys[this.keys.length - 1]![e % CHUNK] = typeof key === "string" ? NaN : key
    if (typeof key === "string") {
      this.byString.set(key, e)
      this.stringOf.set(e, key)
    } else if (this.ids.count * 2 > this.table.length) this.grow()
    else this.index(e)
    return e
  }

  /** The served id bytes of entry e (a view: not to be changed). */
  bytes(e: number): Uint8Array {
    return this.ids.bytes(e)
  }

  /** The entry whose served id is `id` (cb58), if one is hashed. */
  entryOfServed(id: string): number | undefined {
    return this.ids.heightOf(id)
  }

  /** What names entry e: its key, or its world id where no locator does. */
  nameOf(e: number): number | string {
    return this.stringOf.get(e) ?? this.keyAt(e)
  }

  private keyAt(e: number): number {
    return this.keys[Math.floor(e / CHUNK)]![e % CHUNK]!
  }

  private index(e: number): void {
    const key = this.keyAt(e)
    if (Number.isNaN(key)) return
    const mask = this.table.length - 1
    let slot = slotOf(key) & mask
    while (this.table[slot] !== 0) slot = (slot + 1) & mask
    this.table[slot] = e + 1
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2)
    for (let e = 0; e < this.ids.count; e++) this.index(e)
  }
}
