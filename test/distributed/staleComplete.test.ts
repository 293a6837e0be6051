/**
 * A job is completed only under the lease that holds it: a worker whose job has passed to another
 * (its lock lost, its save refused, so its slice ends failed) must not complete the job its
 * successor is working. Against the real queue on a real PostgreSQL.
 */
import { Effect, Layer, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { pgBossQueueLayer } from "../../src/distributed/PgBossQueue.ts"
import { type Lease, SliceQueue } from "../../src/distributed/SliceQueue.ts"
import { notPlanned } from "../../src/Runner.ts"
import { postgresForTests } from "../support/postgres.ts"
import { delegatorsJob } from "../support/sliceJobs.ts"
import { until } from "../support/until.ts"

const OUTPUT = "5d0c1f7e-3b1a-4c6e-9a55-1f2e3d4c5b6a"

describe("completing a job under a lease that no longer holds it", () => {
  const postgres = postgresForTests()

  it("given a job taken, handed back and taken again, when the first holder completes it as failed, then nothing changes; when the second completes it, its outcome is the job's", async () => {
    const { slice, id, job } = delegatorsJob(OUTPUT)
    const result = (status: "done" | "failed", error?: string) => ({ ...notPlanned("delegators", undefined), slice: slice.id, params: slice.params, status, ...(error === undefined ? {} : { error }) })
    const layer = pgBossQueueLayer(Redacted.make(postgres().url), OUTPUT, { leaseSeconds: 30, sweepSeconds: 1, pollMs: 100 })
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const queue = yield* SliceQueue
        const takeOne = Effect.promise(() => until("the job to be taken", () => Effect.runPromise(queue.take), 20_000))
        yield* queue.enqueue([{ id, job }])
        const first: Lease = yield* takeOne
        yield* queue.release(first, "handed back")
        const second: Lease = yield* takeOne
        expect(second.generation).toBeGreaterThan(first.generation)

        yield* queue.complete(first, result("failed", "this worker lost the slice's lock"))
        const [meanwhile] = yield* queue.outcomes([id])
        expect(meanwhile?.state).toBe("running")

        yield* queue.complete(second, result("done"))
        const [after] = yield* queue.outcomes([id])
        return after
      }).pipe(Effect.provide(Layer.orDie(layer)), Effect.scoped)
    )
    expect(outcome?.state).toBe("done")
    expect(outcome?.result?.status).toBe("done")
    expect(outcome?.result?.error).toBeUndefined()
  }, 60_000)
})
