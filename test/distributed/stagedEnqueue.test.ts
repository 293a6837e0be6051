import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, TestClock } from "effect"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { enqueueInStages } from "../../src/distributed/Enqueuer.ts"
import type { SliceJob } from "../../src/distributed/SliceJob.ts"
import { type JobOutcome, SliceQueue } from "../../src/distributed/SliceQueue.ts"
import { notRun } from "../../src/Runner.ts"

/** Workers in miniature: a job is done a second after it was enqueued, with its slice's result (`refused` ones stop the run). */
const fakeQueue = (refused: ReadonlySet<string>) => {
  const enqueuedAt = new Map<string, number>()
  const jobs = new Map<string, SliceJob>()
  const withdrawn: string[] = []
  const queue = SliceQueue.of({
    leaseSeconds: 30,
    enqueue: (batch) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        for (const { id, job } of batch) (enqueuedAt.set(id, now), jobs.set(id, job))
        return 0
      }),
    take: Effect.succeed(undefined),
    renew: () => Effect.succeed(true),
    complete: () => Effect.void,
    release: () => Effect.void,
    withdraw: (ids) => Effect.sync(() => void withdrawn.push(...ids)),
    outcomes: (ids) =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        ids.flatMap((id): JobOutcome[] => {
          const at = enqueuedAt.get(id)
          if (at === undefined || now < at + 1_000) return [{ id, state: at === undefined ? "waiting" : "running", retries: 0 }]
          const slice = jobs.get(id)!.slice
          const result = { ...notRun(slice), status: refused.has(id) ? ("failed" as const) : ("done" as const), ...(refused.has(id) ? { stopsRun: true as const } : {}) }
          return [{ id, state: "done", result, retries: 0 }]
        })
      )
  })
  return { queue, enqueuedAt, withdrawn }
}

const job = (dataset: string, n: number, stage: number) => {
  const slice = makeSlice(dataset, { n: String(n) })
  const j: SliceJob = { outputId: "o", runId: "r", dataset, grain: undefined, slice, asOf: 0, ingestedAt: "2026-12-07T00:00:00Z", partRows: 100 }
  return { id: `${dataset}-${n}`, job: j, stage }
}

const jobs = [job("staking_transactions", 0, 0), job("primary_blocks", 0, 0), job("staking_transactions", 1, 0), job("aggregated_signatures", 0, 1)]

const staged = (refused: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const fake = fakeQueue(refused)
    const fiber = yield* Effect.fork(enqueueInStages(jobs, { pollMs: 100 }, () => Effect.void).pipe(Effect.provide(Layer.succeed(SliceQueue, fake.queue))))
    yield* TestClock.adjust(60_000)
    return { ...(yield* Fiber.join(fiber)), ...fake }
  })

describe("a distributed run's stages", () => {
  it.effect("given a fan-out over staking_transactions beside primary_blocks, when enqueued, then the first stage's jobs are queued together and the fan-out's only once they are all done", () =>
    Effect.gen(function* () {
      const { outcomes, stopped, enqueuedAt } = yield* staged(new Set())
      const first = ["staking_transactions-0", "primary_blocks-0", "staking_transactions-1"].map((id) => enqueuedAt.get(id))
      expect(new Set(first)).toEqual(new Set([0]))
      // done at 1 s, seen done at the next poll
      expect(enqueuedAt.get("aggregated_signatures-0")).toBeGreaterThanOrEqual(1_000)
      expect([...outcomes.keys()].sort()).toEqual(jobs.map((j) => j.id).sort())
      expect(stopped).toBe(false)
    })
  )

  it.effect("given a first-stage slice refused the credentials, when enqueued, then the run stops and the fan-out is never queued", () =>
    Effect.gen(function* () {
      const { outcomes, stopped, enqueuedAt } = yield* staged(new Set(["primary_blocks-0"]))
      expect(stopped).toBe(true)
      expect(enqueuedAt.has("aggregated_signatures-0")).toBe(false)
      expect(outcomes.has("aggregated_signatures-0")).toBe(false)
      expect(outcomes.get("primary_blocks-0")?.result?.stopsRun).toBe(true)
    })
  )
})
