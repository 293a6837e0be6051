/**
 * The pure checks of `chainetl verify` (src/verify/), fed facts as Facts would read them: heights
 * as ranges, windows against since and their checkpoints, exactly once, freshness, the exact
 * commands of their repairs.
 */
import { describe, expect, it } from "vitest"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { defaultJob } from "../../src/Job.ts"
import { exactlyOnceFindings } from "../../src/verify/ExactlyOnce.ts"
import { commandOf, repairsOf } from "../../src/verify/Finding.ts"
import { checkFreshness, freshnessFinding, lagOf, newestOf } from "../../src/verify/Freshness.ts"
import { countOf, missingHeights } from "../../src/verify/Heights.ts"
import { linkFindings } from "../../src/verify/Links.ts"
import { type SliceFacts, sliceFindings } from "../../src/verify/Slices.ts"
import { durationText, instantText, windowFindings } from "../../src/verify/Windows.ts"

const at = (iso: string) => Date.parse(iso) / 1000
const DAY = 86_400

const state = (over: Partial<CheckpointState>): CheckpointState => ({
  dataset: "primary_blocks",
  slice: "s",
  params: {},
  cursor: null,
  cursorIssuedAt: null,
  pagesCommitted: 1,
  rowsCommitted: 10,
  rejectsCommitted: 0,
  holes: 0,
  holeKeys: [],
  passHoles: null,
  lastSeq: 0,
  keepFromSeq: null,
  status: "done",
  completedAsOf: at("2025-02-01"),
  restarts: 0,
  runId: "r1",
  updatedAt: "2025-02-01T00:00:00.000Z",
  error: null,
  ...over
})

describe("heights", () => {
  it("given runs of heights with gaps, a floor below the first and a rejected height above the last, when checked, then each absent range is named once, exactly", () => {
    const gaps = missingHeights(
      [
        { lo: 3n, hi: 9n, hiTime: 100 },
        { lo: 12n, hi: 12n, loTime: 130 },
        { lo: 20n, hi: 2n ** 70n }
      ],
      [10n, 2n ** 70n + 1n, 2n ** 70n + 2n, 5n],
      0n
    )
    expect(gaps.map((g) => [g.from, g.to])).toEqual([
      [0n, 2n],
      [10n, 11n],
      [13n, 19n],
      [2n ** 70n + 1n, 2n ** 70n + 2n]
    ])
    // the times around a gap: which windows to re-crawl
    expect(gaps[1]).toMatchObject({ after: 100, before: 130 })
    expect(countOf(gaps)).toBe(3n + 2n + 7n + 2n)
  })

  it("given one unbroken run, when checked, then nothing is missing", () => {
    expect(missingHeights([{ lo: 0n, hi: 29n }], [], 0n)).toEqual([])
  })

  it("given a run held up to 19 and checkpoints saying heights up to 29 were written, with a rejected height among them, when checked, then 20-29 are missing once, above every height held", () => {
    const gaps = missingHeights([{ lo: 0n, hi: 19n, hiTime: 190 }], [25n], 0n, 29n)
    expect(gaps).toEqual([{ from: 20n, to: 29n, top: true, after: 190 }])
    expect(countOf(gaps)).toBe(10n)
    // checkpoints that say no more than what is held: nothing
    expect(missingHeights([{ lo: 0n, hi: 19n }], [], 0n, 19n)).toEqual([])
  })
})

describe("links", () => {
  it("given blocks whose parent is not the block below, when named, then one finding per listing gives the heights as ranges and the first pair of ids", () => {
    const listing = { network: "mainnet" }
    const found = linkFindings("node_p_blocks", { id: "block_id", parent: "parent_id" }, [7n, 8n, 12n].map((height) => ({ listing, height, parent: `p${height}`, below: `b${height - 1n}` })), [])
    expect(found).toHaveLength(1)
    expect(found[0]!.what).toBe("the chain does not link at heights 7-8, 12: the parent_id of 7 is p7, the block_id of the block at 6 is b6")
  })
})

