/**
 * Issue 14 items 1 and 2 at the crawler's level, against fake listings that misbehave the way a
 * service can: page tokens that cycle, endless empty pages or the same page under fresh tokens
 * (progress or stop), and keys sent again on the same page, on later pages, in later parts, after
 * a restart or after a crash (exactly once, first version wins).
 */
import { describe, expect, it } from "@effect/vitest"
import * as arrow from "apache-arrow"
import { Effect, Exit } from "effect"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import type { DatasetDef, Page } from "../../src/crawl/Dataset.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { KeyDigests, REJECT_SEED, ROW_SEED } from "../../src/crawl/KeyDigests.ts"
import { ListingGuard } from "../../src/crawl/ListingGuard.ts"
import { SourceError } from "../../src/Errors.ts"
import { KillSwitch, layers, newDisk, rowsOf } from "./fakes.ts"

type Rec = { readonly id: string; readonly v: string }

/** A listing served from a table: cursor → page; undefined is the first page. Logs every cursor asked for. */
const scripted = (pages: (cursor: string | undefined) => Page | SourceError, log: Array<string | undefined>) => ({
  fetch: (_slice: unknown, cursor: string | undefined) =>
    Effect.suspend(() => {
      log.push(cursor)
      const page = pages(cursor)
      return page instanceof SourceError ? Effect.fail(page) : Effect.succeed(page)
    })
})

const dataset = (l: ReturnType<typeof scripted>): DatasetDef<never> => ({
  name: "things",
  description: "test",
  schema: new arrow.Schema([]),
  partitionBy: [],
  key: ["id"],
  slices: () => [],
  listing: l,
  toRow: (raw) => ({ id: (raw as Rec).id, v: (raw as Rec).v })
})

const recs = (...ids: string[]): Rec[] => ids.map((id) => ({ id, v: `v-${id}` }))
const slice = makeSlice("things", { network: "mainnet" })
const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 4, guard: { noProgressPages: 5 } }
const crawl = (disk: ReturnType<typeof newDisk>, l: ReturnType<typeof scripted>, o: Partial<typeof options> = {}) =>
  crawlSlice(dataset(l), slice, { ...options, ...o }).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
const ids = (disk: ReturnType<typeof newDisk>) => rowsOf(disk, "things", "id").map((r) => r["id"])

describe("progress or stop", () => {
  it.effect("given a listing whose page tokens cycle a→b→c→a, when crawled, then the slice fails on the repeated token after 4 requests and only the pages before the cycle's last commit are written", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const table: Record<string, Page> = {
        first: { records: recs("r0", "r1", "r2", "r3"), next: "a" },
        a: { records: recs("r4", "r5"), next: "b" },
        b: { records: recs("r6", "r7"), next: "c" },
        c: { records: recs("r8"), next: "a" }
      }
      const result = yield* crawl(disk, scripted((c) => table[c ?? "first"]!, log))
      expect(result.status).toBe("failed")
      expect(result.error).toBe(
        `TokenRepeated on things ${slice.id}: page 3 answered the page token "a", already asked for after page 0 in this pass: the listing would cycle. It was stopped; its committed pages are kept; report the listing to the service`
      )
      expect(log).toEqual([undefined, "a", "b", "c"])
      // parts of 4 rows: page 0 alone, then pages 1–2; page 3 (r8) was buffered, never committed
      expect(ids(disk)).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"])
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ status: "failed", cursor: "c", pagesCommitted: 3, rowsCommitted: 8 })
    })
  )

  it.effect("given a page that names itself as the next page, when crawled, then the slice fails after that one request", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const result = yield* crawl(disk, scripted((c) => (c === undefined ? { records: recs("r0"), next: "same" } : { records: recs("r1"), next: "same" }), log))
      expect(result.status).toBe("failed")
      expect(result.error).toMatch(/^TokenRepeated on things .*: page 1 answered the page token "same", already asked for after page 0/)
      expect(log).toEqual([undefined, "same"])
      expect(ids(disk)).toEqual([])
    })
  )

  it.effect("given endless empty pages with fresh tokens after two good pages, when crawled, then the slice fails after 5 empty pages (the bound) saying no progress, the good pages kept", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const result = yield* crawl(
        disk,
        scripted((c) => {
          const n = c === undefined ? 0 : Number(c)
          return { records: n === 0 ? recs("r0", "r1", "r2") : n === 1 ? recs("r3") : [], next: String(n + 1) }
        }, log),
        { guard: { noProgressPages: 5 } }
      )
      expect(result.status).toBe("failed")
      expect(result.error).toMatch(/^NoProgress on things .*: 5 pages in a row \(up to page 6\) brought no record new to this pass/)
      expect(log).toEqual([undefined, "1", "2", "3", "4", "5", "6"])
      expect(ids(disk)).toEqual(["r0", "r1", "r2", "r3"])
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ status: "failed", cursor: "2", rowsCommitted: 4 })
    })
  )

  it.effect("given the same page sent again and again under fresh tokens, when crawled, then it is written once and the slice fails for no progress within the bound", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const log: Array<string | undefined> = []
      const result = yield* crawl(disk, scripted((c) => ({ records: recs("r0", "r1"), next: `t${c === undefined ? 1 : Number(c.slice(1)) + 1}` }), log), { partRows: 2 })
      expect(result.status).toBe("failed")
      expect(result.error).toMatch(/^NoProgress on things /)
      expect(log).toHaveLength(6)
      expect(ids(disk)).toEqual(["r0", "r1"])
      expect(result.duplicates).toBe(10)
    })
  )

  it.effect("given a listing with 8 empty pages in a row and then records, when crawled with the default bound (50), then it completes", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const result = yield* crawlSlice(
        dataset(scripted((c) => {
          const n = c === undefined ? 0 : Number(c)
          return { records: n === 9 ? recs("r9") : n === 0 ? recs("r0") : [], next: n < 9 ? String(n + 1) : undefined }
        }, [])),
        slice,
        { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 4 }
      ).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(result).toMatchObject({ status: "done", pages: 10, rows: 2 })
      expect(ids(disk)).toEqual(["r0", "r9"])
    })
  )
})

