/**
 * Crawls one slice, resuming from its checkpoint: the protocol, top to bottom. The slice's state
 * is one value (SliceState.ts); each live state names one effect, whose outcome (a failure
 * included) goes to a pure transition that makes the next state, until the slice is over:
 *  1. Opening: read the checkpoint, its cursor judged by the listing's codec (Cursor.ts); a slice
 *     an earlier run finished for good is Final.
 *  2. Recovering: delete parts written after the checkpoint (a crash between rename and
 *     checkpoint) and those a finished replacing listing superseded, then save the slice running.
 *  3. Ready: a pass begins from the checkpoint's cursor, or the listing starts over when that
 *     cursor outlived the listing's TTL; a pass that may meet keys on disk reads them to skip.
 *  4. Listing: fetch the next page, map it, let the guard admit it, stage its rows (FetchPage.ts);
 *     buffer it, and when a part is due, go to 5; the service's "token expired" goes to 6.
 *  5. Committing: the part, then its checkpoint (CommitPart.ts); then on to 4, 6, or Done.
 *  6. Restarting: the restart is saved and the next pass begins from the first page.
 *  7. Over: Done, Final, or Failed, whose checkpoint is saved failed with the reason.
 *
 * - **Rules.** Data first, checkpoint second: no part is written before "running" is on disk (a
 *   new slice's may be in its dataset's opening journal, written for all of them: OpeningJournal.ts),
 *   no checkpoint moves past data that is not durable, no page is asked for again before a
 *   restart is saved. Every page goes through the slice's ListingGuard: a key already seen or
 *   committed is not written again, and a listing that repeats a token or stops bringing new
 *   keys fails (ListingGuard.ts). A restart commits what is buffered first (not a replacing
 *   listing's), and a second one that gains nothing fails the slice instead of looping.
 * - **Memory.** A page's rows are staged in the sink as it arrives and live only inside the
 *   fetch's effect (the sink keeps a part's first 31 rows in JavaScript: StagedParts.ts); the state holds counts, rejects and hole keys of the buffered pages, the
 *   guard's bounded key digests and, after a restart or a resume, the slice's committed keys.
 * - **Failure modes.** A failed effect ends the slice Failed with its checkpoint where the disk
 *   has it; staged rows are discarded whatever ends the crawl, a kill or defect included. A
 *   checkpoint that could not be read is never written over (a broken one names its file and
 *   the fix). A refusal of our credentials marks the result `stopsRun` (RunStop.ts).
 */
import { Clock, Effect, Option } from "effect"
import type { SinkError } from "../Errors.ts"
import type { ParquetSink } from "../sink/ParquetSink.ts"
import { SourceStats, statsScope } from "../source/SourceStats.ts"
import { rejectsDataset, rejectsKey } from "../transform/Rejects.ts"
import { type CheckpointStore, initialState } from "./Checkpoint.ts"
import { afterCommit, commitPart } from "./CommitPart.ts"
import type { CommittedKeys } from "./CommittedKeys.ts"
import type { DatasetDef } from "./Dataset.ts"
import { discardStaged, nextPage } from "./FetchPage.ts"
import { REJECT_SEED, ROW_SEED } from "./KeyDigests.ts"
import type { Committed } from "./ListingGuard.ts"
import { emit } from "./Progress.ts"
import { type CrawlOptions, makeSliceCrawl, type SliceCrawl } from "./SliceCrawl.ts"
import { type Counts, counts, type SliceResult, skipped } from "./SliceResult.ts"
import type { Slice } from "./Slice.ts"
import {
  committed,
  type CrawlError,
  cursorExpired,
  failed,
  isLive,
  type Committing,
  type Listing,
  type Live,
  needsSkip,
  type Opening,
  opened,
  opening,
  type Over,
  pageTaken,
  passBegun,
  type Ready,
  type Recovering,
  recovered,
  restarted,
  type Restarting,
  type SliceState,
  skipping
} from "./SliceState.ts"

export type { CrawlOptions } from "./SliceCrawl.ts"
export type { SliceResult } from "./SliceResult.ts"

/** 1. The checkpoint, its cursor judged by the listing's codec: a broken one fails the slice, naming the file. */
const open = <R>(crawl: SliceCrawl<R>, state: Opening): Effect.Effect<SliceState, CrawlError> =>
  Effect.map(crawl.store.load(crawl.slice, crawl.cursorCheck), (loaded) => opened(state, loaded, crawl, crawl.options.runId))