describe("windows", () => {
  const listing = { network: "mainnet", blockchain: "p-chain" }
  const w = (from: string, to: string, over: Partial<CheckpointState> = {}, fileRows = 10) => ({ from: at(from), to: at(to), state: state({ slice: `w-${from}`, ...over }), fileRows })

  it("given windows from since with a day none covers, one failed, one done with holes and one whose files hold a row more, when checked, then each is named with its backfill and an empty day covered is a note", () => {
    const r = windowFindings({
      dataset: "primary_blocks",
      listing,
      since: at("2025-01-01"),
      windows: [
        w("2025-01-01", "2025-01-02"),
        w("2025-01-03", "2025-01-04", { status: "failed", error: "503" }),
        w("2025-01-04", "2025-01-05", { holes: 2, holeKeys: ["a", "b"] }),
        w("2025-01-05", "2025-01-06", {}, 11),
        w("2025-01-06", "2025-01-08")
      ],
      days: new Set(["2025-01-01", "2025-01-04", "2025-01-05", "2025-01-06"])
    })
    expect(r.findings.map((f) => [f.what, f.repair === undefined ? undefined : commandOf(f.repair, { out: "/o" })])).toEqual([
      ["[2025-01-02T00:00:00Z, 2025-01-03T00:00:00Z) was never crawled (no window covers it); days without rows: 2025-01-02", "chainetl backfill primary_blocks --from 2025-01-02 --to 2025-01-03 --out /o"],
      ["window [2025-01-03T00:00:00Z, 2025-01-04T00:00:00Z) is failed (503); days without rows: 2025-01-03", "chainetl backfill primary_blocks --from 2025-01-03 --to 2025-01-04 --out /o"],
      ["window [2025-01-04T00:00:00Z, 2025-01-05T00:00:00Z) was done with 2 hole(s) (rejected records not written since)", "chainetl backfill primary_blocks --from 2025-01-04 --to 2025-01-05 --out /o"],
      [
        "window [2025-01-05T00:00:00Z, 2025-01-06T00:00:00Z) holds 11 row(s) in its files, its checkpoint says 10 were committed (slice w-2025-01-05)",
        "chainetl backfill primary_blocks --from 2025-01-05 --to 2025-01-06 --window 1d --refetch --out /o"
      ]
    ])
    expect(r.notes.map((n) => n.what)).toEqual(["crawled, no rows: 2025-01-07 (a finished window covers them: the service listed nothing those days)"])
  })

  it("given a since before the first window, when checked, then the range from since is missing", () => {
    const r = windowFindings({ dataset: "primary_blocks", listing, since: at("2024-12-30"), windows: [w("2025-01-01", "2025-01-02")] })
    expect(r.findings.map((f) => f.what)).toEqual(["[2024-12-30T00:00:00Z, 2025-01-01T00:00:00Z) was never crawled (no window covers it)"])
  })

  it("given times and sizes, when written for the CLI, then a midnight is a date and a size the largest whole unit", () => {
    expect([instantText(at("2025-01-02")), instantText(at("2025-01-02T06:00:00Z"))]).toEqual(["2025-01-02", "2025-01-02T06:00:00Z"])
    expect([durationText(DAY), durationText(90 * DAY), durationText(6 * 3600), durationText(90), durationText(61)]).toEqual(["1d", "90d", "6h", "90s", "61s"])
  })
})

describe("exactly once", () => {
  it("given a key twice, a compacted file whose footer disagrees with its manifest, a part past its checkpoint and an orphan, when checked, then each is named and a window's key gets its refetch", () => {
    const s = state({ slice: "w1", lastSeq: 1 })
    const found = exactlyOnceFindings(
      {
        duplicates: [{ dataset: "primary_blocks", view: "primary_blocks", key: { block_hash: "h1" }, count: 2, slices: ["w1"] }],
        parts: [
          { dataset: "primary_blocks", path: "primary_blocks/m=1/part-w1-000001.parquet", slice: "w1", seq: 1 },
          { dataset: "primary_blocks", path: "primary_blocks/m=1/part-w1-000002.parquet", slice: "w1", seq: 2 },
          { dataset: "primary_blocks", path: "primary_blocks/m=1/part-gone-000000.parquet", slice: "gone", seq: 0 }
        ],
        compacted: [
          { dataset: "primary_blocks", path: "primary_blocks/m=1/compact-a.parquet", manifestRows: 5, footerRows: 5 },
          { dataset: "primary_blocks", path: "primary_blocks/m=1/compact-b.parquet", manifestRows: 5, footerRows: 4 },
          { dataset: "primary_blocks", path: "primary_blocks/m=1/compact-c.parquet", manifestRows: 5, problem: "is missing or not Parquet" }
        ],
        orphans: [],
        checkpoints: new Map([["primary_blocks", new Map([["w1", s]])]])
      },
      (_d, slice) => (slice === "w1" ? { kind: "backfill", dataset: "primary_blocks", from: "2025-01-01", to: "2025-01-02", window: "1d", refetch: true } : undefined)
    )
    expect(found.map((f) => f.what)).toEqual([
      "key (block_hash=h1) is 2 times in primary_blocks (in the files of slice w1)",
      "primary_blocks/m=1/compact-b.parquet holds 4 row(s) in its footer, its manifest says 5",
      "primary_blocks/m=1/compact-c.parquet, listed by its manifest, is missing or not Parquet",
      "1 part(s) past its slice's checkpoint (written by a run that stopped before its checkpoint): primary_blocks/m=1/part-w1-000002.parquet",
      "1 part(s) of a slice without a checkpoint (an orphan: no view should read it): primary_blocks/m=1/part-gone-000000.parquet"
    ])
    expect(found[0]!.repair).toMatchObject({ refetch: true, from: "2025-01-01" })
    // two findings of one window re-crawl it once
    expect(repairsOf([found[0]!, found[0]!, found[3]!])).toHaveLength(2)
  })
})

