/**
 * Record keys as the listing guard digests them, shared by the guard (keys seen in a slice) and
 * CommittedKeys (keys already on disk, skipped after a restart), so a key met on a page is hashed
 * once and looked up in both with the same digest.
 */
import { DigestTable } from "./DigestTable.ts"
import { murmur3String } from "./Murmur3.ts"

/**
 * Row keys and reject keys are digested with different seeds: the guard keeps both in one table
 * and the two must never meet there. Keys on disk are digested with the seed of their kind, so the
 * guard's digest of a page's key is already the one to look up.
 */
export const ROW_SEED = 1
export const REJECT_SEED = 2

/** Keys to test a record's key against: a `ReadonlySet<string>` is one, and so are `KeyDigests`. */
export interface KeyLookup {
  has(key: string): boolean
}

/**
 * A read-only set of keys held as their 128-bit digests (~40 bytes a key, no string per key for
 * the collector; a `Set` of the key texts takes ~100+). Two keys with one digest would count as
 * one: by chance ~n²/2¹²⁹, nil at any slice's size.
 */
export class KeyDigests implements KeyLookup {
  /** The digest of the key at hand (one buffer for every lookup by text). */
  private readonly digest = new Uint32Array(4)

  private constructor(
    /** The seed every key was digested with: a lookup by digest must have used the same. */
    readonly seed: number,
    private readonly table: DigestTable
  ) {}

  /** Keys added one by one, then frozen by `done`; `expected` sizes the table once. */
  static builder(seed: number, expected = 0): { readonly add: (key: string) => void; readonly done: () => KeyDigests } {
    const table = new DigestTable(expected)
    const d = new Uint32Array(4)
    return {
      add: (key) => {
        murmur3String(key, seed, d)
        table.set(d, 1)
      },
      done: () => new KeyDigests(seed, table)
    }
  }

  static of(seed: number, keys: Iterable<string>): KeyDigests {
    const b = KeyDigests.builder(seed)
    for (const k of keys) b.add(k)
    return b.done()
  }

  /** Distinct keys held. */
  get size(): number {
    return this.table.size
  }

  has(key: string): boolean {
    murmur3String(key, this.seed, this.digest)
    return this.table.get(this.digest) !== 0
  }

  /** Whether the key whose digest with `seed` is `d` is held (the caller checked the seed). */
  hasDigest(d: Uint32Array): boolean {
    return this.table.get(d) !== 0
  }
}
