import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, TestClock } from "effect"
import { crawlPlan, type Planned } from "../../src/CrawlPlan.ts"
import { type Reader, runOrder, stagesOf } from "../../src/pace/Order.ts"
import { makeSliceGate } from "../../src/SliceGate.ts"
import { asListingPage } from "../../src/source/ListingPage.ts"
import { makeRateLimiter, RateLimiter } from "../../src/source/RateLimiter.ts"
import { SourceStats } from "../../src/source/SourceStats.ts"

const ROUND_TRIP_MS = 1_000

interface FakeSlice {
  readonly params: Readonly<Record<string, string>>
  readonly pages: number
}

interface Span {
  readonly dataset: string
  readonly pages: number
  readonly start: number
  readonly end: number
}

/** `pages` listings of a dataset, the longest in its newest window (as a chain's history has it). */
const slicesOf = (pages: ReadonlyArray<number>): ReadonlyArray<FakeSlice> =>
  pages.map((n, i) => ({ params: { to: `2024-${String(12 - Math.floor(i / 28)).padStart(2, "0")}-${String(28 - (i % 28)).padStart(2, "0")}T00:00:00Z` }, pages: n }))

const dataset = (name: string, pages: ReadonlyArray<number>, readsOutputOf?: ReadonlyArray<string>): Planned<Reader, FakeSlice> => ({
  dataset: { name, ...(readsOutputOf === undefined ? {} : { readsOutputOf }) },
  slices: slicesOf(pages)
})

/**
 * A run's step 4 in miniature on the TestClock: each slice a listing of its pages, each page a
 * request to one host at `rate` a second answered after a second (the limiter told each round
 * trip, as the HTTP client tells it). Per slice its dataset and its start and end, ms from the start.
 */
const crawled = (plans: ReadonlyArray<ReadonlyArray<Planned<Reader, FakeSlice>>>, rate: number, concurrency = 64) =>
  Effect.gen(function* () {
    const limiter = yield* makeRateLimiter({ rate, burst: 4, concurrency: 64 })
    const start = yield* Clock.currentTimeMillis
    const spans: Span[] = []
    const listing = (d: Reader, s: FakeSlice) =>
      Effect.gen(function* () {
        const t0 = yield* Clock.currentTimeMillis
        for (let p = 0; p < s.pages; p++) {
          yield* asListingPage(p)(limiter.withPermit("h")(Effect.sleep(ROUND_TRIP_MS)))
          yield* limiter.onRoundTrip("h", ROUND_TRIP_MS)
        }
        spans.push({ dataset: d.name, pages: s.pages, start: t0 - start, end: (yield* Clock.currentTimeMillis) - start })
        return s.pages
      })
    // each plan after the one before: one plan of all datasets is the run's pool, one plan a
    // dataset is how a run crawled them before, one after the other
    const all = Effect.forEach(plans, (plan) =>
      Effect.scoped(Effect.flatMap(makeSliceGate(concurrency), (gate) => crawlPlan(plan, listing, gate, concurrency)))
    ).pipe(Effect.provide(Layer.succeed(RateLimiter, limiter)))
    const fiber = yield* Effect.fork(all)
    yield* TestClock.adjust(10 * 60_000)
    const results = yield* Fiber.join(fiber)
    return { spans, results, wallMs: Math.max(...spans.map((s) => s.end)) }
  }).pipe(Effect.provide(SourceStats.layer))

const ones = (n: number) => Array.from({ length: n }, () => 1)