describe("exactly once, a compacted file lost", () => {
  it("given a lost compacted file merging two slices each re-crawled by its id, when checked, then its re-crawl takes both in one command; with a slice no id re-crawls, the fix says to restore it", () => {
    const lost = (slices: ReadonlyArray<string>) =>
      exactlyOnceFindings(
        { duplicates: [], parts: [], compacted: [{ dataset: "delegators", path: "delegators/n=1/compact-a.parquet", manifestRows: 5, problem: "is missing or not Parquet", slices }], orphans: [], checkpoints: new Map() },
        (dataset, slice) => (slice.startsWith("s") ? { kind: "refetch-slice", dataset, slice } : undefined)
      )
    expect(lost(["s1", "s2"]).map((f) => (f.repair === undefined ? f.fix : commandOf(f.repair, { out: "/o" })))).toEqual(["chainetl run delegators --refetch-slice s1 --refetch-slice s2 --out /o"])
    expect(lost(["s1", "w"]).map((f) => f.fix)).toEqual(["restore the file from a backup of the output, or re-crawl the dataset into a fresh --out: its rows are in no other file"])
  })
})

describe("freshness", () => {
  it("given an SLA of 26h, when the data is 27h old, then it fails naming both; at 25h it holds; a misspelt dataset or a zero SLA is refused", () => {
    const newest = newestOf([state({ completedAsOf: 1_000_000 })], undefined)
    expect(freshnessFinding("delegators", "26h", lagOf(1_000_000 + 27 * 3600, newest))?.what).toBe("is 27h 0m old, its freshness SLA is 26h")
    expect(freshnessFinding("delegators", "26h", lagOf(1_000_000 + 25 * 3600, newest))).toBeUndefined()
    // a windowed dataset is as fresh as its least fresh listing
    expect(newestOf([], [200, 100, null])).toBe(100)
    expect(checkFreshness({ ...defaultJob, freshness: { delegator: "26h" } }, ["delegators"], "job.json")._tag).toBe("Left")
    expect(checkFreshness({ ...defaultJob, freshness: { delegators: "0h" } }, ["delegators"], "job.json")._tag).toBe("Left")
    expect(checkFreshness({ ...defaultJob, freshness: { delegators: "26h" } }, ["delegators"], "job.json")._tag).toBe("Right")
  })
})

