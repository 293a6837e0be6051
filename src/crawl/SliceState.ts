/**
 * One slice's crawl as a value: the state it is in (`SliceState`, one of the tags below) and the
 * pure transitions between states, state in and state out like CommitPart.ts `advance`.
 * Crawler.ts runs the one effect each live state names (read the checkpoint, remove parts past it,
 * fetch and stage a page, commit a part, save a restart) and hands what came of it to a
 * transition here; nothing else makes a slice's next state.
 *
 * - **Rules.** Data first, checkpoint second: a state holding a checkpoint that is not on disk
 *   yet is named for the effect that writes it (Recovering, Committing, Restarting), and a pass
 *   asks for no page before it is saved. Pages are buffered up to `partRows` rows and rejects or
 *   `partBytes` staged bytes, and always up to the last page; a replacing listing commits once,
 *   at its end. A restart is a state: an expired cursor (older than the listing's TTL when a pass
 *   begins, or the service's answer to a page) commits the pages already fetched (not a replacing
 *   listing's: part of a new version would show beside the old one), then starts the listing over
 *   from its first page; a second restart that gained nothing (no row committed, or for a
 *   replacing listing no page further than before) fails the slice instead of looping.
 * - **Memory.** A state holds the buffered pages' counts (their rows wait in the sink's staged
 *   parts), rejects and hole keys whole, and the committed keys a pass skips (digests,
 *   ListingGuard.ts); a transition copies the buffer's array of pages, never rows.
 * - **Failure modes.** Any effect's failure is a transition to Failed, which keeps the checkpoint
 *   as it stands on disk (a commit whose checkpoint reached the disk before the failure counts as
 *   committed) and the run's tally; the failed checkpoint is saved unless it could not be read
 *   (nothing this run knows may be written over it). A defect or a kill leaves no state at all:
 *   the next run resumes from the last checkpoint saved.
 */
import { SourceError } from "../Errors.ts"
import type { CheckpointError, SinkError } from "../Errors.ts"
import type { CheckpointState } from "./Checkpoint.ts"
import { isFinal } from "./Checkpoint.ts"
import type { Then } from "./CommitPart.ts"
import type { DatasetDef } from "./Dataset.ts"
import { startPass } from "./Holes.ts"
import type { Committed } from "./ListingGuard.ts"
import type { BufferedPage, SliceCrawl } from "./SliceCrawl.ts"

export type CrawlError = SourceError | SinkError | CheckpointError

/** What the transitions read of the slice's fixed parts. */
export type Rules = Pick<SliceCrawl<unknown>, "slice" | "rerun" | "partRows" | "partBytes" | "ttlMs"> & {
  readonly dataset: Pick<DatasetDef<unknown>, "name" | "listing">
}

/** What this run did to the slice so far, whatever state it ends in. */
export interface Tally {
  /** The checkpoint this run started from: what it reports is the difference. */
  readonly started: CheckpointState
  /** Parts of the dataset's own table this run wrote. */
  readonly parts: number
  /** Holes met by the pages this run committed (Holes.ts), re-rejected records included. */
  readonly holesMet: number
  /** Pages and rows fetched this run, buffered or committed (what the progress view shows). */
  readonly fetchedPages: number
  readonly fetchedRows: number
  /** Fields the service sent that the dataset does not know, by name: records carrying each, in committed pages. */
  readonly unknownFields: Readonly<Record<string, number>>
}

/** The run's restarts so far: what the next one must have gained. */
export interface Restarts {
  readonly restarted: boolean
  /** Pages of the furthest pass (a replacing listing gains by getting further). */
  readonly furthest: number
}

/** A pass of the listing under way. */
export interface Pass {
  /** 0 for the run's first pass. */
  readonly no: number
  /** The cursor of the next page to fetch; undefined for the first page. */
  readonly cursor: string | undefined
  /** That page's number in the slice (its rows' lineage). */
  readonly pageNo: number
  /** Pages this pass fetched. */
  readonly pages: number
  /** Pages fetched and staged, not committed yet. */
  readonly buffer: ReadonlyArray<BufferedPage>
  /** Their rows (every table) and rejects. */
  readonly buffered: number
  /** Rows and rejects committed when the pass began: a restart gains when more are now. */
  readonly committedAtStart: number
  /** Keys on disk the pass does not write again, when it may meet them (`needsSkip`). */
  readonly skip: Committed | undefined
}

