/**
 * A map from 128-bit digests to a positive 32-bit number (the listing guard's pass), in two typed
 * arrays: 20 bytes a slot, at most half the slots used, so ~40 bytes a key (~21 MB at the guard's
 * 500,000 keys, outside the JS heap). A `Map` of key text takes several times that and keeps a
 * string object per key for the collector to trace (measured:
 * docs/performance.md#crawl-memory-part-size-and-the-listing-guard).
 *
 * Open addressing with linear probing; slot `i` holds words `4i..4i+3` of the digest and
 * `values[i]` (0: empty). It starts small and doubles, so a small slice stays small; a caller that
 * knows how many digests come (committed keys, counted first) sizes it once, which spares the
 * rehashing and the moment both the old and the doubled arrays are live. Nothing is ever removed
 * (the guard drops a whole generation instead).
 */
const INITIAL_SLOTS = 1024

/** The power of two of slots that holds `expected` digests at most half full. */
const slotsFor = (expected: number): number => {
  let slots = INITIAL_SLOTS
  while (slots < expected * 2) slots *= 2
  return slots
}

export class DigestTable {
  private words: Uint32Array
  private values: Uint32Array
  private mask: number
  /** Digests held. */
  size = 0

  constructor(expected = 0) {
    const slots = slotsFor(expected)
    this.words = new Uint32Array(slots * 4)
    this.values = new Uint32Array(slots)
    this.mask = slots - 1
  }

  /** The value of digest `d`, 0 when absent. */
  get(d: Uint32Array): number {
    const slot = this.find(d)
    return this.values[slot]!
  }

  /** Sets digest `d` to `value` (> 0). */
  set(d: Uint32Array, value: number): void {
    this.getAndSet(d, value)
  }

  /**
   * Sets digest `d` to `value` (> 0) and returns the value it had (0: absent), in one probe: the
   * guard meets most keys for the first time, and a `get` then `set` walked the same probe twice.
   */
  getAndSet(d: Uint32Array, value: number): number {
    let slot = this.find(d)
    const previous = this.values[slot]!
    if (previous === 0) {
      if ((this.size + 1) * 2 > this.values.length) {
        this.grow()
        slot = this.find(d)
      }
      const w = slot * 4
      this.words[w] = d[0]!
      this.words[w + 1] = d[1]!
      this.words[w + 2] = d[2]!
      this.words[w + 3] = d[3]!
      this.size++
    }
    this.values[slot] = value
    return previous
  }

  /** The slot holding `d`, or the empty slot where it would go. */
  private find(d: Uint32Array): number {
    const d0 = d[0]!
    const d1 = d[1]!
    const d2 = d[2]!
    const d3 = d[3]!
    const words = this.words
    // the digest's words are uniformly mixed, so its first word is a good start
    let slot = d0 & this.mask
    for (;;) {
      if (this.values[slot] === 0) return slot
      const w = slot * 4
      if (words[w] === d0 && words[w + 1] === d1 && words[w + 2] === d2 && words[w + 3] === d3) return slot
      slot = (slot + 1) & this.mask
    }
  }

  private grow(): void {
    const { words, values } = this
    const slots = values.length * 2
    this.words = new Uint32Array(slots * 4)
    this.values = new Uint32Array(slots)
    this.mask = slots - 1
    const d = new Uint32Array(4)
    for (let i = 0; i < values.length; i++) {
      if (values[i] === 0) continue
      d.set(words.subarray(i * 4, i * 4 + 4))
      const slot = this.find(d)
      this.words.set(d, slot * 4)
      this.values[slot] = values[i]!
    }
  }
}
