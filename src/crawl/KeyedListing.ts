/**
 * Listings over keys instead of page tokens: fan-outs (one lookup per transaction hash, node id,
 * NFT…) and height ranges (one node call per block height). A page is a batch of keys fetched
 * with bounded concurrency (inside the host's shared rate limit); the cursor is the last key of
 * the batch, so a resumed run asks `nextKeys` for keys after it — correct even when the pending
 * set shrank because a crash happened after a commit.
 */
import { Effect } from "effect"
import { SourceError } from "../Errors.ts"
import type { SinkError } from "../Errors.ts"
import { type CursorCodec, tokenCursor } from "./Cursor.ts"
import { NotFoundRecord, type Listing } from "./Dataset.ts"
import type { Slice } from "./Slice.ts"

export interface KeyedListingSpec<R> {
  /**
   * Up to `limit` keys after `after` (undefined: from the start), in the order the cursor
   * follows. Fan-outs return only keys not fetched before.
   */
  readonly nextKeys: (slice: Slice, after: string | undefined, limit: number) => Effect.Effect<ReadonlyArray<string>, SourceError | SinkError, R>
  /** The records of one key (often exactly one). */
  readonly fetch: (slice: Slice, key: string) => Effect.Effect<ReadonlyArray<unknown>, SourceError, R>
  /** Keys per page (and so per checkpoint step). */
  readonly batch: number
  /** Lookups in flight per page. */
  readonly concurrency: number
  /** True when nextKeys excludes keys already committed (fan-outs). */
  readonly excludesCommitted?: boolean
}

/** A 404 on one key is that key's problem: it becomes a reject, the rest of the batch is kept. */
const orNotFound = (key: string) => (e: SourceError) =>
  e.reason === "HttpStatus" && e.status === 404 ? Effect.succeed([new NotFoundRecord(key, e.request)]) : Effect.fail(e)

export const keyedListing = <R>(spec: KeyedListingSpec<R>): Listing<R> & { readonly cursor: CursorCodec<string> } => ({
  ...(spec.excludesCommitted === true ? { excludesCommitted: true } : {}),
  // the cursor is a key as nextKeys handed it out
  cursor: tokenCursor,
  // nextKeys from the start yields every key not written (a fan-out leaves out only settled
  // answers), so a pass from the first page asks again for the keys whose records were rejected
  revisits: () => true,
  fetch: (slice, cursor) =>
    Effect.gen(function* () {
      const keys = yield* spec.nextKeys(slice, cursor, spec.batch)
      const records = yield* Effect.forEach(keys, (key) => spec.fetch(slice, key).pipe(Effect.catchIf((e): e is SourceError => e instanceof SourceError, orNotFound(key))), {
        concurrency: spec.concurrency
      })
      return {
        records: records.flat(),
        keys: records.flatMap((rs, i) => rs.map(() => keys[i]!)),
        next: keys.length === spec.batch ? keys[keys.length - 1] : undefined
      }
    })
})

/** Decimal heights as keys: fixed width so string order is numeric order. */
export const heightKey = (h: bigint): string => h.toString().padStart(20, "0")
export const keyHeight = (k: string): bigint => BigInt(k)

/** Heights [from, to) after `after`, at most `limit`: the nextKeys of a height-range slice. */
export const heightsAfter = (from: bigint, to: bigint, after: string | undefined, limit: number): ReadonlyArray<string> => {
  const start = after === undefined ? from : keyHeight(after) + 1n
  const out: string[] = []
  for (let h = start; h < to && out.length < limit; h++) out.push(heightKey(h))
  return out
}
