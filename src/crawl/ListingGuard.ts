/**
 * The crawler's rules against a listing that misbehaves, per slice:
 *
 * - **Progress or stop.** A pass of the listing (from its checkpoint's cursor, or from the first
 *   page after a restart) must not be handed a page token it already asked for in that pass
 *   (`TokenRepeated`: a cycle would never end), and must not go on for `noProgressPages` pages in
 *   a row that hold no record new to the pass (`NoProgress`: endless empty pages, or the same
 *   records again under fresh tokens). Either fails the slice at once, before the next request:
 *   the pages buffered since the last commit are dropped, so nothing past the last good commit
 *   is written, and the next run resumes from that checkpoint.
 * - **Exactly once within a listing.** A record whose key was already seen in the slice (earlier
 *   on the same page, on another page or part of this run, in an earlier pass, or committed by an
 *   earlier run: the crawler hands those over as `committed`) is not written again. The **first
 *   version seen wins**: it may already be committed, and committed parts are never rewritten
 *   (a later version would need the earlier part superseded, which only a replacing listing
 *   does, whole). Repeats inside one pass are the service's doing and are counted (`duplicates`).
 *
 * Memory: tokens are remembered per pass (one per page). Keys are remembered as 128-bit digests
 * (MurmurHash3_x86_128 of the key's UTF-8, `Murmur3.ts`) in typed arrays (`DigestTable.ts`, ~40
 * bytes a key outside the JS heap's objects), in two generations of `maxKeys / 2`: when the current
 * one is full it becomes the older one and the oldest is dropped. So a slice holds at most
 * `maxKeys` keys (default 500,000: ~21 MB, only for a slice that large; the key texts in a `Map`
 * took several times that of live heap and kept a 1M-row run's memory growing until half a
 * million rows: docs/performance.md#crawl-memory-part-size-and-the-listing-guard); a
 * slice larger than that still never doubles a key committed by an earlier run or pass (those come
 * from `committed`, read back from its parts), but a repeat more than 250,000 keys after its first
 * sending within one pass may be missed, and so may a cycle of fresh tokens that long. Two keys
 * with one digest would count as one: by chance that is ~n²/2¹²⁹ (nil at these sizes).
 */
import { createHash } from "node:crypto"
import { SourceError } from "../Errors.ts"
import { DigestTable } from "./DigestTable.ts"
import { type KeyLookup, KeyDigests, REJECT_SEED, ROW_SEED } from "./KeyDigests.ts"
import { murmur3String } from "./Murmur3.ts"

export interface GuardLimits {
  /** Pages in a row without a record new to the pass before the listing counts as stuck. */
  readonly noProgressPages: number
  /** Keys remembered per slice (two generations of half). */
  readonly maxKeys: number
}

export const DEFAULT_GUARD_LIMITS: GuardLimits = { noProgressPages: 50, maxKeys: 500_000 }

/**
 * Page tokens (one per page) up to the length of a 0x hash or a cb58 id as they are, longer ones
 * as an MD5 digest; the prefix keeps the two kinds apart.
 */
const SHORT_TOKEN = 72
const compact = (text: string): string =>
  text.length <= SHORT_TOKEN ? `s${text}` : `h${createHash("md5").update(text).digest("base64")}`

const clip = (token: string): string => (token.length > 40 ? `${token.slice(0, 40)}…` : token)

/** Key digests with the pass that last met them, in two bounded generations. */
class SeenKeys {
  private current = new DigestTable()
  private older = new DigestTable()
  constructor(private readonly generation: number) {}

  /**
   * Marks digest `d` as met in `pass` and returns the pass that last met it before (0: none
   * remembered). A key new to the current generation costs one probe of it and one of the older.
   */
  meet(d: Uint32Array, pass: number): number {
    // only a full generation needs to know first whether `d` is in it (a new key starts the next)
    if (this.current.size >= this.generation && this.current.get(d) === 0) {
      this.older = this.current
      this.current = new DigestTable()
    }
    return this.current.getAndSet(d, pass) || this.older.get(d)
  }

