/**
 * The Listing state's effect (Crawler.ts): the pass's next page, fetched, mapped (malformed
 * records to `_rejects`), admitted by the slice's ListingGuard and its rows staged in the sink.
 * What comes back is a value: the staged page (counts, no rows), or the service's word that the
 * cursor expired, which is the pass's to act on (SliceState.ts `cursorExpired`), not an error.
 * The fetched rows live only inside this effect: nothing holds them while the next page is
 * fetched.
 */
import { Clock, Effect, Option } from "effect"
import type { SinkError } from "../Errors.ts"
import { SourceError } from "../Errors.ts"
import { asListingPage } from "../source/ListingPage.ts"
import { SourceStats } from "../source/SourceStats.ts"
import { forgetText } from "../source/SourceText.ts"
import { rejectsKey } from "../transform/Rejects.ts"
import { toRows } from "../transform/ToRows.ts"
import { keyOf } from "./CommittedKeys.ts"
import { withPageSources } from "./PageSources.ts"
import { probeScope } from "./ProbedPages.ts"
import type { BufferedPage, FetchedPage, SliceCrawl } from "./SliceCrawl.ts"
import type { Pass } from "./SliceState.ts"

/** What asking for a page came to: the page, staged, or the cursor expired (ours is then stale, the listing starts over). */
export type PageOutcome = { readonly _tag: "Page"; readonly page: BufferedPage } | { readonly _tag: "Expired" }

const expired: PageOutcome = { _tag: "Expired" }

const isExpiry = (e: unknown): e is SourceError => e instanceof SourceError && e.reason === "TokenExpired"

/**
 * The first page the backfill's probe asked for this slice (ProbedPages.ts), its requests now the
 * slice's: only at the run's first pass, first page, no cursor, and while its next token is within
 * the listing's TTL. Whatever the pass, the slice's probed page is gone after its first fetch.
 */
const probedFirst = <R>(crawl: SliceCrawl<R>, pass: Pass) =>
  Effect.gen(function* () {
    const { dataset, slice, options } = crawl
    const probed = options.probed?.take(dataset.name, slice)
    if (probed === undefined || pass.no !== 0 || pass.pages !== 0 || pass.cursor !== undefined) return undefined
    const now = yield* Clock.currentTimeMillis
    if (probed.page.next !== undefined && crawl.ttlMs !== undefined && now - probed.receivedAt > crawl.ttlMs) return undefined
    const stats = yield* Effect.serviceOption(SourceStats)
    if (Option.isSome(stats)) yield* stats.value.claim(probeScope(dataset.name, slice))
    return probed
  })

/** The pass's next page with the answers it was made from, and when it was received. */
const pageOf = <R>(crawl: SliceCrawl<R>, pass: Pass) =>
  Effect.gen(function* () {
    const probed = yield* probedFirst(crawl, pass)
    if (probed !== undefined) return probed
    // with the answers it was made from: a reject's raw text is cut from theirs (PageSources.ts);
    // its requests go before those of listings less far along (source/ListingPage.ts)
    const [page, sources] = yield* withPageSources(asListingPage(pass.pageNo)(crawl.dataset.listing.fetch(crawl.slice, pass.cursor)))
    return { page, sources, receivedAt: yield* Clock.currentTimeMillis }
  })

const fetchPage = <R>(crawl: SliceCrawl<R>, pass: Pass) =>
  Effect.gen(function* () {
    const { dataset, slice, options } = crawl
    const { page, sources, receivedAt } = yield* pageOf(crawl, pass)
    const mapped = toRows(dataset, slice, page.records, { runId: options.runId, ingestedAt: options.ingestedAt, page: pass.pageNo }, sources)
    // the rejects have their raw text: the bodies' text (or bytes) need not wait for the collector
    forgetText(sources)
    const admitted = crawl.guard.admit(
      { rows: mapped.mapped, rejects: mapped.rejects, next: page.next },
      pass.pageNo,
      (m) => keyOf(m.row, dataset.key),
      (r) => keyOf(r, rejectsKey),
      pass.skip
    )
    if (admitted instanceof SourceError) return yield* Effect.fail(admitted)
    // holes are counted before the guard: a record rejected again is still a hole, though its reject row is on disk already
    const keys = page.keys
    const holeKeys = keys === undefined ? [] : mapped.holes.flatMap((i) => (keys[i] === undefined ? [] : [keys[i]]))
    const fetched: FetchedPage = {
      rows: admitted.rows,
      rejects: admitted.rejects,
      holes: mapped.holes.length,
      holeKeys,
      unknownFields: mapped.unknownFields,
      next: page.next,
      reach: page.reach,
      receivedAt
    }
    return fetched
  })

/** Hands a page's rows to the sink's staged parts; what stays in the buffer is their counts. */
const stagePage = <R>(crawl: SliceCrawl<R>, page: FetchedPage): Effect.Effect<BufferedPage, SinkError> =>
  Effect.gen(function* () {
    const { rows: mapped, ...rest } = page
    const staged: number[] = []
    let partBytes = 0
    for (const [t, table] of crawl.stagedTables.entries()) {
      const rows = t === 0 ? mapped.map((m) => m.row) : mapped.flatMap((m) => m.children.find(([name]) => name === table.dataset)?.[1] ?? [])
      // the table's part as it now stands (with no rows too: an earlier page's rows count)
      partBytes += yield* crawl.sink.stage({ ...table, slice: crawl.slice.id, rows })
      staged.push(rows.length)
    }
    return { ...rest, staged, partBytes }
  })

/**
 * The pass's next page, staged into the part the buffered pages began (so a page is never
 * staged into the part before it: the commit of that part came first).
 */
export const nextPage = <R>(crawl: SliceCrawl<R>, pass: Pass): Effect.Effect<PageOutcome, SourceError | SinkError, R> =>
  fetchPage(crawl, pass).pipe(
    Effect.flatMap((fetched) => stagePage(crawl, fetched)),
    Effect.map((page): PageOutcome => ({ _tag: "Page", page })),
    Effect.catchIf(isExpiry, () => Effect.succeed(expired))
  )

/** Drops rows staged for a part that will not be written (the buffer was dropped, or the crawl ended). */
export const discardStaged = <R>(crawl: SliceCrawl<R>) =>
  Effect.forEach(crawl.stagedTables, (t) => crawl.sink.discard(t.dataset, crawl.slice.id), { discard: true })
