/** Listing helpers of the primary-network REST datasets (delegators, validators, l1_validators, utxos, aggregated_signatures, primary_blocks). */
import { Effect } from "effect"
import { type Listing } from "../../src/crawl/Dataset.ts"
import { listPage } from "../../src/crawl/RestListing.ts"
import { type Slice } from "../../src/crawl/Slice.ts"
import { type SinkError } from "../../src/Errors.ts"
import { RestClient } from "../../src/source/RestClient.ts"

/** Route 12's newest block time on a primary chain (it lists latest first): what "now" is for the service. */
export const latestPrimaryBlockTime = (network: string, blockchain: string) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const body = (yield* client.get("data", `/v1/networks/${network}/blockchains/${blockchain}/blocks`, { pageSize: 1 })) as { blocks?: Array<{ blockTimestamp?: unknown }> }
    const t = body.blocks?.[0]?.blockTimestamp
    return typeof t === "number" ? t : undefined
  })


/**
 * Every item of a GET list route, page after page: for fan-outs where one key is a whole listing
 * (route 7 per node id). The key is small (a node's validations), so its pages are held together.
 */
export const getAllPages = (path: string, query: Record<string, string | number | boolean | undefined>, items: string, pageSize: number) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const out: unknown[] = []
    let token: string | undefined
    do {
      const body = yield* client.get("data", path, { ...query, pageSize, pageToken: token })
      const page = yield* listPage(body, items, `GET data ${path}`)
      out.push(...page.records)
      token = page.next
    } while (token !== undefined)
    return out
  })


/**
 * A listing that yields each record key at most once per slice, even when the service repeats a
 * record on a later page (paging over a set that changes between pages). Keys seen are kept while
 * the listing runs; a listing resumed from a checkpoint in a new process first reads the keys its
 * slice already committed (`committed`), so a repeat across the crash is dropped as well.
 * Records without a key pass through to toRow, which rejects them.
 */
export const distinctRecords = <R, R2>(
  listing: Listing<R>,
  keyOf: (record: unknown) => string | undefined,
  committed: (slice: Slice) => Effect.Effect<ReadonlyArray<string>, SinkError, R2>
): Listing<R | R2> => {
  // per slice: the cursor this listing handed out last, and the keys seen up to it
  const running = new Map<string, { next: string; seen: Set<string> }>()
  return {
    ...listing,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const mine = running.get(slice.id)
        // the first page starts afresh (the crawler skips committed keys itself on a restart);
        // a cursor this listing did not just hand out is a resume: reload what is on disk
        const seen =
          cursor === undefined ? new Set<string>() : mine !== undefined && mine.next === cursor ? mine.seen : new Set(yield* committed(slice))
        const page = yield* listing.fetch(slice, cursor)
        const records = page.records.filter((r) => {
          const key = keyOf(r)
          if (key === undefined) return true
          if (seen.has(key)) return false
          seen.add(key)
          return true
        })
        if (page.next === undefined) running.delete(slice.id)
        else running.set(slice.id, { next: page.next, seen })
        return { records, next: page.next }
      })
  }
}
