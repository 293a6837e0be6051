/**
 * New slices' running states journaled together (src/crawl/OpeningJournal.ts) through the file
 * checkpoint store: the first save of each costs no file, a later process reads it as its own
 * "running" save would have been, and settling drops what checkpoints of their own now say.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { CheckpointStore, type CheckpointState, checkpointsRoot, initialState } from "../../src/crawl/Checkpoint.ts"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { KillSwitch, layers, newDisk, thingsDataset } from "./fakes.ts"
import { tempFolders } from "../support/fixtures.ts"

const newFolder = tempFolders("chainetl-opening-")
const temp = { make: Effect.promise(newFolder) }
const a = makeSlice("things", { day: "2024-01-01" })
const b = makeSlice("things", { day: "2024-01-02" })
const storeOf = (out: string) => Effect.provide(CheckpointStore, CheckpointStore.layer(out))
const folder = (out: string) => path.join(checkpointsRoot(out), "things")
const names = (out: string) => Effect.promise(async () => (await fs.readdir(folder(out)).catch(() => [] as string[])).sort())
const done = (s: CheckpointState): CheckpointState => ({ ...s, status: "done", lastSeq: 0, pagesCommitted: 1, rowsCommitted: 3, completedAsOf: 1 })

describe("the opening journal of a file store", () => {
  it.effect("given two new slices opened, when the first one's running state is saved, then no checkpoint file is written and another process reads both as running with nothing committed", () =>
    Effect.gen(function* () {
      const out = yield* temp.make
      const store = yield* storeOf(out)
      yield* store.open("things", [initialState(a, "run-1"), initialState(b, "run-1")])

      expect(yield* store.load(a)).toBeUndefined()
      yield* store.save(initialState(a, "run-1"))

      expect(yield* names(out)).toEqual(["run-1-0.opening"])
      // this process knows a began and b did not
      expect(yield* store.load(a)).toMatchObject({ slice: a.id, status: "running", lastSeq: -1 })
      expect(yield* store.load(b)).toBeUndefined()
      const later = yield* storeOf(out)
      expect(yield* later.load(a)).toMatchObject({ slice: a.id, status: "running", lastSeq: -1, runId: "run-1", params: a.params })
      expect(yield* later.load(b)).toMatchObject({ slice: b.id, status: "running", lastSeq: -1 })
      expect((yield* later.list("things")).map((c) => c.slice).sort()).toEqual([a.id, b.id].sort())
    })
  )

  it.effect("given an opened slice that went on to commit, when the store settles, then its own checkpoint stays, the journal goes with the slice that never began, and nothing else is listed", () =>
    Effect.gen(function* () {
      const out = yield* temp.make
      const store = yield* storeOf(out)
      yield* store.open("things", [initialState(a, "run-1"), initialState(b, "run-1")])
      yield* store.save(initialState(a, "run-1"))
      yield* store.save(done(initialState(a, "run-1")))

      yield* store.settle

      expect(yield* names(out)).toEqual([`${a.id}.json`])
      const later = yield* storeOf(out)
      expect((yield* later.list("things")).map((c) => [c.slice, c.status])).toEqual([[a.id, "done"]])
      expect(yield* later.load(b)).toBeUndefined()
    })
  )

  it.effect("given a slice that began and has no checkpoint of its own at the end, when the store settles, then the journal keeps it alone until a later run's checkpoint of it settles it", () =>
    Effect.gen(function* () {
      const out = yield* temp.make
      const store = yield* storeOf(out)
      yield* store.open("things", [initialState(a, "run-1"), initialState(b, "run-1")])
      yield* store.save(initialState(a, "run-1"))

      yield* store.settle

      expect(yield* names(out)).toEqual(["run-1-0.opening"])
      const journaled = JSON.parse(yield* Effect.promise(() => fs.readFile(path.join(folder(out), "run-1-0.opening"), "utf8"))) as CheckpointState[]
      expect(journaled.map((s) => s.slice)).toEqual([a.id])
      const later = yield* storeOf(out)
      expect((yield* later.list("things")).map((c) => [c.slice, c.status, c.lastSeq])).toEqual([[a.id, "running", -1]])
      yield* later.save({ ...initialState(a, "run-2") })
      yield* later.settle
      expect(yield* names(out)).toEqual([`${a.id}.json`])
    })
  )

  it.effect("given a journal that is not JSON, when a slice of its dataset is loaded, then the load fails as Corrupt naming the journal", () =>
    Effect.gen(function* () {
      const out = yield* temp.make
      yield* Effect.promise(async () => {
        await fs.mkdir(folder(out), { recursive: true })
        await fs.writeFile(path.join(folder(out), "run-0-0.opening"), "[{")
      })
      const error = yield* Effect.flip((yield* storeOf(out)).load(a))
      expect(error).toMatchObject({ _tag: "CheckpointError", reason: "Corrupt" })
      expect(error.message).toContain(`checkpoint of things (opening journal): Corrupt: ${path.join(folder(out), "run-0-0.opening")} is broken (`)
      expect(error.message).toContain("Fix: restore it, or delete it and refetch the range its run covered (`chainetl backfill --refetch`)")
    })
  )
})

/** Records r000… with n = their index, all on one page (of "things", partitioned by parity). */
const things = (total: number) =>
  thingsDataset({
    fetch: () => Effect.succeed({ records: Array.from({ length: total }, (_, i) => ({ id: `r${String(i).padStart(3, "0")}`, n: i })), next: undefined })
  })
const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 100 }

describe("a new slice killed between its part and its first checkpoint", () => {
  it.effect("given an opened slice killed after one of its part's files landed, when a later run crawls it and the listing is now empty, then that file is gone", () =>
    Effect.gen(function* () {
      const out = yield* temp.make
      const disk = newDisk()
      const store = yield* storeOf(out)
      yield* store.open("things", [initialState(a, "run-1")])
      // the part's second file (of two partitions) is where the kill lands
      const first = yield* Effect.exit(
        crawlSlice(things(4), a, options).pipe(Effect.provide(Layer.merge(layers(disk, new KillSwitch(2)), Layer.succeed(CheckpointStore, store))))
      )
      expect(Exit.isFailure(first)).toBe(true)
      expect([...disk.parts.keys()]).toEqual([`things/parity=even/part-${a.id}-000000`])
      expect(yield* names(out)).toEqual(["run-1-0.opening"])

      const result = yield* crawlSlice(things(0), a, { ...options, runId: "run-2" }).pipe(
        Effect.provide(Layer.merge(layers(disk, new KillSwitch(undefined)), CheckpointStore.layer(out)))
      )

      expect(result).toMatchObject({ status: "done", rows: 0 })
      expect([...disk.parts.keys()]).toEqual([])
    })
  )
})
