/**
 * The checkpoint a commit saves after its data (CommitPart.ts `advance`): where the listing goes on
 * from, what is counted, and when a slice is done, for an appending and a replacing listing.
 */
import { describe, expect, it } from "vitest"
import { initialState } from "../../src/crawl/Checkpoint.ts"
import { advance } from "../../src/crawl/CommitPart.ts"
import type { BufferedPage } from "../../src/crawl/SliceCrawl.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"

const slice = makeSlice("evm_blocks", { network: "mainnet", chain: "43114" })
const page = (next: string | undefined, receivedAt: number, reach?: string, holeKeys: ReadonlyArray<string> = []): BufferedPage => ({
  staged: [100],
  partBytes: 0,
  rejects: [],
  holes: holeKeys.length,
  holeKeys,
  unknownFields: new Map(),
  next,
  receivedAt,
  ...(reach === undefined ? {} : { reach })
})

describe("advance", () => {
  it("moves past the pages: the last token and its time, counts added, the next part number", () => {
    // given a checkpoint two parts in, and two pages whose last one has a next token
    const before = { ...initialState(slice, "run-1"), lastSeq: 1, pagesCommitted: 4, rowsCommitted: 400, rejectsCommitted: 2, cursor: "t4", cursorIssuedAt: 1_000 }
    // when they are committed with 198 rows and 2 rejects, the listing going on
    const after = advance(before, [page("t5", 2_000), page("t6", 3_000, "2024-01-02")], 198, 2, "continue", "never", 1_700_000_000)
    // then the listing resumes at t6, issued when its page came, and the slice is still running
    expect(after).toMatchObject({
      cursor: "t6",
      cursorIssuedAt: 3_000,
      pagesCommitted: 6,
      rowsCommitted: 598,
      rejectsCommitted: 4,
      lastSeq: 2,
      keepFromSeq: null,
      completedAsOf: null,
      reach: "2024-01-02",
      status: "running"
    })
  })

  it("marks the slice done at the last page, completed as of the run", () => {
    // given a fresh checkpoint and the listing's only page, which has no next token
    const after = advance(initialState(slice, "run-1"), [page(undefined, 5_000)], 100, 0, "continue", "always", 1_700_000_000)
    // then there is no cursor, the slice is done and completed as of the run's instant
    expect(after).toMatchObject({ cursor: null, cursorIssuedAt: null, lastSeq: 0, status: "done", completedAsOf: 1_700_000_000, keepFromSeq: null })
  })

  it("keeps no cursor when the pages are committed before a restart", () => {
    // given pages committed because the next token expired
    const after = advance(initialState(slice, "run-1"), [page("t1", 5_000)], 100, 0, "restart", "never", 1_700_000_000)
    // then the listing starts over from its first page, and the slice is not done
    expect(after).toMatchObject({ cursor: null, cursorIssuedAt: null, pagesCommitted: 1, status: "running", completedAsOf: null })
  })

  it("supersedes every earlier part when a replacing listing finishes", () => {
    // given a replacing listing with three parts on disk from an earlier version
    const before = { ...initialState(slice, "run-2"), lastSeq: 2, completedAsOf: 1_600_000_000 }
    // when its new version is committed whole
    const after = advance(before, [page("a", 1), page(undefined, 2)], 150, 0, "continue", "replace", 1_700_000_000)
    // then only the new part (3) is kept, and the slice is done as of this run
    expect(after).toMatchObject({ lastSeq: 3, keepFromSeq: 3, status: "done", completedAsOf: 1_700_000_000 })
    // and its counts say what that version holds, beside the totals of every version
    const again = advance({ ...after, rejectsCommitted: 4 }, [page(undefined, 3)], 120, 1, "continue", "replace", 1_800_000_000)
    expect(again).toMatchObject({ keepFromSeq: 4, rowsCommitted: 270, rejectsCommitted: 5, kept: { rows: 120, rejects: 1 } })
    // a listing that appends keeps no such count
    expect(advance(initialState(slice, "run-1"), [page(undefined, 1)], 10, 0, "continue", "always", 1_700_000_000)).not.toHaveProperty("kept")
  })

  it("counts each child table's rows from the slice's first part on, not for a checkpoint older than the count nor for a replacing listing", () => {
    // given a fresh slice whose parts write rows to two child tables
    const first = advance(initialState(slice, "run-1"), [page("t1", 1)], 100, 0, "continue", "always", 1_700_000_000, { erc20: 7, internal: 0 })
    const second = advance(first, [page(undefined, 2)], 100, 0, "continue", "always", 1_700_000_000, { erc20: 5, internal: 3 })
    // then the checkpoint sums them per table, beside its own rows
    expect(first.childRows).toEqual({ erc20: 7, internal: 0 })
    expect(second).toMatchObject({ rowsCommitted: 200, childRows: { erc20: 12, internal: 3 } })
    // a checkpoint written before the count, parts in, cannot say its earlier parts' child rows: none
    const older = { ...initialState(slice, "run-0"), lastSeq: 4, rowsCommitted: 500 }
    expect(advance(older, [page(undefined, 1)], 100, 0, "continue", "always", 1_700_000_000, { erc20: 7 })).not.toHaveProperty("childRows")
    // nor a replacing listing, whose older versions' child rows are removed with their parts
    expect(advance(initialState(slice, "run-1"), [page(undefined, 1)], 100, 0, "continue", "replace", 1_700_000_000, { erc20: 7 })).not.toHaveProperty("childRows")
    // a dataset without child tables keeps no count
    expect(advance(initialState(slice, "run-1"), [page(undefined, 1)], 100, 0, "continue", "always", 1_700_000_000, {})).not.toHaveProperty("childRows")
  })
})
