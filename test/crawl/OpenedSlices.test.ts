/**
 * A run's new slices opened a group at a time just ahead of their start (src/OpenedSlices.ts):
 * the store hears of each new slice once, in groups of OPEN_AHEAD in start order, before the
 * slice's crawl; a slice with a checkpoint is never journaled; a group that cannot be written
 * fails its slice unstarted.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import type { AnyDataset } from "../../src/crawl/Dataset.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { CheckpointError } from "../../src/Errors.ts"
import { OPEN_AHEAD, openedSlices } from "../../src/OpenedSlices.ts"
import type { PlannedDataset } from "../../src/SliceExecution.ts"
import { KillSwitch, layers, newDisk, thingsDataset } from "./fakes.ts"

const day = (k: number) => new Date(Date.UTC(2024, 0, 1) + k * 86_400_000).toISOString().slice(0, 10)
/** 150 one-day windows, oldest first as planned; the two newest have checkpoints. */
const slices = Array.from({ length: 150 }, (_, k) => makeSlice("things", { from: day(k), to: day(k + 1) }))
const newestFirst = [...slices].reverse()
const plan: PlannedDataset[] = [
  {
    dataset: thingsDataset({ fetch: () => Effect.die("not crawled here") }) as unknown as AnyDataset,
    slices,
    checkpointed: new Set(newestFirst.slice(0, 2).map((s) => s.id))
  }
]

/** A fake store that records each `open` (or fails it). */
const recording = (opens: string[][], fail?: CheckpointError) =>
  Layer.effect(
    CheckpointStore,
    Effect.map(Effect.provide(CheckpointStore, layers(newDisk(), new KillSwitch(undefined))), (store) => ({
      ...store,
      open: (_dataset: string, states: ReadonlyArray<{ readonly slice: string }>) =>
        fail !== undefined ? Effect.fail(fail) : Effect.sync(() => void opens.push(states.map((s) => s.slice)))
    }))
  )

describe("new slices opened ahead of their start", () => {
  it.effect("given 148 new windows and 2 with checkpoints started newest first, when each starts, then the store hears of the new ones in three groups in that order, before each one's crawl", () =>
    Effect.gen(function* () {
      const opens: string[][] = []
      const crawled: Array<[string, number]> = []
      const opened = yield* openedSlices(plan, "run-1").pipe(Effect.provide(recording(opens)))
      for (const slice of newestFirst) {
        yield* opened.start(plan[0]!.dataset, slice, Effect.sync(() => void crawled.push([slice.id, opens.length])), () => undefined)
      }
      const fresh = newestFirst.slice(2).map((s) => s.id)
      expect(OPEN_AHEAD).toBe(64)
      expect(opens).toEqual([fresh.slice(0, 64), fresh.slice(64, 128), fresh.slice(128)])
      // every slice crawled, each new one after the group holding it was written
      expect(crawled.map(([id]) => id)).toEqual(newestFirst.map((s) => s.id))
      for (const [id, written] of crawled) {
        const k = fresh.indexOf(id)
        expect(written).toBe(k === -1 ? 0 : Math.floor(k / 64) + 1)
      }
    })
  )

  it.effect("given a slice that starts out of turn, when it starts first, then its group holds it and the next 63 in start order", () =>
    Effect.gen(function* () {
      const opens: string[][] = []
      const opened = yield* openedSlices(plan, "run-1").pipe(Effect.provide(recording(opens)))
      const oldest = slices[0]!
      yield* opened.start(plan[0]!.dataset, oldest, Effect.void, () => undefined)
      yield* opened.start(plan[0]!.dataset, newestFirst[2]!, Effect.void, () => undefined)
      expect(opens).toEqual([[oldest.id, ...newestFirst.slice(2, 65).map((s) => s.id)]])
    })
  )

  it.effect("given a store that cannot write the group, when a new slice starts, then it fails unstarted with the reason and is not crawled", () =>
    Effect.gen(function* () {
      const crawled: string[] = []
      const full = new CheckpointError({ reason: "Io", slice: "*", detail: "ENOSPC: no space left on device" })
      const opened = yield* openedSlices(plan, "run-1").pipe(Effect.provide(recording([], full)))
      const slice = newestFirst[2]!
      const result = yield* opened.start(plan[0]!.dataset, slice, Effect.sync(() => crawled.push(slice.id)).pipe(Effect.as("crawled")), (error) => `failed: ${error}`)
      expect(result).toBe("failed: checkpoint of *: Io: ENOSPC: no space left on device")
      expect(crawled).toEqual([])
    })
  )
})
