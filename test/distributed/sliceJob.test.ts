/**
 * The pieces of a distributed run that need no server: a job's key (what makes enqueueing again
 * idempotent) and the settings read from the environment.
 */
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { loadDistributedSettings } from "../../src/distributed/Settings.ts"
import { jobId, queueName } from "../../src/distributed/SliceJob.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const OUT = "0b6f3c52-7d1e-4a8a-9f3e-2c1d5e6f7a8b"

const settingsOf = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(loadDistributedSettings, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("a distributed run's job keys and settings", () => {
  it("given the same output, dataset and slice, when keyed twice, then the key is the same well-formed UUID; another slice or output gets another key", () => {
    const a = jobId(OUT, "primary_blocks", "c-chain-2025-01-01-abcd1234")
    expect(a).toMatch(UUID)
    expect(jobId(OUT, "primary_blocks", "c-chain-2025-01-01-abcd1234")).toBe(a)
    expect(jobId(OUT, "primary_blocks", "c-chain-2025-01-02-abcd1234")).not.toBe(a)
    expect(jobId(OUT, "staking_transactions", "c-chain-2025-01-01-abcd1234")).not.toBe(a)
    expect(jobId("1b6f3c52-7d1e-4a8a-9f3e-2c1d5e6f7a8b", "primary_blocks", "c-chain-2025-01-01-abcd1234")).not.toBe(a)
    // no separator ambiguity: the dataset and slice are not just concatenated
    expect(jobId(OUT, "a|b", "c")).not.toBe(jobId(OUT, "a", "b|c"))
    expect(queueName(OUT)).toBe(`chainetl-slices-${OUT}`)
  })

  it("given no setting, when read, then the defaults (lease 30 s, sweep 5 s, poll 1 s); given a lease below 3 s or a word, then a ConfigError naming the variable", () => {
    expect(settingsOf({})).toEqual(Either.right({ leaseSeconds: 30, sweepSeconds: 5, pollMs: 1000 }))
    expect(settingsOf({ CHAINETL_WORKER_LEASE_SECONDS: "6", CHAINETL_QUEUE_SWEEP_SECONDS: "1", CHAINETL_QUEUE_POLL_MS: "200" })).toEqual(Either.right({ leaseSeconds: 6, sweepSeconds: 1, pollMs: 200 }))
    const short = settingsOf({ CHAINETL_WORKER_LEASE_SECONDS: "2" })
    expect(Either.isLeft(short) && short.left.message).toMatch(/^CHAINETL_WORKER_LEASE_SECONDS: got 2\. Fix: use a whole number ≥ 3/)
    const word = settingsOf({ CHAINETL_QUEUE_POLL_MS: "fast" })
    expect(Either.isLeft(word) && word.left.message).toMatch(/^CHAINETL_QUEUE_POLL_MS: not a whole number/)
  })
})
