/**
 * The slice's state and its pure transitions (src/crawl/SliceState.ts): what a loaded checkpoint
 * opens to, when a pass begins or starts over, when buffered pages become a part, what a commit
 * and an expired cursor lead to, and what a failure keeps.
 */
import { describe, expect, it } from "vitest"
import { SourceError, CheckpointError } from "../../src/Errors.ts"
import { type CheckpointState, initialState } from "../../src/crawl/Checkpoint.ts"
import type { Listing as DatasetListing } from "../../src/crawl/Dataset.ts"
import { KeyDigests } from "../../src/crawl/KeyDigests.ts"
import type { BufferedPage } from "../../src/crawl/SliceCrawl.ts"
import {
  committed,
  cursorExpired,
  failed,
  type Listing,
  needsSkip,
  opened,
  opening,
  pageTaken,
  passBegun,
  type Ready,
  recovered,
  restarted,
  type Rules,
  skipping
} from "../../src/crawl/SliceState.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"

const slice = makeSlice("things", { network: "mainnet" })
const listing: DatasetListing<never> = { fetch: () => { throw new Error("not fetched in these tests") } }
const rules = (over: Partial<Rules> = {}): Rules => ({
  slice,
  rerun: "always",
  partRows: 10,
  partBytes: 1_000,
  ttlMs: undefined,
  dataset: { name: "things", listing },
  ...over
})
const fresh = initialState(slice, "run-2")
const page = (next: string | undefined, rows: number, o: Partial<BufferedPage> = {}): BufferedPage => ({
  staged: [rows],
  partBytes: rows * 10,
  rejects: [],
  holes: 0,
  holeKeys: [],
  unknownFields: new Map(),
  next,
  receivedAt: 5_000,
  ...o
})
/** A slice resumed by run-2 from a checkpoint two parts in, cursor "t4" issued at 1,000 ms. */
const resumed = (over: Partial<CheckpointState> = {}): Ready => {
  const loaded: CheckpointState = { ...initialState(slice, "run-1"), status: "failed", lastSeq: 1, pagesCommitted: 4, rowsCommitted: 12, cursor: "t4", cursorIssuedAt: 1_000, ...over }
  const recovering = opened(opening(fresh), loaded, rules(), "run-2")
  if (recovering._tag !== "Recovering") throw new Error(`expected Recovering, got ${recovering._tag}`)
  return recovered(recovering)
}
const listingOf = (ready: Ready, r: Rules = rules()): Listing => {
  const next = passBegun(ready, 2_000, r)
  if (next._tag !== "Listing") throw new Error(`expected Listing, got ${next._tag}`)
  return next
}

describe("opening a slice", () => {
  it("given a done checkpoint of a never-rerun slice with no hole, when it is read, then the slice is final and reports from it", () => {
    const done: CheckpointState = { ...initialState(slice, "run-1"), status: "done", rowsCommitted: 9, holes: 0 }
    const state = opened(opening(fresh), done, rules({ rerun: "never" }), "run-2")
    expect(state).toMatchObject({ _tag: "Final", checkpoint: done, tally: { started: done } })
  })

  it("given no checkpoint, when opened, then the fresh one is this run's, running, and no folder is walked", () => {
    const state = opened(opening(fresh), undefined, rules(), "run-2")
    expect(state).toMatchObject({ _tag: "Recovering", recover: undefined, checkpoint: { runId: "run-2", status: "running", lastSeq: -1, cursor: null } })
  })

  it("given a failed checkpoint at part 1 of a replacing listing that kept parts from 1, when opened, then parts after 1 and before 1 are removed", () => {
    const loaded: CheckpointState = { ...initialState(slice, "run-1"), status: "failed", lastSeq: 1, keepFromSeq: 1, error: "boom" }
    const state = opened(opening(fresh), loaded, rules({ rerun: "replace" }), "run-2")
    expect(state).toMatchObject({ _tag: "Recovering", recover: { after: 1, before: 1 }, checkpoint: { status: "running", error: null, runId: "run-2" } })
  })

  it("given a done checkpoint of a rerunning slice, when opened, then its listing starts from the first page, nothing past it to remove", () => {
    const done: CheckpointState = { ...initialState(slice, "run-1"), status: "done", lastSeq: 3, cursor: "stale", cursorIssuedAt: 7 }
    const state = opened(opening(fresh), done, rules({ rerun: "always" }), "run-2")
    expect(state).toMatchObject({ _tag: "Recovering", recover: undefined, checkpoint: { cursor: null, cursorIssuedAt: null, lastSeq: 3 } })
  })
})