describe("exactly once within a listing", () => {
  it.effect("given keys repeated on the same page, on a later page and in a later part, when crawled, then each key is written once with its first version and the repeats are counted", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const pages: Record<string, Page> = {
        first: { records: [...recs("a", "b"), { id: "a", v: "second a" }], next: "1" },
        "1": { records: [{ id: "b", v: "later b" }, ...recs("c", "d")], next: "2" },
        "2": { records: [...recs("e"), { id: "c", v: "later c" }, { id: "a", v: "third a" }], next: undefined }
      }
      const result = yield* crawl(disk, scripted((c) => pages[c ?? "first"]!, []), { partRows: 2 })
      expect(result).toMatchObject({ status: "done", rows: 5, duplicates: 4, parts: 3 })
      expect(rowsOf(disk, "things", "id")).toEqual([
        { id: "a", v: "v-a" },
        { id: "b", v: "v-b" },
        { id: "c", v: "v-c" },
        { id: "d", v: "v-d" },
        { id: "e", v: "v-e" }
      ])
    })
  )

  it.effect("given a token that expires mid-listing and a restarted pass that sends committed keys again, when crawled, then no key is doubled", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      let expired = false
      const pages = (c: string | undefined): Page | SourceError => {
        if (c === "2" && !expired) {
          expired = true
          return new SourceError({ reason: "TokenExpired", request: "GET test", status: 400, detail: "page token expired" })
        }
        const n = c === undefined ? 0 : Number(c)
        // page 2 repeats "r1" from page 0
        return { records: n === 2 ? recs("r1", "r4") : recs(`r${2 * n}`, `r${2 * n + 1}`), next: n < 2 ? String(n + 1) : undefined }
      }
      const result = yield* crawl(disk, scripted(pages, []), { partRows: 100 })
      expect(result).toMatchObject({ status: "done", restarts: 1, rows: 5, duplicates: 1 })
      expect(ids(disk)).toEqual(["r0", "r1", "r2", "r3", "r4"])
    })
  )

  it.effect("given a crawl killed after its first part, when a later run resumes mid-listing and meets a key of that part again, then it is not written again", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      const pages = (c: string | undefined): Page => {
        const n = c === undefined ? 0 : Number(c)
        // page 3 sends "r0" again, committed by the first life
        return { records: n === 3 ? recs("r0", "r9") : recs(`r${2 * n}`, `r${2 * n + 1}`), next: n < 3 ? String(n + 1) : undefined }
      }
      // durable operations: running checkpoint (1), part 0 (2), its checkpoint (3), part 1 (4): killed there
      const killed = yield* Effect.exit(crawlSlice(dataset(scripted(pages, [])), slice, { ...options, partRows: 2 }).pipe(Effect.provide(layers(disk, new KillSwitch(4)))))
      expect(Exit.isFailure(killed)).toBe(true)
      expect(disk.checkpoints.get(`things/${slice.id}`)).toMatchObject({ cursor: "1", rowsCommitted: 2 })
      const log: Array<string | undefined> = []
      const resumed = yield* crawl(disk, scripted(pages, log), { partRows: 2 })
      expect(log[0]).toBe("1")
      expect(resumed).toMatchObject({ status: "done", rows: 5 })
      expect(ids(disk)).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r9"])
    })
  )
})

