/**
 * When a restarted enqueuer takes over the distributed run holding its output (Takeover.ts): at
 * once when the holder's death is proved, after one lease of silence otherwise, never while the
 * holder is seen confirming.
 */
import { describe, expect, it } from "vitest"
import { type EnqueuerRow, type TakeoverFacts, judgeHolder } from "../../src/distributed/Takeover.ts"

const LEASE_MS = 30_000

const row = (over: Partial<EnqueuerRow> = {}): EnqueuerRow => ({
  runId: "20261207T040000Z-abc123",
  pid: 4242,
  hostname: "box-a",
  confirmedAgoMs: 2_000,
  confirmedAtMs: 1_800_000_000_000,
  ...over
})

const facts = (over: Partial<TakeoverFacts> = {}): TakeoverFacts => ({
  lockHeld: true,
  row: row(),
  rowHoldsLock: true,
  host: "box-a",
  pidAlive: () => true,
  leaseMs: LEASE_MS,
  firstSeenAtMs: undefined,
  waitedMs: 0,
  ...over
})

describe("judgeHolder", () => {
  it("given no lock held and no row, when judged, then the output is free: no takeover", () => {
    expect(judgeHolder(facts({ lockHeld: false, row: undefined, rowHoldsLock: false }))).toEqual({ kind: "free" })
  })

  it("given the lock free but the killed enqueuer's row left behind, when judged, then it is taken over at once (its session ended), with nothing to end", () => {
    expect(judgeHolder(facts({ lockHeld: false, rowHoldsLock: false }))).toEqual({
      kind: "take",
      when: "at once",
      why: "its PostgreSQL session had ended (the server freed its lock)",
      endSession: false
    })
  })

  it("given the lock held by a session whose process no longer runs on this host, when judged, then it is taken over at once, ending that session", () => {
    const dead = new Set([4242])
    expect(judgeHolder(facts({ pidAlive: (pid) => !dead.has(pid), row: row({ confirmedAgoMs: 500 }) }))).toEqual({
      kind: "take",
      when: "at once",
      why: "its process (pid 4242) no longer runs on this host",
      endSession: true
    })
  })

  it("given a holder on another host whose pid happens to be free here, when judged, then its pid proves nothing: it is waited for", () => {
    const verdict = judgeHolder(facts({ row: row({ hostname: "box-b" }), pidAlive: () => false }))
    expect(verdict).toEqual({ kind: "wait", ms: 5_000 })
  })

  it("given a holder silent for a whole lease, when judged, then it is taken over after its lease, ending its session", () => {
    expect(judgeHolder(facts({ row: row({ hostname: "box-b", confirmedAgoMs: 31_250 }), firstSeenAtMs: 1_800_000_000_000, waitedMs: 29_000 }))).toEqual({
      kind: "take",
      when: "after its lease",
      why: "no sign of life for 31.3 s (lease 30.0 s)",
      endSession: true
    })
  })

  it("given a holder confirmed 28 s ago, when judged, then the wait ends just past its lease rather than a whole step later", () => {
    expect(judgeHolder(facts({ row: row({ hostname: "box-b", confirmedAgoMs: 28_000 }) }))).toEqual({ kind: "wait", ms: 2_050 })
  })

  it("given a holder that confirmed again while this contender waited, when judged, then it is alive and the contender is refused naming how recently", () => {
    const first = 1_800_000_000_000
    expect(judgeHolder(facts({ row: row({ hostname: "box-b", confirmedAtMs: first + 10_000, confirmedAgoMs: 300 }), firstSeenAtMs: first, waitedMs: 10_500 }))).toEqual({
      kind: "alive",
      why: "it confirmed its hold 0.3 s ago"
    })
  })

  it("given the lock held by a session that left no row (just starting, or an older chainetl), when judged, then it is waited for one lease and then refused", () => {
    expect(judgeHolder(facts({ row: undefined, rowHoldsLock: false, waitedMs: 1_000 }))).toEqual({ kind: "wait", ms: 5_000 })
    expect(judgeHolder(facts({ row: undefined, rowHoldsLock: false, waitedMs: 30_000 }))).toEqual({ kind: "alive", why: "a distributed run holds this output's lock" })
  })

  it("given a dead run's row left behind while another live session holds the lock, when judged, then the old row is not taken for the holder: nothing is ended", () => {
    const verdict = judgeHolder(facts({ row: row({ confirmedAgoMs: 600_000 }), rowHoldsLock: false, pidAlive: () => false }))
    expect(verdict).toEqual({ kind: "wait", ms: 5_000 })
  })
})
