/**
 * Crawls one slice, resuming from its checkpoint. The recipe, one step per function (the slice's
 * fixed parts and its one changing state value are in SliceCrawl.ts):
 *  1. `openSlice`: read the checkpoint; recover: delete parts written after it (a crash between
 *     rename and checkpoint), so this run rewrites exactly those names; then mark the slice
 *     running on disk before any part is written;
 *  2. `listingPass` (ListingPass.ts): stream pages from the checkpoint's cursor (a cursor older
 *     than the listing's TTL is not reused: the listing restarts from its first page);
 *  3. map records to rows, malformed ones to `_rejects`, and buffer pages up to `partRows` rows
 *     or `partBytes` staged bytes (PartSize.ts): a page's rows go straight into the sink's staged
 *     part (DuckDB), the buffer keeps their counts;
 *  4. `commitPart` (CommitPart.ts): data first (write, fsync, rename), checkpoint second;
 *  5. `listUntilDone`: on an expired/invalid token, commit what is buffered, restart from the
 *     first page and skip keys already committed; a restart that makes no progress fails instead
 *     of looping.
 * Every page goes through the slice's ListingGuard: keys already seen are not written again, and
 * a listing that repeats a token or stops bringing new keys fails the slice (ListingGuard.ts).
 */
import { Clock, Effect, Option } from "effect"
import type { CheckpointError, SinkError } from "../Errors.ts"
import { SourceError } from "../Errors.ts"
import type { ParquetSink } from "../sink/ParquetSink.ts"
import { SourceStats, statsScope } from "../source/SourceStats.ts"
import { rejectsDataset, rejectsKey } from "../transform/Rejects.ts"
import { type CheckpointStore, initialState, isFinal } from "./Checkpoint.ts"
import type { CommittedKeys } from "./CommittedKeys.ts"
import type { DatasetDef } from "./Dataset.ts"
import { REJECT_SEED, ROW_SEED } from "./KeyDigests.ts"
import { listingPass } from "./ListingPass.ts"
import { emit } from "./Progress.ts"
import { committedCount, type CrawlOptions, type CrawlState, initialCrawlState, makeSliceCrawl, type SliceCrawl } from "./SliceCrawl.ts"
import { type Counts, counts, type SliceResult, skipped } from "./SliceResult.ts"
import type { Slice } from "./Slice.ts"

export type { CrawlOptions } from "./SliceCrawl.ts"
export type { SliceResult } from "./SliceResult.ts"

type CrawlError = SourceError | SinkError | CheckpointError

/** 1. Reads the checkpoint and readies the slice; "final" when an earlier run finished it for good. */
const openSlice = <R>(crawl: SliceCrawl<R>, state: CrawlState): Effect.Effect<"final" | "open", SinkError | CheckpointError> =>
  Effect.gen(function* () {
    const { slice, sink, store, options } = crawl
    const loaded = yield* store.load(slice)
    state.loaded = loaded
    if (loaded?.status === "done" && isFinal(loaded, slice, crawl.rerun)) return "final"
    const reopened = loaded?.status === "done" ? { ...loaded, cursor: null, cursorIssuedAt: null } : loaded
    const base = reopened ?? initialState(slice, options.runId)
    // checkpoints written before keepFromSeq existed read as "nothing superseded"
    state.started = { ...base, keepFromSeq: base.keepFromSeq ?? null, finalAfter: slice.finalAfter ?? null, runId: options.runId, status: "running", error: null }
    state.checkpoint = state.started
    // recover: parts past the checkpoint, and parts a finished replacing listing superseded.
    // "running" is on disk before this run's first part, so a slice with no checkpoint has no
    // parts and one that says "done" has none past it: only those need no walk of the folders,
    // which keeps thousands of day windows from costing a tree walk each
    const clean = loaded === undefined || (loaded.status === "done" && loaded.keepFromSeq === null)
    if (!clean) {
      const { lastSeq, keepFromSeq } = state.started
      for (const name of crawl.tables) {
        yield* sink.removePartsAfter(name, slice.id, lastSeq)
        if (keepFromSeq !== null) yield* sink.removePartsBefore(name, slice.id, keepFromSeq)
      }
    }
    yield* store.save(state.checkpoint)
    return "open"
  })

/**
 * A listing that starts over while rows are on disk (restart, or a crash after one) skips them,
 * and so does one resumed mid-way by a later run (a key of a later page may be on disk). A
 * replacing listing rewrites everything in one commit: nothing of it is on disk yet.
 */