describe("a pass", () => {
  it("given a checkpoint's cursor, when a pass begins, then it asks for that cursor as the page after those committed", () => {
    const state = listingOf(resumed())
    expect(state.pass).toMatchObject({ no: 0, cursor: "t4", pageNo: 4, pages: 0, buffered: 0, committedAtStart: 12 })
  })

  it("given a cursor issued 1,000 ms before a pass and a 500 ms lifetime, when the pass begins, then the listing starts over, saved as a restart", () => {
    const state = passBegun(resumed(), 2_000, rules({ ttlMs: 500 }))
    expect(state).toMatchObject({ _tag: "Restarting", why: "aged", passNo: 1, checkpoint: { cursor: null, cursorIssuedAt: null, restarts: 1, rowsCommitted: 12 } })
  })

  it("given rows on disk, when the run's first pass resumes mid-way, then it skips them; a listing that excludes them itself does not", () => {
    expect(needsSkip(listingOf(resumed()), rules())).toBe(true)
    const excluding = rules({ dataset: { name: "things", listing: { ...listing, excludesCommitted: true } } })
    expect(needsSkip(listingOf(resumed(), excluding), excluding)).toBe(false)
    expect(needsSkip(listingOf(resumed(), rules({ rerun: "replace" })), rules({ rerun: "replace" }))).toBe(false)
    const skip = { rows: KeyDigests.of(1, ["a"]), rejects: KeyDigests.of(2, []) }
    expect(skipping(listingOf(resumed()), skip).pass.skip).toBe(skip)
  })

  it("given parts of 10 rows, when pages of 4 rows arrive, then the third makes a part of all three and the pass goes on after it", () => {
    const first = pageTaken(listingOf(resumed()), page("t5", 4), rules())
    const second = first._tag === "Listing" ? pageTaken(first, page("t6", 4), rules()) : first
    expect(second).toMatchObject({ _tag: "Listing", pass: { cursor: "t6", pageNo: 6, pages: 2, buffered: 8 }, tally: { fetchedPages: 2, fetchedRows: 8 } })
    const third = second._tag === "Listing" ? pageTaken(second, page("t7", 4, { rejects: [{ id: "x" }] }), rules()) : second
    expect(third).toMatchObject({ _tag: "Committing", then: "continue", pass: { cursor: "t7", pageNo: 7, pages: 3, buffer: [], buffered: 0 } })
    expect(third._tag === "Committing" && third.pages.map((p) => p.next)).toEqual(["t5", "t6", "t7"])
  })

  it("given a page of 1 row that brings the staged part to its byte bound, or the listing's last page, when taken, then the part is due", () => {
    expect(pageTaken(listingOf(resumed()), page("t5", 1, { partBytes: 1_000 }), rules())._tag).toBe("Committing")
    expect(pageTaken(listingOf(resumed()), page(undefined, 1), rules())._tag).toBe("Committing")
  })
})

