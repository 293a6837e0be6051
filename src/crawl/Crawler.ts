/**
 * Crawls one slice, resuming from its checkpoint. The recipe:
 *  1. recover: delete parts written after the last checkpoint (a crash between rename and
 *     checkpoint), so this run rewrites exactly those names; then mark the slice running on disk
 *     before any part is written;
 *  2. stream pages from the checkpoint's cursor (a cursor older than the listing's TTL is not
 *     reused: the listing restarts from its first page);
 *  3. map records to rows, malformed ones to `_rejects`, and buffer pages up to `partRows`: a
 *     page's rows go straight into the sink's staged part (DuckDB), the buffer keeps their counts;
 *  4. commit a part: data first (write, fsync, rename), checkpoint second;
 *  5. on an expired/invalid token: commit what is buffered, restart from the first page and skip
 *     keys already committed; a restart that makes no progress fails instead of looping.
 * Every page goes through the slice's ListingGuard: keys already seen are not written again, and
 * a listing that repeats a token or stops bringing new keys fails the slice (ListingGuard.ts).
 */
import { Chunk, Clock, Effect, Option, Stream } from "effect"
import { SourceStats, statsScope } from "../source/SourceStats.ts"
import type { SinkError, CheckpointError } from "../Errors.ts"
import { SourceError } from "../Errors.ts"
import { ParquetSink, type WritePartInput, type WrittenPart } from "../sink/ParquetSink.ts"
import { rejectsDataset, rejectsKey } from "../transform/Rejects.ts"
import { type Mapped, toRows } from "../transform/ToRows.ts"
import { type CheckpointState, CheckpointStore, initialState, isFinal as isFinalState } from "./Checkpoint.ts"
import { CommittedKeys, keyOf } from "./CommittedKeys.ts"
import { DEFAULT_GUARD_LIMITS, type GuardLimits, ListingGuard } from "./ListingGuard.ts"
import type { DatasetDef, Row } from "./Dataset.ts"
import { withGrain } from "./Grain.ts"
import { withPageSources } from "./PageSources.ts"
import { emit } from "./Progress.ts"
import type { Slice } from "./Slice.ts"

export interface CrawlOptions {
  readonly runId: string
  /** The run's as-of instant (Unix seconds, service time): decides when a rerunning slice is final. */
  readonly asOf: number
  readonly ingestedAt: Date
  /** Rows buffered before a part is written (a row group's worth in production). */
  readonly partRows: number
  /** The ListingGuard's bounds (tests shrink them). */
  readonly guard?: Partial<GuardLimits>
}

export interface SliceResult {
  readonly dataset: string
  readonly slice: string
  readonly params: Readonly<Record<string, string>>
  /** "not_run": never started, because the run stopped before it (a service refused our credentials). */
  readonly status: "done" | "failed" | "skipped" | "not_run"
  /** Pages, rows and rejects committed by this run (not cumulative). */
  readonly pages: number
  readonly rows: number
  readonly rejects: number
  readonly restarts: number
  /** Records dropped because the service sent their key again within one pass (first version kept). */
  readonly duplicates: number
  readonly parts: number
  /** Fields the service sent that the dataset does not know (ignored), by name: records carrying each, in committed pages. */
  readonly unknownFields: Readonly<Record<string, number>>
  /** What the slice's requests cost this run (HTTP attempts, retries included). */
  readonly requests: number
  readonly retries: number
  readonly rateLimited: number
  readonly bytes: number
  /** Time its requests waited for the shared limiter or a 429's Retry-After. */
  readonly waitMs: number
  readonly durationMs: number
  readonly error?: string
  /** The failure stops the whole run: a service refused our credentials (401/403). */
  readonly stopsRun?: true
}

interface FetchedPage {
  readonly rows: ReadonlyArray<Mapped>
  readonly rejects: ReadonlyArray<Row>
  readonly unknownFields: ReadonlyMap<string, number>
  readonly next: string | undefined
  readonly reach?: string | undefined
  readonly receivedAt: number
}

