/**
 * The processes of a new output (its workers and the enqueuer) start together, and each creates
 * the output's queue. pg-boss 10 makes a queue a partition of its job table, and PostgreSQL may
 * abort one of two such creations as a deadlock (seen in `chainetl backfill --distributed`:
 * "pg-boss could not start: deadlock detected"). Against a real PostgreSQL.
 */
import { Effect, Layer, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { pgBossQueueLayer } from "../../src/distributed/PgBossQueue.ts"
import { SliceQueue } from "../../src/distributed/SliceQueue.ts"
import { postgresForTests } from "../support/postgres.ts"
import { delegatorsJob } from "../support/sliceJobs.ts"

const PROCESSES = 6
const OUTPUTS = 2

describe("creating a new output's queue from many processes at once", () => {
  const postgres = postgresForTests()

  it(`given ${OUTPUTS} new outputs, when ${PROCESSES} queues of each start at once, then every one starts, and a job enqueued by one is seen by the others`, async () => {
    const settings = { leaseSeconds: 30, sweepSeconds: 1, pollMs: 100 }
    for (let round = 0; round < OUTPUTS; round++) {
      const output = randomUUID()
      const { id, job } = delegatorsJob(output)
      const started = await Effect.runPromise(
        Effect.all(
          Array.from({ length: PROCESSES }, (_, i) =>
            Effect.gen(function* () {
              const queue = yield* SliceQueue
              if (i === 0) yield* queue.enqueue([{ id, job }])
              return "started" as const
            }).pipe(Effect.provide(pgBossQueueLayer(Redacted.make(postgres().url), output, settings)), Effect.either)
          ),
          { concurrency: "unbounded" }
        ).pipe(Effect.scoped)
      )
      expect(started.filter((s) => s._tag === "Left").map((s) => (s._tag === "Left" ? s.left.message : ""))).toEqual([])
      const [outcome] = await Effect.runPromise(
        Effect.flatMap(SliceQueue, (q) => q.outcomes([id])).pipe(Effect.provide(Layer.orDie(pgBossQueueLayer(Redacted.make(postgres().url), output, settings))), Effect.scoped)
      )
      expect(outcome?.state).toBe("waiting")
    }
  }, 120_000)
})