describe("slices", () => {
  const facts = (over: Partial<SliceFacts>): SliceFacts => ({
    dataset: "delegators",
    states: [],
    tables: [],
    otherParts: [],
    replacing: false,
    listingOf: (s) => s.params,
    ...over
  })
  const part = (slice: string, seq: number, rows?: number) => ({ slice, seq, path: `delegators/part-${slice}-${String(seq).padStart(6, "0")}.parquet`, ...(rows === undefined ? {} : { rows }) })
  const refetch = (s: CheckpointState) => ({ kind: "refetch-slice" as const, dataset: "delegators", slice: s.slice })

  it("given a slice whose part 1 is gone, one whose part cannot be read, one whose rejects are short and one whole, when checked, then each short one is named with its rows and the part missing, and its re-crawl is the run that crawls it again whole", () => {
    const found = sliceFindings(
      facts({
        states: [
          state({ slice: "a", params: { network: "mainnet" }, rowsCommitted: 30, lastSeq: 2 }),
          state({ slice: "b", rowsCommitted: 10, lastSeq: 0 }),
          state({ slice: "c", rowsCommitted: 5, rejectsCommitted: 2, lastSeq: 0 }),
          state({ slice: "d", rowsCommitted: 7, lastSeq: 1 })
        ],
        tables: [
          // d's part 1 held only child rows: its seq has a file in the child table
          { what: "rows", parts: [part("a", 0, 10), part("a", 2, 10), part("b", 0), part("c", 0, 5), part("d", 0, 7)], merged: [] },
          { what: "rejects", parts: [part("c", 0, 1)], merged: [] }
        ],
        otherParts: [{ slice: "d", seq: 1 }]
      }),
      refetch,
      "no crawl"
    )
    expect(found.map((f) => [f.check, f.listing, f.what, f.repair === undefined ? f.fix : commandOf(f.repair, { out: "/o" })])).toEqual([
      ["slices", { network: "mainnet" }, "slice a committed 30 row(s), its files hold 20 (no file of part-a-000001 is on disk)", "chainetl run delegators --refetch-slice a --out /o"],
      ["slices", {}, "slice b committed 10 row(s), its files hold 0 (delegators/part-b-000000.parquet cannot be read)", "chainetl run delegators --refetch-slice b --out /o"],
      ["slices", {}, "slice c committed 2 reject(s), its files hold 1", "chainetl run delegators --refetch-slice c --out /o"]
    ])
  })

  it("given slices whose parts compaction merged into one file, when their rows add up through the manifest they pass, and when the file's rows fall short the slices are named together", () => {
    const states = [state({ slice: "w1", rowsCommitted: 10, lastSeq: 1 }), state({ slice: "w2", rowsCommitted: 5, lastSeq: 0 })]
    const merged = (rows: number) => [{ path: "primary_blocks/m=1/compact-x.parquet", rows, slices: new Set(["w1", "w2"]) }]
    // w1's part 1 is live beside the compacted file holding its part 0 and w2's
    const tables = (rows: number) => [{ what: "rows" as const, parts: [part("w1", 1, 4)], merged: merged(rows) }]
    expect(sliceFindings(facts({ states, tables: tables(11) }), () => undefined, "restore it")).toEqual([])
    expect(sliceFindings(facts({ states, tables: tables(9) }), () => undefined, "restore it").map((f) => [f.what, f.fix])).toEqual([
      ["slices w1, w2 (merged by primary_blocks/m=1/compact-x.parquet) committed 15 row(s), its files hold 13", "restore it"]
    ])
    // re-crawled by their ids, they go together in one command: neither can be taken out of the file alone
    expect(sliceFindings(facts({ states, tables: tables(9) }), refetch, "restore it").map((f) => (f.repair === undefined ? f.fix : commandOf(f.repair, { out: "/o" })))).toEqual([
      "chainetl run delegators --refetch-slice w1 --refetch-slice w2 --out /o"
    ])
  })

  it("given parts past the checkpoint, a replacing listing's superseded part and one on its second version with no count of it, when checked, then none of them is counted; with the version's count it is", () => {
    const found = sliceFindings(
      facts({
        replacing: true,
        states: [
          // first version: part 0 is all of it (the part past the checkpoint is exactly-once's)
          state({ slice: "v1", rowsCommitted: 8, lastSeq: 0, keepFromSeq: 0 }),
          // second version: the checkpoint counts both, the files hold the second alone
          state({ slice: "v2", rowsCommitted: 16, lastSeq: 1, keepFromSeq: 1 })
        ],
        tables: [{ what: "rows", parts: [part("v1", 0, 8), part("v1", 1, 8), part("v2", 0, 8), part("v2", 1, 8)], merged: [] }]
      }),
      refetch,
      "no crawl"
    )
    expect(found).toEqual([])
    // a replacing listing whose checkpoint says what its version on disk holds is counted by it
    const versions = (rows: number) =>
      facts({
        replacing: true,
        states: [state({ slice: "v2", rowsCommitted: 16, lastSeq: 1, keepFromSeq: 1, kept: { rows, rejects: 0 } })],
        tables: [{ what: "rows", parts: [part("v2", 1, 8)], merged: [] }]
      })
    expect(sliceFindings(versions(8), refetch, "no crawl")).toEqual([])
    expect(sliceFindings(versions(9), refetch, "no crawl").map((f) => f.what)).toEqual(["slice v2 committed 9 row(s), its files hold 8"])
  })

  it("given a child table's part lost, when the slice's checkpoint counts its child rows, then the slice is named with them; a checkpoint older than the count is not judged on them", () => {
    const child = (childRows?: Record<string, number>) =>
      facts({
        states: [state({ slice: "s", rowsCommitted: 16, lastSeq: 1, ...(childRows === undefined ? {} : { childRows }) })],
        tables: [
          { what: "rows", parts: [part("s", 0, 8), part("s", 1, 8)], merged: [] },
          { what: "child", table: "transfers", parts: [part("s", 1, 4)], merged: [] }
        ]
      })
    expect(sliceFindings(child({ transfers: 9 }), refetch, "no crawl").map((f) => [f.what, f.repair])).toEqual([
      ["slice s committed 9 transfers row(s), its files hold 4", { kind: "refetch-slice", dataset: "delegators", slice: "s" }]
    ])
    expect(sliceFindings(child({ transfers: 4 }), refetch, "no crawl")).toEqual([])
    expect(sliceFindings(child(), refetch, "no crawl")).toEqual([])
  })

  it("given a slice re-crawled by some of its heights, when its command is written, then it names the slice and the heights, both included", () => {
    expect(commandOf({ kind: "refetch-slice", dataset: "evm_blocks", slice: "43113-6cb92da3", heights: { from: "393", to: "431" } }, { out: "/o", job: "j.json" })).toBe(
      "chainetl run evm_blocks --refetch-slice 43113-6cb92da3@393-431 --out /o --job j.json"
    )
  })
})
