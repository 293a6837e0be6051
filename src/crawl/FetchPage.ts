/**
 * Steps 2 and 3 of the crawl (Crawler.ts): one pass of the listing from the checkpoint's cursor.
 * Each page is fetched, mapped (malformed records to `_rejects`), admitted by the slice's
 * ListingGuard, and its rows staged in the sink; pages are buffered up to `partRows` rows or
 * `partBytes` staged bytes (PartSize.ts) and then committed (CommitPart.ts). A pass ends at the
 * last page, or asks for a restart from the first page when the cursor expired (ours by age, or
 * the service's answer).
 */
import { Chunk, Clock, Effect, Option, Stream } from "effect"
import type { CheckpointError, SinkError } from "../Errors.ts"
import { SourceError } from "../Errors.ts"
import { forgetText } from "../source/SourceText.ts"
import { rejectsKey } from "../transform/Rejects.ts"
import { toRows } from "../transform/ToRows.ts"
import { keyOf } from "./CommittedKeys.ts"
import { commitPart } from "./CommitPart.ts"
import { startPass } from "./Holes.ts"
import { withPageSources } from "./PageSources.ts"
import { emit } from "./Progress.ts"
import type { BufferedPage, CrawlState, FetchedPage, SliceCrawl } from "./SliceCrawl.ts"

/** The pass stopped because the cursor expired: the listing starts over from its first page. */
export class Restart {
  readonly _tag = "Restart"
}

export type PassOutcome = "done" | Restart

type PassError = SourceError | SinkError | CheckpointError

const fetchPage = <R>(crawl: SliceCrawl<R>, state: CrawlState, cursor: string | undefined, pageNo: number) =>
  Effect.gen(function* () {
    const { dataset, slice, options } = crawl
    // with the answers it was made from: a reject's raw text is cut from theirs (PageSources.ts)
    const [page, sources] = yield* withPageSources(dataset.listing.fetch(slice, cursor))
    const receivedAt = yield* Clock.currentTimeMillis
    const mapped = toRows(dataset, slice, page.records, { runId: options.runId, ingestedAt: options.ingestedAt, page: pageNo }, sources)
    // the rejects have their raw text: the bodies' text (or bytes) need not wait for the collector
    forgetText(sources)
    const admitted = crawl.guard.admit(
      { rows: mapped.mapped, rejects: mapped.rejects, next: page.next },
      pageNo,
      (m) => keyOf(m.row, dataset.key),
      (r) => keyOf(r, rejectsKey),
      state.skip
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

/** Drops rows staged for a part that will not be written (the buffer was dropped, or the crawl failed). */
const discardStaged = <R>(crawl: SliceCrawl<R>) =>
  Effect.forEach(crawl.stagedTables, (t) => crawl.sink.discard(t.dataset, crawl.slice.id), { discard: true })

const cursorExpired = <R>(crawl: SliceCrawl<R>, state: CrawlState, now: number): boolean => {
  const { cursor, cursorIssuedAt } = state.checkpoint
  return cursor !== null && crawl.ttlMs !== undefined && cursorIssuedAt !== null && now - cursorIssuedAt > crawl.ttlMs
}

/**
 * The listing's pages from the checkpoint's cursor, one at a time (a Stream: never the whole
 * listing), each staged as it is pulled. The stream holds the element it emitted last until the
 * next pull is done (a heap snapshot showed a page's rows held so during the next request and
 * parse), so the element is the staged page: counts, no rows. The next pull starts only once
 * `take` is done with this page, its part's commit included, so a page is never staged into the
 * part before it.
 */
const pagesFrom = <R>(crawl: SliceCrawl<R>, state: CrawlState, first: string | undefined) =>
  Stream.paginateChunkEffect({ cursor: first, pageNo: state.checkpoint.pagesCommitted }, (at) =>
    fetchPage(crawl, state, at.cursor, at.pageNo).pipe(
      Effect.flatMap((fetched) => stagePage(crawl, fetched)),
      Effect.map((p) => [Chunk.of(p), p.next === undefined ? Option.none() : Option.some({ cursor: p.next, pageNo: at.pageNo + 1 })] as const)
    )
  )

export const listingPass = <R>(crawl: SliceCrawl<R>, state: CrawlState): Effect.Effect<PassOutcome, PassError, R> =>
  Effect.gen(function* () {
    state.passPages = 0
    if (cursorExpired(crawl, state, yield* Clock.currentTimeMillis)) return new Restart()
    state.checkpoint = startPass(state.checkpoint, crawl.dataset.listing.revisits?.(crawl.slice) === true)
    const first = state.checkpoint.cursor ?? undefined
    // a replacing listing keeps nothing of an earlier pass: its keys are not seen
    crawl.guard.startPass(first, crawl.rerun === "replace")
    let buffer: BufferedPage[] = []
    let buffered = 0
    const take = (page: BufferedPage) =>
      Effect.gen(function* () {
        state.passPages++
        state.fetchedPages++
        state.fetchedRows += page.staged[0] ?? 0
        yield* emit({ type: "page", at: page.receivedAt, dataset: crawl.dataset.name, slice: crawl.slice.id, pages: state.fetchedPages, rows: state.fetchedRows })
        buffer.push(page)
        buffered += page.staged.reduce((n, k) => n + k, 0) + page.rejects.length
        if (buffered >= crawl.partRows || page.partBytes >= crawl.partBytes || page.next === undefined) {
          const toCommit = buffer
          buffer = []
          buffered = 0
          yield* commitPart(crawl, state, toCommit, "continue")
        }
      })
    return yield* pagesFrom(crawl, state, first).pipe(
      Stream.runForEach(take),
      Effect.as<PassOutcome>("done"),
      Effect.catchIf(
        (e): e is SourceError => e instanceof SourceError && e.reason === "TokenExpired",
        () =>
          // keep the pages already fetched: they are valid data, and committing them is progress;
          // not a replacing listing's: part of a new version would show beside the old one whole
          (buffer.length > 0 && crawl.rerun !== "replace" ? commitPart(crawl, state, buffer, "restart") : Effect.void).pipe(
            Effect.as(new Restart())
          )
      ),
      // whatever the pass leaves uncommitted (a replacing listing's dropped buffer, a failure)
      // must not hold its DuckDB connection, nor reach the next part
      Effect.ensuring(discardStaged(crawl))
    )
  })