const needsSkip = <R>(crawl: SliceCrawl<R>, state: CrawlState, passNo: number): boolean =>
  (state.checkpoint.cursor === null || passNo === 0) &&
  committedCount(state) > 0 &&
  crawl.dataset.listing.excludesCommitted !== true &&
  crawl.rerun !== "replace"

const readSkip = <R>(crawl: SliceCrawl<R>, state: CrawlState) =>
  Effect.gen(function* () {
    const { committedKeys, dataset, slice } = crawl
    state.skip = {
      // with the guard's seed of each kind: it looks them up with the digest it makes of a page's key anyway
      rows: yield* committedKeys.digests(dataset.name, slice.id, dataset.key, ROW_SEED),
      rejects: yield* committedKeys.digests(rejectsDataset.name, slice.id, rejectsKey, REJECT_SEED)
    }
  })

/** 5. The listing starts over from its first page; the restart is on disk before the first request. */
const restartListing = <R>(crawl: SliceCrawl<R>, state: CrawlState) =>
  Effect.gen(function* () {
    state.checkpoint = { ...state.checkpoint, cursor: null, cursorIssuedAt: null, status: "running", restarts: state.checkpoint.restarts + 1 }
    yield* crawl.store.save(state.checkpoint)
    yield* Effect.logInfo(`${crawl.dataset.name} ${crawl.slice.id}: page token expired, restarting the listing from its first page`)
  })

const stuckRestarting = <R>(crawl: SliceCrawl<R>, furthest: number) =>
  new SourceError({
    reason: "TokenExpired",
    request: `${crawl.dataset.name} ${crawl.slice.id}`,
    detail:
      crawl.rerun === "replace"
        ? `page tokens expire before the listing gets further than its previous pass (${furthest} pages); raise the token lifetime or speed up the pages`
        : "page tokens expire before the listing gets past the rows already committed; raise the token lifetime or speed up the pages"
  })

/** 2–5. Passes of the listing until one reaches its last page; a second restart with nothing gained fails. */
const listUntilDone = <R>(crawl: SliceCrawl<R>, state: CrawlState): Effect.Effect<void, CrawlError, R> =>
  Effect.gen(function* () {
    let restarted = false
    let furthest = 0
    for (let passNo = 0; ; passNo++) {
      if (needsSkip(crawl, state, passNo)) yield* readSkip(crawl, state)
      const before = committedCount(state)
      const outcome = yield* listingPass(crawl, state)
      if (outcome === "done") return
      // a replacing listing commits only at its end: it gains by getting further than before
      const gained = crawl.rerun === "replace" ? state.passPages > furthest : committedCount(state) > before
      furthest = Math.max(furthest, state.passPages)
      if (restarted && !gained) return yield* Effect.fail(stuckRestarting(crawl, furthest))
      restarted = true
      yield* restartListing(crawl, state)
    }
  })

/** A failed slice: its checkpoint says so and why (a broken checkpoint is never written over: its file and the fix are in the error). */
const failed = <R>(crawl: SliceCrawl<R>, state: CrawlState, error: CrawlError): Effect.Effect<Counts & { readonly error: string; readonly stopsRun?: true }> =>
  (error._tag === "CheckpointError" && error.reason === "Corrupt"
    ? Effect.void
    : crawl.store.save({ ...state.checkpoint, status: "failed", error: error.message })
  ).pipe(
    Effect.ignore,
    Effect.as({
      ...counts(crawl.slice, "failed", state, crawl.guard.duplicates),
      error: error.message,
      ...(error._tag === "SourceError" && error.reason === "Auth" ? { stopsRun: true as const } : {})
    })
  )

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
    const state = initialCrawlState(slice, options.runId)
    const { dataset } = crawl
    const scope = `${dataset.name}/${slice.id}`
    const startedAt = yield* Clock.currentTimeMillis
    yield* emit({ type: "slice_started", at: startedAt, dataset: dataset.name, slice: slice.id, params: slice.params })
    const outcome: Counts & { readonly error?: string; readonly stopsRun?: true } = yield* openSlice(crawl, state).pipe(
      Effect.flatMap((opened) =>
        opened === "final"
          ? Effect.sync(() => skipped(slice, state.loaded!))
          : listUntilDone(crawl, state).pipe(Effect.map(() => counts(slice, "done", state, crawl.guard.duplicates)))
      ),
      Effect.catchAll((error) => failed(crawl, state, error)),
      Effect.locally(statsScope, scope)
    )
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
