/**
 * A bounded memo: repeated lookups (block ids, wallet UTXO sets) stay cheap while memory stays
 * capped whatever the scale or the crawl length.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>()
  constructor(private readonly capacity: number) {}

  get(key: K, make: () => V): V {
    const hit = this.map.get(key)
    if (hit !== undefined || this.map.has(key)) {
      // re-insert so the entry counts as recently used
      this.map.delete(key)
      this.map.set(key, hit as V)
      return hit as V
    }
    const value = make()
    this.map.set(key, value)
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next()
      if (!oldest.done) this.map.delete(oldest.value)
    }
    return value
  }
}