describe("datasets crawled side by side", () => {
  it.effect("given two datasets whose longest listings are 20 and 12 pages among 30 one-page ones each, at 50/s and 1 s round trips, when crawled from one pool, then their slices overlap and the run ends with the longest listing (~20 s), not the sum of the two (~32 s) they took one after the other", () =>
    Effect.gen(function* () {
      const a = dataset("primary_blocks", [20, ...ones(30)])
      const b = dataset("staking_transactions", [12, ...ones(30)])
      const together = yield* crawled([[a, b]], 50)
      const inTurn = yield* crawled([[a], [b]], 50)
      // the bound: max(92 requests / 50 per s, 20 pages × 1 s) = 20 s; one token's wait a page at most
      expect(together.wallMs).toBeGreaterThanOrEqual(20 * ROUND_TRIP_MS)
      expect(together.wallMs).toBeLessThanOrEqual(20 * (ROUND_TRIP_MS + 20) + ROUND_TRIP_MS)
      // in turn: each dataset waited for its own longest listing, 20 s then 12 s
      expect(inTurn.wallMs).toBeGreaterThanOrEqual(32 * ROUND_TRIP_MS)
      // the second dataset's long listing ran while the first's did
      const longA = together.spans.find((s) => s.dataset === "primary_blocks" && s.pages === 20)!
      const longB = together.spans.find((s) => s.dataset === "staking_transactions" && s.pages === 12)!
      expect(longB.start).toBeLessThan(longA.end)
      expect(longB.end).toBeLessThan(longA.end)
      // results in plan order, whatever order the slices ran in
      expect(together.results[0]).toEqual([[20, ...ones(30)], [12, ...ones(30)]])
    })
  )

  it.effect("given a dataset that reads another's output, when crawled from one pool, then its slices start once that one's are over, and a third dataset's run beside both", () =>
    Effect.gen(function* () {
      // the reader listed first, and a pool of 2: its waiting must not hold the places the others need
      const fanOut = dataset("aggregated_signatures", [3, 1], ["staking_transactions"])
      const staking = dataset("staking_transactions", [6, 1, 1])
      const blocks = dataset("primary_blocks", [4, 1])
      const { spans, results } = yield* crawled([[fanOut, staking, blocks]], 50, 2)
      const of = (name: string) => spans.filter((s) => s.dataset === name)
      const stakingOver = Math.max(...of("staking_transactions").map((s) => s.end))
      expect(Math.min(...of("aggregated_signatures").map((s) => s.start))).toBeGreaterThanOrEqual(stakingOver)
      expect(Math.min(...of("primary_blocks").map((s) => s.start))).toBeLessThan(stakingOver)
      expect(results[0]).toEqual([[3, 1], [6, 1, 1], [4, 1]])
    })
  )
})

describe("the order a run's slices start in", () => {
  it("given two datasets' windows and a reader of one of them, when ordered, then the newest windows of both start first and the reader's slices last", () => {
    const w = (to: string) => ({ params: { to } })
    const plan = [
      { dataset: { name: "r", readsOutputOf: ["a"] }, slices: [w("2024-07-15T00:00:00Z")] },
      { dataset: { name: "a" }, slices: [w("2024-07-01T00:00:00Z"), w("2024-07-15T00:00:00Z")] },
      { dataset: { name: "b" }, slices: [w("2024-07-08T00:00:00Z"), { params: {} }] }
    ]
    expect(runOrder(plan)).toEqual([[1, 1], [2, 0], [1, 0], [2, 1], [0, 0]])
  })

  it("given a reader whose source is not in the run, when staged, then it starts beside the others: nothing of this run to wait for", () => {
    expect(stagesOf([{ name: "aggregated_signatures", readsOutputOf: ["staking_transactions"] }, { name: "primary_blocks" }])).toEqual([0, 0])
    expect(stagesOf([{ name: "assets", readsOutputOf: ["avm_utxos", "node_transactions"] }, { name: "node_transactions", readsOutputOf: ["node_x_blocks"] }, { name: "node_x_blocks" }])).toEqual([2, 1, 0])
  })

  it("given datasets that read each other's output, when ordered, then the cycle is named", () => {
    expect(() => runOrder([{ dataset: { name: "a", readsOutputOf: ["b"] }, slices: [] }, { dataset: { name: "b", readsOutputOf: ["a"] }, slices: [] }])).toThrow("a → b → a")
  })
})
