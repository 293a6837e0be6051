/**
 * A run stops starting slices once one stops it (src/crawl/RunStop.ts): concurrent slices share
 * the stop, the first result that stopped the run is the one reported.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect } from "effect"
import { makeRunStop } from "../../src/crawl/RunStop.ts"
import type { SliceResult } from "../../src/crawl/SliceResult.ts"

const result = (slice: string, stopsRun = false): SliceResult => ({
  dataset: "things",
  slice,
  params: {},
  status: stopsRun ? "failed" : "done",
  pages: 1,
  rows: 1,
  rejects: 0,
  restarts: 0,
  duplicates: 0,
  parts: 1,
  unknownFields: {},
  requests: 1,
  retries: 0,
  rateLimited: 0,
  bytes: 0,
  waitMs: 0,
  durationMs: 1,
  ...(stopsRun ? { error: `${slice}: 401`, stopsRun: true as const } : {})
})

describe("a run's stop", () => {
  it.effect("given six slices two at a time where s1 and s2 are refused, when crawled, then s0–s2 run, the rest do not start, and s1 stopped the run", () =>
    Effect.gen(function* () {
      const stop = yield* makeRunStop
      const started: string[] = []
      // s1 is still running when s0's slot goes to s2, and s2 finishes only after s1 stopped the run
      const s2Started = yield* Deferred.make<void>()
      const s1Done = yield* Deferred.make<void>()
      const crawl = (slice: string) =>
        Effect.gen(function* () {
          started.push(slice)
          if (slice === "s1") yield* Deferred.await(s2Started)
          if (slice === "s2") yield* Effect.zipRight(Deferred.succeed(s2Started, undefined), Deferred.await(s1Done))
          return result(slice, slice === "s1" || slice === "s2")
        })
      const slices = ["s0", "s1", "s2", "s3", "s4", "s5"]
      const results = yield* Effect.forEach(slices, (s) => stop.unlessStopped(crawl(s)).pipe(Effect.tap(() => (s === "s1" ? Deferred.succeed(s1Done, undefined) : Effect.void))), {
        concurrency: 2
      })
      expect(started).toEqual(["s0", "s1", "s2"])
      expect(results.map((r) => r?.slice)).toEqual(["s0", "s1", "s2", undefined, undefined, undefined])
      expect((yield* stop.stoppedBy)?.slice).toBe("s1")
    })
  )

  it.effect("given slices that all finish, when crawled, then every one runs and nothing stopped the run", () =>
    Effect.gen(function* () {
      const stop = yield* makeRunStop
      const results = yield* Effect.forEach(["a", "b", "c"], (s) => stop.unlessStopped(Effect.succeed(result(s))), { concurrency: 2 })
      expect(results.map((r) => r?.status)).toEqual(["done", "done", "done"])
      expect(yield* stop.stoppedBy).toBeUndefined()
    })
  )
})