/** 2. Parts past the checkpoint go, then the checkpoint is saved running. */
const recover = <R>(crawl: SliceCrawl<R>, state: Recovering): Effect.Effect<SliceState, CrawlError> =>
  Effect.gen(function* () {
    const { sink, slice } = crawl
    if (state.recover !== undefined) {
      const { after, before } = state.recover
      for (const name of crawl.tables) {
        yield* sink.removePartsAfter(name, slice.id, after)
        if (before !== null) yield* sink.removePartsBefore(name, slice.id, before)
      }
    }
    yield* crawl.store.save(state.checkpoint)
    return recovered(state)
  })

/** The slice's committed keys (and rejects'), as digests with the guard's seed of each kind: it makes that digest of a page's key anyway. */
const readSkip = <R>(crawl: SliceCrawl<R>): Effect.Effect<Committed, SinkError> =>
  Effect.gen(function* () {
    const { committedKeys, dataset, slice } = crawl
    return {
      rows: yield* committedKeys.digests(dataset.name, slice.id, dataset.key, ROW_SEED),
      rejects: yield* committedKeys.digests(rejectsDataset.name, slice.id, rejectsKey, REJECT_SEED)
    }
  })

/** 3. A pass begins: the guard starts it, with the keys on disk to skip when it may meet them. */
const beginPass = <R>(crawl: SliceCrawl<R>, state: Ready): Effect.Effect<SliceState, CrawlError> =>
  Effect.gen(function* () {
    const next = passBegun(state, yield* Clock.currentTimeMillis, crawl)
    if (next._tag !== "Listing") return next
    const listing = needsSkip(next, crawl) ? skipping(next, yield* readSkip(crawl)) : next
    // a replacing listing keeps nothing of an earlier pass: its keys are not seen
    crawl.guard.startPass(listing.pass.cursor, crawl.rerun === "replace")
    return listing
  })

/** 4. The next page, buffered (and a part due), or the listing starts over when the service says its cursor expired. */
const page = <R>(crawl: SliceCrawl<R>, state: Listing): Effect.Effect<SliceState, CrawlError, R> =>
  Effect.flatMap(nextPage(crawl, state.pass), (outcome): Effect.Effect<SliceState> => {
    if (outcome._tag === "Expired") return Effect.succeed(cursorExpired(state, crawl))
    const next = pageTaken(state, outcome.page, crawl)
    const { fetchedPages: pages, fetchedRows: rows } = next.tally
    return Effect.as(emit({ type: "page", at: outcome.page.receivedAt, dataset: crawl.dataset.name, slice: crawl.slice.id, pages, rows }), next)
  })

/** 5. The part, then its checkpoint; a failure leaves the checkpoint where the disk has it. */
const commit = <R>(crawl: SliceCrawl<R>, state: Committing): Effect.Effect<SliceState> =>
  Effect.flatMap(commitPart(crawl, state.checkpoint, state.pages, state.then), (outcome): Effect.Effect<SliceState> => {
    if (outcome._tag === "NotCommitted") return Effect.succeed(failed(state, outcome.error, outcome.reached))
    const next = committed(state, outcome.next, outcome.parts, crawl)
    return afterCommit(crawl, outcome.next, state.pages).pipe(
      Effect.as(next),
      Effect.catchAll((e) => Effect.succeed(failed(next, e)))
    )
  })

/** 6. The restart is on disk before the first page is asked for again; what the pass staged and did not commit goes. */
const restart = <R>(crawl: SliceCrawl<R>, state: Restarting): Effect.Effect<SliceState, CrawlError> =>
  Effect.gen(function* () {
    yield* discardStaged(crawl)
    yield* crawl.store.save(state.checkpoint)
    const why = state.why === "aged" ? "page token older than its lifetime" : "page token expired"
    yield* Effect.logInfo(`${crawl.dataset.name} ${crawl.slice.id}: ${why}, restarting the listing from its first page`)
    return restarted(state)
  })

