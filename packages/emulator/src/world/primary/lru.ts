/**
 * A bounded memo: repeated lookups (block ids, wallet UTXO sets) stay cheap while memory stays
 * capped whatever the scale or the crawl length.
 *
 * Two generations instead of a strict LRU order: entries go into the young map; when it holds
 * `capacity` entries it becomes the old one (the previous old one is dropped), and a hit in the old
 * map moves the entry back into the young one. What was used within the last `capacity` insertions
 * stays, as with an LRU, but a hit costs one map lookup: re-inserting every hit to keep the order
 * (delete + set on maps of 32k entries, millions of times while a chain is hashed) cost more than
 * the values it saved. Holds at most 2 × capacity entries.
 */
export class Lru<K, V> {
  /** Values as held: an undefined value as NOTHING, so a get alone tells a miss (get then has cost two lookups a map). */
  private young = new Map<K, V | typeof NOTHING>()
  private old = new Map<K, V | typeof NOTHING>()
  constructor(private readonly capacity: number) {}

  get(key: K, make: () => V): V {
    const hit = this.lookup(key)
    if (hit !== MISSING) return hit as V
    const value = make()
    this.set(key, value)
    return value
  }

  /** The value held for key, if any (counts as a use); nothing is made. */
  find(key: K): V | undefined {
    const hit = this.lookup(key)
    return hit === MISSING ? undefined : (hit as V)
  }

  /** Whether key is held (counts as a use). */
  has(key: K): boolean {
    return this.lookup(key) !== MISSING
  }

  /** Holds key → value (undefined too: a memo may remember that there is nothing). */
  set(key: K, value: V): void {
    if (this.young.size >= this.capacity && !this.young.has(key)) {
      this.old = this.young
      this.young = new Map()
    }
    this.young.set(key, value === undefined ? NOTHING : value)
  }

  private lookup(key: K): V | typeof MISSING {
    const young = this.young.get(key)
    if (young !== undefined) return young === NOTHING ? (undefined as V) : young
    const old = this.old.get(key)
    if (old === undefined) return MISSING
    const value = old === NOTHING ? (undefined as V) : old
    this.set(key, value)
    return value
  }
}

const MISSING: unique symbol = Symbol("missing")
const NOTHING: unique symbol = Symbol("nothing")