  clear(): void {
    this.current = new DigestTable()
    this.older = new DigestTable()
  }
}

/** Keys already on disk (`KeyDigests` digested with the page's seed are looked up by its digest). */
export interface Committed {
  readonly rows: KeyLookup
  readonly rejects: KeyLookup
}

export interface Admitted<A, B> {
  readonly rows: A[]
  readonly rejects: B[]
}

export class ListingGuard {
  private pass = 0
  private readonly tokens = new Map<string, number>()
  private readonly seen: SeenKeys
  /** The digest of the key at hand (one buffer for every key). */
  private readonly digest = new Uint32Array(4)
  private idlePages = 0
  /** Records dropped because the service sent their key again within one pass. */
  duplicates = 0

  constructor(
    private readonly listing: string,
    private readonly limits: GuardLimits = DEFAULT_GUARD_LIMITS
  ) {
    this.seen = new SeenKeys(Math.max(1, Math.floor(limits.maxKeys / 2)))
  }

  /**
   * A new pass from `cursor` (undefined: the first page). `forget`: nothing of the earlier passes
   * was kept (a replacing listing commits only at its end), so their keys do not count as seen.
   */
  startPass(cursor: string | undefined, forget = false): void {
    this.pass++
    this.tokens.clear()
    this.idlePages = 0
    if (forget) this.seen.clear()
    if (cursor !== undefined) this.tokens.set(compact(cursor), 0)
  }

  /**
   * The page's records not written before, in order, marked as seen; fails when the page breaks
   * a rule. `rowKey`/`rejectKey` give a record's key text; `committed` tells keys already on disk.
   */
  admit<A, B>(
    page: { readonly rows: ReadonlyArray<A>; readonly rejects: ReadonlyArray<B>; readonly next: string | undefined },
    pageNo: number,
    rowKey: (a: A) => string,
    rejectKey: (b: B) => string,
    committed: Committed | undefined
  ): Admitted<A, B> | SourceError {
    let progress = false
    const digest = this.digest
    const take = <T>(items: ReadonlyArray<T>, keyOf: (t: T) => string, onDisk: KeyLookup | undefined, seed: number): T[] => {
      // digests made with this seed are looked up with the digest at hand: each key hashed once
      const byDigest = onDisk instanceof KeyDigests && onDisk.seed === seed ? onDisk : undefined
      const kept: T[] = []
      for (const item of items) {
        const text = keyOf(item)
        murmur3String(text, seed, digest)
        const metIn = this.seen.meet(digest, this.pass)
        if (metIn === this.pass) {
          this.duplicates++
          continue
        }
        progress = true
        if (metIn !== 0) continue
        if (byDigest !== undefined ? byDigest.hasDigest(digest) : onDisk?.has(text) === true) continue
        kept.push(item)
      }
      return kept
    }
    const rows = take(page.rows, rowKey, committed?.rows, ROW_SEED)
    const rejects = take(page.rejects, rejectKey, committed?.rejects, REJECT_SEED)
    this.idlePages = progress ? 0 : this.idlePages + 1
    if (this.idlePages >= this.limits.noProgressPages) {
      return new SourceError({
        reason: "NoProgress",
        request: this.listing,
        detail: `${this.idlePages} pages in a row (up to page ${pageNo}) brought no record new to this pass (empty pages, or records already sent); the listing was stopped instead of looping. Its committed pages are kept; report the listing to the service`
      })
    }
    if (page.next !== undefined) {
      const token = compact(page.next)
      const first = this.tokens.get(token)
      if (first !== undefined) {
        return new SourceError({
          reason: "TokenRepeated",
          request: this.listing,
          detail: `page ${pageNo} answered the page token ${JSON.stringify(clip(page.next))}, already asked for ${first === 0 ? "first" : `after page ${first - 1}`} in this pass: the listing would cycle. It was stopped; its committed pages are kept; report the listing to the service`
        })
      }
      this.tokens.set(token, pageNo + 1)
    }
    return { rows, rejects }
  }
}