/** A page whose rows are staged in the sink: only their counts are kept (rejects are few, kept whole). */
interface BufferedPage extends Omit<FetchedPage, "rows"> {
  /** Staged rows per table: the dataset's, then each child's (in `dataset.children` order). */
  readonly staged: ReadonlyArray<number>
}

/** Restart requested by an expired cursor (ours or the service's). */
class Restart {
  readonly _tag = "Restart"
}

type CrawlError = SourceError | SinkError | CheckpointError

export const crawlSlice = <R>(
  declared: DatasetDef<R>,
  slice: Slice,
  options: CrawlOptions
): Effect.Effect<SliceResult, never, R | ParquetSink | CheckpointStore | CommittedKeys> =>
  Effect.gen(function* () {
    // a definition straight from the registry writes at its own grain (the runner applies the job's)
    const dataset = declared.grain === undefined ? withGrain(declared) : declared
    const sink = yield* ParquetSink
    const store = yield* CheckpointStore
    const committedKeys = yield* CommittedKeys
    const ttlMs = dataset.listing.tokenTtlSeconds === undefined ? undefined : dataset.listing.tokenTtlSeconds * 1000

    const rerun = dataset.rerun ?? "never"
    const isFinal = (done: CheckpointState) => isFinalState(done, slice, rerun)
    const tables = [dataset.name, ...(dataset.children ?? []).map((c) => c.name), rejectsDataset.name]
    /** The tables whose rows are staged in the sink as pages arrive (not `_rejects`: few, kept in the buffer). */
    const stagedTables = [dataset, ...(dataset.children ?? [])].map((t) => ({ dataset: t.name, schema: t.schema, partitionBy: t.partitionBy }))
    // a replacing listing is written in one commit, so old and new rows never show together
    const partRows = rerun === "replace" ? Number.POSITIVE_INFINITY : options.partRows
    let loaded: CheckpointState | undefined
    let start: CheckpointState = initialState(slice, options.runId)
    let state = start
    let parts = 0
    let skip: { readonly rows: ReadonlySet<string>; readonly rejects: ReadonlySet<string> } | undefined
    const guard = new ListingGuard(`${dataset.name} ${slice.id}`, { ...DEFAULT_GUARD_LIMITS, ...options.guard })
    /** Pages fetched by the current pass of the listing (a replacing listing's measure of progress). */
    let passPages = 0
    /** Pages and rows fetched this run, buffered or committed (what the progress view shows). */
    let fetchedPages = 0
    let fetchedRows = 0
    const unknownFields: Record<string, number> = {}

    /** `then`: where the listing goes after these pages: on, restart from the top, or done. */
    const commit = (pages: ReadonlyArray<BufferedPage>, then: "continue" | "restart") =>
      Effect.gen(function* () {
        const seq = state.lastSeq + 1
        const staged = stagedTables.map((_, t) => pages.reduce((n, p) => n + p.staged[t]!, 0))
        const rows = staged[0]!
        const rejects = pages.flatMap((p) => p.rejects)
        const last = pages[pages.length - 1]
        const next = then === "restart" ? undefined : last?.next
        const done = then === "continue" && last?.next === undefined
        const written: WrittenPart[] = []
        const write = (input: WritePartInput) =>
          sink.writePart(input).pipe(Effect.tap((w) => Effect.sync(() => void written.push(...w))))
        const next_: CheckpointState = {
          ...state,
          cursor: next ?? null,
          cursorIssuedAt: next === undefined || last === undefined ? null : last.receivedAt,
          pagesCommitted: state.pagesCommitted + pages.length,
          rowsCommitted: state.rowsCommitted + rows,
          rejectsCommitted: state.rejectsCommitted + rejects.length,
          lastSeq: seq,
          keepFromSeq: done && rerun === "replace" ? seq : state.keepFromSeq,
          completedAsOf: done ? options.asOf : state.completedAsOf ?? null,
          ...(last?.reach === undefined ? {} : { reach: last.reach }),
          status: done ? "done" : "running"
        }
        const own = yield* Effect.gen(function* () {
          // the tables' rows are staged already (stagePage): writePart writes them
          const own = rows === 0 ? [] : yield* write({ ...stagedTables[0]!, slice: slice.id, seq, rows: [] })
          for (let t = 1; t < stagedTables.length; t++) {
            if (staged[t]! > 0) yield* write({ ...stagedTables[t]!, slice: slice.id, seq, rows: [] })
          }
          if (rejects.length > 0) {
            yield* write({ dataset: rejectsDataset.name, slice: slice.id, seq, schema: rejectsDataset.schema, rows: rejects, partitionBy: rejectsDataset.partitionBy })
          }
          // data is durable: only now may the checkpoint move past these pages
          yield* store.save(next_)
          return own
        }).pipe(
          Effect.tapError(() =>
            // the commit failed after some of its files were in place (another table's part, or the
            // checkpoint hit a full disk): take them back so no row past the checkpoint shows. Unless
            // the checkpoint did reach the disk (a failure after its rename): then the files stay
            store.load(slice).pipe(
              Effect.map((onDisk) => onDisk !== undefined && onDisk.lastSeq >= seq),
              Effect.orElseSucceed(() => false),
              Effect.flatMap((advanced) =>
                advanced ? Effect.sync(() => void (state = next_)) : sink.takeBack(written)
              )
            )
          )
        )
        state = next_
        parts += own.length
        for (const p of pages) for (const [f, n] of p.unknownFields) unknownFields[f] = (unknownFields[f] ?? 0) + n
        if (state.keepFromSeq === seq) {
          for (const name of tables) yield* sink.removePartsBefore(name, slice.id, seq)
        }
        if (rows + rejects.length > 0) yield* emit({ type: "part_committed", at: yield* Clock.currentTimeMillis, dataset: dataset.name, slice: slice.id, seq, rows, rejects: rejects.length, pages: pages.length })
        yield* Effect.logDebug(`${dataset.name} ${slice.id}: part ${seq} committed (${rows} rows, ${rejects.length} rejects)`)
      })

    /** 3. hands a page's rows to the sink's staged parts; what stays in the buffer is their counts. */
    const stagePage = (page: FetchedPage): Effect.Effect<BufferedPage, SinkError> =>
      Effect.gen(function* () {
        const { rows: mapped, ...rest } = page
        const staged: number[] = []
        for (const [t, table] of stagedTables.entries()) {
          const rows = t === 0 ? mapped.map((m) => m.row) : mapped.flatMap((m) => m.children.find(([name]) => name === table.dataset)?.[1] ?? [])
          if (rows.length > 0) yield* sink.stage({ ...table, slice: slice.id, rows })
          staged.push(rows.length)
        }
        return { ...rest, staged }
      })

    /** Drops rows staged for a part that will not be written (the buffer was dropped, or the crawl failed). */
    const discardStaged = Effect.forEach(stagedTables, (t) => sink.discard(t.dataset, slice.id), { discard: true })

    const fetchPage = (cursor: string | undefined, pageNo: number) =>
      Effect.gen(function* () {
        // with the answers it was made from: a reject's raw text is cut from theirs (PageSources.ts)
        const [page, sources] = yield* withPageSources(dataset.listing.fetch(slice, cursor))
        const receivedAt = yield* Clock.currentTimeMillis
        const mapped = toRows(
          dataset,
          slice,
          page.records,
          { runId: options.runId, ingestedAt: options.ingestedAt, page: pageNo },
          sources
        )
        const admitted = guard.admit(
          { rows: mapped.mapped, rejects: mapped.rejects, next: page.next },
          pageNo,
          (m) => keyOf(m.row, dataset.key),
          (r) => keyOf(r, rejectsKey),
          skip
        )
        if (admitted instanceof SourceError) return yield* Effect.fail(admitted)
        const fetched: FetchedPage = { rows: admitted.rows, rejects: admitted.rejects, unknownFields: mapped.unknownFields, next: page.next, reach: page.reach, receivedAt }
        return fetched
      })

    // 2. one pass of the listing from the checkpoint's cursor; ends at the last page or a Restart
    const pass = Effect.gen(function* () {
      passPages = 0
      const now = yield* Clock.currentTimeMillis
      const expired = state.cursor !== null && ttlMs !== undefined && state.cursorIssuedAt !== null && now - state.cursorIssuedAt > ttlMs
      if (expired) return new Restart()
      const first = state.cursor ?? undefined
      const firstPageNo = state.pagesCommitted
      // a replacing listing keeps nothing of an earlier pass: its keys are not seen
      guard.startPass(first, rerun === "replace")
      const pages = Stream.paginateChunkEffect(
        { cursor: first, pageNo: firstPageNo, started: false } as { cursor: string | undefined; pageNo: number; started: boolean },
        (s) =>
          fetchPage(s.cursor, s.pageNo).pipe(
            Effect.map((p) => [
              Chunk.of(p),
              p.next === undefined ? Option.none() : Option.some({ cursor: p.next, pageNo: s.pageNo + 1, started: true })
            ] as const)
          )
      )
      // 3 + 4. buffer pages up to partRows, then commit
      let buffer: BufferedPage[] = []
      let buffered = 0
      const outcome = yield* pages.pipe(
        Stream.runForEach((page) =>
          Effect.gen(function* () {
            passPages++
            fetchedPages++
            fetchedRows += page.rows.length
            yield* emit({ type: "page", at: page.receivedAt, dataset: dataset.name, slice: slice.id, pages: fetchedPages, rows: fetchedRows })
            const kept = yield* stagePage(page)
            buffer.push(kept)
            buffered += kept.staged.reduce((n, k) => n + k, 0) + kept.rejects.length
            if (buffered >= partRows || page.next === undefined) {
              const toCommit = buffer
              buffer = []
              buffered = 0
              yield* commit(toCommit, "continue")
            }
          })
        ),
        Effect.as<"done" | Restart>("done"),
        Effect.catchIf(
          (e): e is SourceError => e instanceof SourceError && e.reason === "TokenExpired",
          () =>
            // keep the pages already fetched: they are valid data, and committing them is progress;
            // not a replacing listing's: part of a new version would show beside the old one whole
            (buffer.length > 0 && rerun !== "replace" ? commit(buffer, "restart") : Effect.void).pipe(Effect.as(new Restart()))
        ),
        // whatever the pass leaves uncommitted (a replacing listing's dropped buffer, a failure)
        // must not hold its DuckDB connection, nor reach the next part
        Effect.ensuring(discardStaged)
      )
      return outcome
    })

    const loadSkip = Effect.gen(function* () {
      skip = {
        rows: yield* committedKeys.read(dataset.name, slice.id, dataset.key),
        rejects: yield* committedKeys.read(rejectsDataset.name, slice.id, rejectsKey)
      }
    })

    const run: Effect.Effect<void, CrawlError, R> = Effect.gen(function* () {
      loaded = yield* store.load(slice)
      if (loaded?.status === "done" && isFinal(loaded)) return
      const reopened = loaded?.status === "done" ? { ...loaded, cursor: null, cursorIssuedAt: null } : loaded
      const base = reopened ?? initialState(slice, options.runId)
      // checkpoints written before keepFromSeq existed read as "nothing superseded"
      start = { ...base, keepFromSeq: base.keepFromSeq ?? null, finalAfter: slice.finalAfter ?? null, runId: options.runId, status: "running", error: null }
      state = start
      // 1. recover: parts past the checkpoint, and parts a finished replacing listing superseded.
      // "running" is on disk before this run's first part, so a slice with no checkpoint has no
      // parts and one that says "done" has none past it: only those need no walk of the folders,
      // which keeps thousands of day windows from costing a tree walk each
      const clean = loaded === undefined || (loaded.status === "done" && loaded.keepFromSeq === null)
      if (!clean) {
        for (const name of tables) {
          yield* sink.removePartsAfter(name, slice.id, start.lastSeq)
          if (start.keepFromSeq !== null) yield* sink.removePartsBefore(name, slice.id, start.keepFromSeq)
        }
      }
      yield* store.save(state)
      let restartedThisRun = false
      let furthest = 0
      for (let passNo = 0; ; passNo++) {
        // a listing that starts over while rows are on disk (restart, or a crash after one) skips them,
        // and so does one resumed mid-way by a later run (a key of a later page may be on disk)
        // (a replacing listing rewrites everything in one commit: nothing of it is on disk yet)
        if ((state.cursor === null || passNo === 0) && state.rowsCommitted + state.rejectsCommitted > 0 && dataset.listing.excludesCommitted !== true && rerun !== "replace") {
          yield* loadSkip
        }
        const before = state.rowsCommitted + state.rejectsCommitted
        const outcome = yield* pass
        if (outcome === "done") return
        // 5. restart from the first page; a second restart with nothing gained would loop forever.
        // A replacing listing commits only at its end: it gains by getting further than before.
        const gained = rerun === "replace" ? passPages > furthest : state.rowsCommitted + state.rejectsCommitted > before
        furthest = Math.max(furthest, passPages)
        if (restartedThisRun && !gained) {
          return yield* Effect.fail(
            new SourceError({
              reason: "TokenExpired",
              request: `${dataset.name} ${slice.id}`,
              detail:
                rerun === "replace"
                  ? `page tokens expire before the listing gets further than its previous pass (${furthest} pages); raise the token lifetime or speed up the pages`
                  : "page tokens expire before the listing gets past the rows already committed; raise the token lifetime or speed up the pages"
            })
          )
        }
        restartedThisRun = true
        state = { ...state, cursor: null, cursorIssuedAt: null, status: "running", restarts: state.restarts + 1 }
        yield* store.save(state)
        yield* Effect.logInfo(`${dataset.name} ${slice.id}: page token expired, restarting the listing from its first page`)
      }
    })

    const scope = `${dataset.name}/${slice.id}`
    const startedAt = yield* Clock.currentTimeMillis
    yield* emit({ type: "slice_started", at: startedAt, dataset: dataset.name, slice: slice.id, params: slice.params })
    const outcome = yield* run.pipe(
      Effect.map(() =>
        loaded?.status === "done" && isFinal(loaded)
          ? summary(slice, "skipped", loaded, loaded)
          : summary(slice, "done", start, state, parts, unknownFields, guard.duplicates)
      ),
      Effect.catchAll((error) =>
        // a broken checkpoint is never written over: its file and the fix are in the error
        (error._tag === "CheckpointError" && error.reason === "Corrupt" ? Effect.void : store.save({ ...state, status: "failed", error: error.message })).pipe(
          Effect.ignore,
          Effect.as({
            ...summary(slice, "failed", start, state, parts, unknownFields, guard.duplicates),
            error: error.message,
            ...(error._tag === "SourceError" && error.reason === "Auth" ? { stopsRun: true as const } : {})
          })
        )
      ),
      Effect.locally(statsScope, scope)
    )
    const finishedAt = yield* Clock.currentTimeMillis
    const stats = yield* Effect.serviceOption(SourceStats)
    const cost = Option.isSome(stats) ? yield* stats.value.ofSlice(scope) : undefined
    const result: SliceResult & { readonly status: Counts["status"] } = {
      ...outcome,
      requests: cost?.requests ?? 0,
      retries: cost?.retries ?? 0,
      rateLimited: cost?.rateLimited ?? 0,
      bytes: cost?.bytesReceived ?? 0,
      waitMs: Math.round((cost?.limiterWaitMs ?? 0) + (cost?.retryAfterWaitMs ?? 0)),
      durationMs: finishedAt - startedAt
    }
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

type Counts = Omit<SliceResult, "requests" | "retries" | "rateLimited" | "bytes" | "waitMs" | "durationMs" | "status"> & {
  readonly status: Exclude<SliceResult["status"], "not_run">
}

const summary = (
  slice: Slice,
  status: Exclude<SliceResult["status"], "not_run">,
  before: CheckpointState,
  after: CheckpointState,
  parts = 0,
  unknownFields: Readonly<Record<string, number>> = {},
  duplicates = 0
): Counts => ({
  dataset: slice.dataset,
  slice: slice.id,
  params: slice.params,
  status,
  pages: after.pagesCommitted - before.pagesCommitted,
  rows: after.rowsCommitted - before.rowsCommitted,
  rejects: after.rejectsCommitted - before.rejectsCommitted,
  restarts: after.restarts - before.restarts,
  duplicates,
  parts,
  unknownFields
})