interface Base {
  /** The checkpoint as it stands (on disk, or to be saved by the state's effect). */
  readonly checkpoint: CheckpointState
  readonly tally: Tally
}

export type Opening = Base & { readonly _tag: "Opening" }
export type Final = Base & { readonly _tag: "Final" }
export type Recovering = Base & {
  readonly _tag: "Recovering"
  /** Parts to remove before `checkpoint` is saved: past its last part, and those a finished replacing listing superseded. */
  readonly recover: { readonly after: number; readonly before: number | null } | undefined
}
export type Ready = Base & { readonly _tag: "Ready"; readonly passNo: number; readonly restarts: Restarts }
export type Listing = Base & { readonly _tag: "Listing"; readonly pass: Pass; readonly restarts: Restarts }
export type Committing = Base & {
  readonly _tag: "Committing"
  /** The part's pages, taken out of the pass's buffer. */
  readonly pages: ReadonlyArray<BufferedPage>
  readonly then: Then
  readonly pass: Pass
  readonly restarts: Restarts
}
export type Restarting = Base & { readonly _tag: "Restarting"; readonly passNo: number; readonly restarts: Restarts; readonly why: "aged" | "expired" }
export type Done = Base & { readonly _tag: "Done" }
export type Failed = Base & {
  readonly _tag: "Failed"
  readonly error: CrawlError
  /** Whether the failed checkpoint is saved: not over one that could not be read. */
  readonly record: boolean
}

/**
 * The slice's state. Live states name the effect that comes next: Opening (read the
 * checkpoint), Recovering (remove parts past it, save it running), Ready (begin a pass), Listing
 * (fetch and stage the next page), Committing (write the part, save the checkpoint), Restarting
 * (save the restart). Final (finished by an earlier run), Done and Failed end the crawl.
 */
export type SliceState = Opening | Final | Recovering | Ready | Listing | Committing | Restarting | Done | Failed
export type Live = Opening | Recovering | Ready | Listing | Committing | Restarting
export type Over = Final | Done | Failed

export const isLive = (state: SliceState): state is Live => state._tag !== "Final" && state._tag !== "Done" && state._tag !== "Failed"

/** Rows and rejects committed (what a restart must get past). */
export const committedCount = (checkpoint: CheckpointState): number => checkpoint.rowsCommitted + checkpoint.rejectsCommitted

/** Before anything is read: `fresh` is the checkpoint of a slice that has none (Checkpoint.ts initialState). */
export const opening = (fresh: CheckpointState): Opening => ({
  _tag: "Opening",
  checkpoint: fresh,
  tally: { started: fresh, parts: 0, holesMet: 0, fetchedPages: 0, fetchedRows: 0, unknownFields: {} }
})

/** The checkpoint is read (`loaded`, undefined when there is none): final, or this run's to recover and resume. */
export const opened = (state: Opening, loaded: CheckpointState | undefined, rules: Rules, runId: string): Final | Recovering => {
  const { slice, rerun } = rules
  if (loaded?.status === "done" && isFinal(loaded, slice, rerun)) return { _tag: "Final", checkpoint: loaded, tally: { ...state.tally, started: loaded } }
  const reopened = loaded?.status === "done" ? { ...loaded, cursor: null, cursorIssuedAt: null } : loaded
  const base = reopened ?? state.checkpoint
  // checkpoints written before keepFromSeq existed read as "nothing superseded"
  const started: CheckpointState = {
    ...base,
    keepFromSeq: base.keepFromSeq ?? null,
    finalAfter: slice.finalAfter ?? null,
    runId,
    status: "running",
    error: null
  }
  // "running" is on disk before this run's first part (a new slice's in its opening journal,
  // which a load reads as its checkpoint), so a slice with no checkpoint has no parts and one
  // that says "done" has none past it: only those need no walk of the folders, which keeps
  // thousands of day windows from costing a tree walk each
  const clean = loaded === undefined || (loaded.status === "done" && loaded.keepFromSeq === null)
  return {
    _tag: "Recovering",
    checkpoint: started,
    tally: { ...state.tally, started },
    recover: clean ? undefined : { after: started.lastSeq, before: started.keepFromSeq }
  }
}