/** The effect a live state names, and the state its outcome makes; a failure is a state too. */
const step = <R>(crawl: SliceCrawl<R>, state: Live): Effect.Effect<SliceState, never, R> => {
  const run = (): Effect.Effect<SliceState, CrawlError, R> => {
    switch (state._tag) {
      case "Opening":
        return open(crawl, state)
      case "Recovering":
        return recover(crawl, state)
      case "Ready":
        return beginPass(crawl, state)
      case "Listing":
        return page(crawl, state)
      case "Committing":
        return commit(crawl, state)
      case "Restarting":
        return restart(crawl, state)
    }
  }
  return Effect.catchAll(run(), (error) => Effect.succeed(failed(state, error)))
}

/** Steps until the slice is over. */
const crawlFrom = <R>(crawl: SliceCrawl<R>, state: SliceState): Effect.Effect<Over, never, R> =>
  isLive(state) ? Effect.flatMap(step(crawl, state), (next) => crawlFrom(crawl, next)) : Effect.succeed(state)

/** 7. What the slice came to; a failed slice's checkpoint says so and why (unless it could not be read: its file and the fix are in the error). */
const over = <R>(crawl: SliceCrawl<R>, end: Over): Effect.Effect<Counts & { readonly error?: string; readonly stopsRun?: true }> => {
  switch (end._tag) {
    case "Final":
      return Effect.succeed(skipped(crawl.slice, end.checkpoint))
    case "Done":
      return Effect.succeed(counts(crawl.slice, "done", end, crawl.guard.duplicates))
    case "Failed": {
      const { error } = end
      return (end.record ? crawl.store.save({ ...end.checkpoint, status: "failed", error: error.message }) : Effect.void).pipe(
        Effect.ignore,
        Effect.as({
          ...counts(crawl.slice, "failed", end, crawl.guard.duplicates),
          error: error.message,
          ...(error._tag === "SourceError" && error.reason === "Auth" ? { stopsRun: true as const } : {})
        })
      )
    }
  }
}

/** What the slice's requests cost (SourceStats, when the run keeps them). */
const costOf = (scope: string) =>
  Effect.gen(function* () {
    const stats = yield* Effect.serviceOption(SourceStats)
    const cost = Option.isSome(stats) ? yield* stats.value.ofSlice(scope) : undefined
    return {
      requests: cost?.requests ?? 0,
      retries: cost?.retries ?? 0,
      rateLimited: cost?.rateLimited ?? 0,
      bytes: cost?.bytesReceived ?? 0,
      waitMs: Math.round((cost?.limiterWaitMs ?? 0) + (cost?.retryAfterWaitMs ?? 0))
    }
  })

export const crawlSlice = <R>(
  declared: DatasetDef<R>,
  slice: Slice,
  options: CrawlOptions
): Effect.Effect<SliceResult, never, R | ParquetSink | CheckpointStore | CommittedKeys> =>
  Effect.gen(function* () {
    const crawl = yield* makeSliceCrawl(declared, slice, options)
    const { dataset } = crawl
    const scope = `${dataset.name}/${slice.id}`
    const startedAt = yield* Clock.currentTimeMillis
    yield* emit({ type: "slice_started", at: startedAt, dataset: dataset.name, slice: slice.id, params: slice.params })
    const end = yield* crawlFrom(crawl, opening(initialState(slice, options.runId))).pipe(
      // whatever the crawl leaves staged and uncommitted (a failure, a kill) must not hold its
      // DuckDB connection, nor reach a later part
      Effect.ensuring(discardStaged(crawl)),
      // a probed first page the slice did not take (it never fetched) is dropped with it
      Effect.ensuring(Effect.sync(() => options.probed?.drop(dataset.name, slice.id))),
      Effect.locally(statsScope, scope)
    )
    const outcome = yield* over(crawl, end)
    const finishedAt = yield* Clock.currentTimeMillis
    const result: SliceResult & { readonly status: Counts["status"] } = { ...outcome, ...(yield* costOf(scope)), durationMs: finishedAt - startedAt }
    yield* emit({
      type: "slice_finished",
      at: finishedAt,
      dataset: dataset.name,
      slice: slice.id,
      status: result.status,
      pages: result.pages,
      rows: result.rows,
      rejects: result.rejects,
      requests: result.requests,
      durationMs: result.durationMs,
      ...(result.error === undefined ? {} : { error: result.error })
    })
    return result
  })