describe("the guard's memory of keys", () => {
  const page = (rows: string[], rejects: string[] = [], next?: string) => ({ rows, rejects, next })
  const admit = (guard: ListingGuard, p: ReturnType<typeof page>, pageNo: number) => {
    const result = guard.admit(p, pageNo, (k) => k, (k) => k, undefined)
    if (result instanceof SourceError) throw new Error(result.detail)
    return result
  }

  it("given maxKeys 4 (two generations of 2), when keys a–e pass and a and c come again in the same pass, then c is known as a repeat and a, two generations back, is let through", () => {
    const guard = new ListingGuard("things s", { noProgressPages: 50, maxKeys: 4 })
    guard.startPass(undefined)
    expect(admit(guard, page(["a", "b", "c", "d", "e"]), 0).rows).toEqual(["a", "b", "c", "d", "e"])
    expect(admit(guard, page(["c", "a"]), 1).rows).toEqual(["a"])
    expect(guard.duplicates).toBe(1)
  })

  it("given a reject and a row with the same key text, when admitted, then both are kept (rows and rejects are keyed apart)", () => {
    const guard = new ListingGuard("things s")
    guard.startPass(undefined)
    expect(admit(guard, page(["k1"], ["k1"]), 0)).toEqual({ rows: ["k1"], rejects: ["k1"] })
  })

  it("given a key met in an earlier pass, when a new pass sends it again, then it is not written again and not counted as the service's repeat", () => {
    const guard = new ListingGuard("things s")
    guard.startPass(undefined)
    admit(guard, page(["x", "y"]), 0)
    guard.startPass(undefined)
    expect(admit(guard, page(["y", "z"]), 0).rows).toEqual(["z"])
    expect(guard.duplicates).toBe(0)
  })

  describe("committed keys as digests (issue 11)", () => {
    const admitWith = (guard: ListingGuard, p: ReturnType<typeof page>, committed: Parameters<ListingGuard["admit"]>[4]) => {
      const result = guard.admit(p, 0, (k) => k, (k) => k, committed)
      if (result instanceof SourceError) throw new Error(result.detail)
      return result
    }
    const hashes = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `0x${(from + i).toString(16).padStart(64, "0")}`)

    it("given 2,000 committed rows and 2 committed rejects as digests, when a restarted listing sends 2,500 rows and 3 rejects from its first page, then exactly the 500 rows and 1 reject not committed are kept", () => {
      // given a new run's guard (nothing seen) and the slice's keys on disk
      const committed = { rows: KeyDigests.of(ROW_SEED, hashes(0, 2000)), rejects: KeyDigests.of(REJECT_SEED, ["bad-1", "bad-2"]) }
      const guard = new ListingGuard("things s")
      guard.startPass(undefined)
      // when the listing starts over
      const kept = admitWith(guard, page(hashes(0, 2500), ["bad-1", "bad-2", "bad-3"]), committed)
      // then only the keys not on disk are written, and none counts as the service's repeat
      expect(kept.rows).toEqual(hashes(2000, 2500))
      expect(kept.rejects).toEqual(["bad-3"])
      expect(guard.duplicates).toBe(0)
    })

    it("given committed row keys digested with the rejects' seed, when admitted, then the guard looks them up by text and skips the same keys", () => {
      const committed = { rows: KeyDigests.of(REJECT_SEED, ["a", "b"]), rejects: KeyDigests.of(ROW_SEED, ["x"]) }
      const guard = new ListingGuard("things s")
      guard.startPass(undefined)
      expect(admitWith(guard, page(["a", "b", "c"], ["x", "y"]), committed)).toEqual({ rows: ["c"], rejects: ["y"] })
    })

    it("given committed keys as a Set of texts (the crawler's form until it takes digests), when admitted, then the same keys are skipped", () => {
      const committed = { rows: new Set(["a", "b"]), rejects: new Set<string>() }
      const guard = new ListingGuard("things s")
      guard.startPass(undefined)
      expect(admitWith(guard, page(["a", "b", "c"], ["a"]), committed)).toEqual({ rows: ["c"], rejects: ["a"] })
    })
  })
})