/** Parts past the checkpoint are gone and it is saved, running: the run's first pass may begin. */
export const recovered = (state: Recovering): Ready => ({
  _tag: "Ready",
  checkpoint: state.checkpoint,
  tally: state.tally,
  passNo: 0,
  restarts: { restarted: false, furthest: 0 }
})

const stuckRestarting = (rules: Rules, furthest: number) =>
  new SourceError({
    reason: "TokenExpired",
    request: `${rules.dataset.name} ${rules.slice.id}`,
    detail:
      rules.rerun === "replace"
        ? `page tokens expire before the listing gets further than its previous pass (${furthest} pages); raise the token lifetime or speed up the pages`
        : "page tokens expire before the listing gets past the rows already committed; raise the token lifetime or speed up the pages"
  })

/**
 * The listing starts over from its first page (the checkpoint says so once the Restarting state's
 * effect saved it), unless this is a second restart that gained nothing: then the slice fails.
 */
const startOver = (state: Base, pass: Pick<Pass, "no" | "pages" | "committedAtStart">, restarts: Restarts, why: Restarting["why"], rules: Rules): Restarting | Failed => {
  // a replacing listing commits only at its end: it gains by getting further than before
  const gained = rules.rerun === "replace" ? pass.pages > restarts.furthest : committedCount(state.checkpoint) > pass.committedAtStart
  const furthest = Math.max(restarts.furthest, pass.pages)
  if (restarts.restarted && !gained) return failed(state, stuckRestarting(rules, furthest))
  return {
    _tag: "Restarting",
    checkpoint: { ...state.checkpoint, cursor: null, cursorIssuedAt: null, status: "running", restarts: state.checkpoint.restarts + 1 },
    tally: state.tally,
    passNo: pass.no + 1,
    restarts: { restarted: true, furthest },
    why
  }
}

/** The restart is on disk: the next pass begins from the first page. */
export const restarted = (state: Restarting): Ready => ({ _tag: "Ready", checkpoint: state.checkpoint, tally: state.tally, passNo: state.passNo, restarts: state.restarts })

/**
 * A pass begins at `now` (ms) from the checkpoint's cursor; a cursor older than the listing's TTL
 * is not reused, and the listing starts over instead.
 */
export const passBegun = (state: Ready, now: number, rules: Rules): Listing | Restarting | Failed => {
  const { cursor, cursorIssuedAt } = state.checkpoint
  const committed = committedCount(state.checkpoint)
  if (cursor !== null && rules.ttlMs !== undefined && cursorIssuedAt !== null && now - cursorIssuedAt > rules.ttlMs) {
    return startOver(state, { no: state.passNo, pages: 0, committedAtStart: committed }, state.restarts, "aged", rules)
  }
  const checkpoint = startPass(state.checkpoint, rules.dataset.listing.revisits?.(rules.slice) === true)
  return {
    _tag: "Listing",
    checkpoint,
    tally: state.tally,
    restarts: state.restarts,
    pass: {
      no: state.passNo,
      cursor: checkpoint.cursor ?? undefined,
      pageNo: checkpoint.pagesCommitted,
      pages: 0,
      buffer: [],
      buffered: 0,
      committedAtStart: committed,
      skip: undefined
    }
  }
}

/**
 * Whether the pass must skip keys on disk: a listing that starts over while rows are on disk
 * (a restart, or a crash after one) meets them again, and so does one resumed mid-way by a later
 * run (a key of a later page may be on disk). A replacing listing rewrites everything in one
 * commit: nothing of it is on disk yet.
 */
export const needsSkip = (state: Listing, rules: Rules): boolean =>
  (state.checkpoint.cursor === null || state.pass.no === 0) &&
  committedCount(state.checkpoint) > 0 &&
  rules.dataset.listing.excludesCommitted !== true &&
  rules.rerun !== "replace"

