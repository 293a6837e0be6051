/**
 * The served ids of one chain's hashed blocks, by height: 32 bytes a block in chunks of one typed
 * array each, plus an open-addressing table from an id's bytes back to its height. A chain of
 * millions of blocks is then a few dozen arrays instead of two string maps of millions of entries
 * (which V8 caps at 2^24 and the garbage collector walks again and again); the cb58 text of an id
 * is made only when it is served.
 */
import { cb58, fromCb58 } from "../cb58.ts"
import { Lru } from "./lru.ts"

const ID = 32
/** Blocks a chunk: 2 MiB of ids. */
const CHUNK = 65_536
/** Recent cb58 strings: a page serves its blocks' ids more than once (the block, its txs' block). */
const TEXTS = 4096

export class BlockIdStore {
  private readonly chunks: Uint8Array[] = []
  /** Heights hashed: 0 … count-1. */
  count = 0
  /** Slots of height+1 (0: empty), addressed by an id's first 4 bytes; kept under half full. */
  private table = new Int32Array(1 << 16)
  private readonly texts = new Lru<number, string>(TEXTS)

  /** The id bytes of height h (a view: not to be changed). */
  bytes(h: number): Uint8Array {
    if (h < 0 || h >= this.count) throw new RangeError(`block ${h} is not hashed yet (${this.count} are)`)
    const at = (h % CHUNK) * ID
    return this.chunks[Math.floor(h / CHUNK)]!.subarray(at, at + ID)
  }

  /** The served id of height h, as a node writes it. */
  text(h: number): string {
    return this.texts.get(h, () => cb58(this.bytes(h)))
  }

  /** Records the next height's id (heights are hashed in order). */
  push(id: Uint8Array): void {
    const h = this.count
    if (h % CHUNK === 0) this.chunks.push(new Uint8Array(CHUNK * ID))
    this.chunks[this.chunks.length - 1]!.set(id, (h % CHUNK) * ID)
    this.count++
    if (this.count * 2 > this.table.length) this.grow()
    else this.index(h)
  }

  /** The height whose served id is `id` (cb58), if one is hashed. */
  heightOf(id: string): number | undefined {
    const b = fromCb58(id)
    if (b === undefined || b.length !== ID) return undefined
    const mask = this.table.length - 1
    for (let slot = slotOf(b, 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.table[slot]!
      if (entry === 0) return undefined
      const h = entry - 1
      if (equalAt(this.chunks[Math.floor(h / CHUNK)]!, (h % CHUNK) * ID, b)) return h
    }
  }

  // read in place, not through bytes(): a view a probe was garbage, millions of times a chain
  private index(h: number): void {
    const mask = this.table.length - 1
    let slot = slotOf(this.chunks[Math.floor(h / CHUNK)]!, (h % CHUNK) * ID) & mask
    while (this.table[slot] !== 0) slot = (slot + 1) & mask
    this.table[slot] = h + 1
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2)
    for (let h = 0; h < this.count; h++) this.index(h)
  }
}

/** An id's first 4 bytes (at `at` in b): sha256 output, so already uniform. */
const slotOf = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0

/** Whether the id at `at` in a is b. */
const equalAt = (a: Uint8Array, at: number, b: Uint8Array): boolean => {
  for (let i = 0; i < ID; i++) if (a[at + i] !== b[i]) return false
  return true
}