describe("commits and restarts", () => {
  const after = (before: CheckpointState, o: Partial<CheckpointState>): CheckpointState => ({ ...before, lastSeq: before.lastSeq + 1, ...o })

  it("given a part committed with holes and unknown fields, when it is the listing's last, then the slice is done with them tallied", () => {
    const due = pageTaken(listingOf(resumed()), page(undefined, 3, { holes: 2, unknownFields: new Map([["extra", 3]]) }), rules())
    if (due._tag !== "Committing") throw new Error(due._tag)
    const next = after(due.checkpoint, { status: "done", rowsCommitted: 15 })
    expect(committed(due, next, 2, rules())).toMatchObject({ _tag: "Done", checkpoint: next, tally: { parts: 2, holesMet: 2, unknownFields: { extra: 3 } } })
  })

  it("given records with a field named __proto__ on two committed parts, when tallied, then it is counted like any other unknown field and no prototype changes", () => {
    const first = pageTaken(listingOf(resumed()), page("t5", 2, { unknownFields: new Map([["__proto__", 2], ["extra", 1]]) }), rules())
    if (first._tag !== "Listing") throw new Error(first._tag)
    const due = pageTaken(first, page(undefined, 1, { unknownFields: new Map([["__proto__", 1]]) }), rules())
    if (due._tag !== "Committing") throw new Error(due._tag)
    const done = committed(due, after(due.checkpoint, { status: "done", rowsCommitted: 3 }), 1, rules())
    if (done._tag !== "Done") throw new Error(done._tag)
    const tally = done.tally.unknownFields
    expect(Object.getOwnPropertyDescriptor(tally, "__proto__")?.value).toBe(3)
    expect(Object.getPrototypeOf(tally)).toBe(Object.prototype)
    expect(JSON.parse(JSON.stringify(tally))).toEqual(JSON.parse('{"__proto__": 3, "extra": 1}'))
  })

  it("given a buffer of two pages, when the service says the cursor expired, then they are committed first and the listing starts over after", () => {
    const one = pageTaken(listingOf(resumed()), page("t5", 2), rules())
    if (one._tag !== "Listing") throw new Error(one._tag)
    const due = cursorExpired(one, rules())
    expect(due).toMatchObject({ _tag: "Committing", then: "restart" })
    if (due._tag !== "Committing") throw new Error(due._tag)
    const restart = committed(due, after(due.checkpoint, { rowsCommitted: 14, cursor: null }), 1, rules())
    expect(restart).toMatchObject({ _tag: "Restarting", why: "expired", passNo: 1, restarts: { restarted: true }, checkpoint: { cursor: null, restarts: 1, rowsCommitted: 14 } })
  })

  it("given a replacing listing's buffer, when its cursor expires, then the buffer is dropped, not committed", () => {
    const replacing = rules({ rerun: "replace", partRows: Number.POSITIVE_INFINITY, partBytes: Number.POSITIVE_INFINITY })
    const one = pageTaken(listingOf(resumed(), replacing), page("t5", 2), replacing)
    if (one._tag !== "Listing") throw new Error(one._tag)
    expect(cursorExpired(one, replacing)).toMatchObject({ _tag: "Restarting", checkpoint: { rowsCommitted: 12, cursor: null } })
  })

  it("given a restart already, when the next pass expires again with nothing committed since it began, then the slice fails instead of looping", () => {
    const aged = passBegun(resumed(), 2_000, rules({ ttlMs: 500 }))
    if (aged._tag !== "Restarting") throw new Error(aged._tag)
    const again = cursorExpired(listingOf(restarted(aged)), rules())
    expect(again).toMatchObject({ _tag: "Failed", record: true, checkpoint: { rowsCommitted: 12 } })
    expect(again._tag === "Failed" && again.error.message).toContain("page tokens expire before the listing gets past the rows already committed")
  })

  it("given a replacing listing restarted once, when its next pass gets further before expiring, then it starts over again", () => {
    const replacing = rules({ rerun: "replace" })
    const first = cursorExpired(pageTaken(listingOf(resumed(), replacing), page("t5", 1), replacing) as Listing, replacing)
    if (first._tag !== "Restarting") throw new Error(first._tag)
    const pass = listingOf(restarted(first), replacing)
    const further = pageTaken(pageTaken(pass, page("a", 1), replacing) as Listing, page("b", 1), replacing) as Listing
    expect(cursorExpired(further, replacing)).toMatchObject({ _tag: "Restarting", passNo: 2, restarts: { furthest: 2 }, checkpoint: { restarts: 2 } })
  })
})

describe("failures", () => {
  it("given a commit whose checkpoint reached the disk before a later step failed, when it fails, then the failed state holds that checkpoint", () => {
    const state = listingOf(resumed())
    const reached = { ...state.checkpoint, lastSeq: 2, rowsCommitted: 20 }
    const error = new SourceError({ reason: "HttpStatus", request: "GET x", status: 503, detail: "down" })
    expect(failed(state, error, reached)).toMatchObject({ _tag: "Failed", checkpoint: reached, record: true })
  })

  it("given a checkpoint that could not be read, or a broken one, when the slice fails, then nothing is saved over it", () => {
    const io = new CheckpointError({ reason: "Io", slice: slice.id, detail: "EACCES" })
    expect(failed(opening(fresh), io).record).toBe(false)
    const corrupt = new CheckpointError({ reason: "Corrupt", slice: slice.id, file: "/out/x.json", detail: "not valid JSON" })
    expect(failed(listingOf(resumed()), corrupt).record).toBe(false)
  })
})