/** The pass skips `skip`, the keys its slice has on disk. */
export const skipping = (state: Listing, skip: Committed): Listing => ({ ...state, pass: { ...state.pass, skip } })

/** A page is fetched and staged: buffered, and committed with the pages before it once a bound is reached or it is the last. */
export const pageTaken = (state: Listing, page: BufferedPage, rules: Rules): Listing | Committing => {
  const buffer = [...state.pass.buffer, page]
  const buffered = state.pass.buffered + page.staged.reduce((n, k) => n + k, 0) + page.rejects.length
  const pass: Pass = { ...state.pass, cursor: page.next, pageNo: state.pass.pageNo + 1, pages: state.pass.pages + 1, buffer, buffered }
  const tally: Tally = { ...state.tally, fetchedPages: state.tally.fetchedPages + 1, fetchedRows: state.tally.fetchedRows + (page.staged[0] ?? 0) }
  if (buffered >= rules.partRows || page.partBytes >= rules.partBytes || page.next === undefined) {
    return { _tag: "Committing", checkpoint: state.checkpoint, tally, restarts: state.restarts, pages: buffer, then: "continue", pass: { ...pass, buffer: [], buffered: 0 } }
  }
  return { ...state, tally, pass }
}

/**
 * The service says the cursor expired. The pages already fetched are valid data, and committing
 * them is progress; not a replacing listing's: part of a new version would show beside the old
 * one whole (its buffer is dropped, its staged rows discarded by the restart's effect).
 */
export const cursorExpired = (state: Listing, rules: Rules): Committing | Restarting | Failed => {
  const { buffer } = state.pass
  if (buffer.length > 0 && rules.rerun !== "replace") {
    return { _tag: "Committing", checkpoint: state.checkpoint, tally: state.tally, restarts: state.restarts, pages: buffer, then: "restart", pass: { ...state.pass, buffer: [], buffered: 0 } }
  }
  return startOver(state, state.pass, state.restarts, "expired", rules)
}

const counted = (into: Readonly<Record<string, number>>, pages: ReadonlyArray<BufferedPage>): Readonly<Record<string, number>> => {
  const out = new Map(Object.entries(into))
  for (const p of pages) for (const [f, n] of p.unknownFields) out.set(f, (out.get(f) ?? 0) + n)
  // defined as own properties: `o[f] = n` on a plain object would set its prototype for a field
  // named `__proto__` (JSON.parse gives records such an own field) and the count would be lost
  return Object.fromEntries(out)
}

/**
 * The part is durable and `next` (CommitPart.ts `advance`) saved after it, with `parts` files of
 * the dataset's own table: the pass goes on, is done with its last page, or starts over.
 */
export const committed = (state: Committing, next: CheckpointState, parts: number, rules: Rules): Listing | Done | Restarting | Failed => {
  const tally: Tally = {
    ...state.tally,
    parts: state.tally.parts + parts,
    holesMet: state.pages.reduce((n, p) => n + p.holes, state.tally.holesMet),
    unknownFields: counted(state.tally.unknownFields, state.pages)
  }
  const after = { checkpoint: next, tally }
  if (state.then === "restart") return startOver(after, state.pass, state.restarts, "expired", rules)
  if (next.status === "done") return { _tag: "Done", ...after }
  return { _tag: "Listing", ...after, pass: state.pass, restarts: state.restarts }
}

/**
 * The state's effect failed. `reached`: the checkpoint as it now stands on disk when the effect
 * got it there before failing (a commit's checkpoint saved, then a later step failed).
 */
export const failed = (state: Base & { readonly _tag?: SliceState["_tag"] }, error: CrawlError, reached?: CheckpointState): Failed => ({
  _tag: "Failed",
  checkpoint: reached ?? state.checkpoint,
  tally: state.tally,
  error,
  // a checkpoint that could not be read, or was never read, is not written over
  record: state._tag !== "Opening" && !(error._tag === "CheckpointError" && error.reason === "Corrupt")
})
