import { describe, expect, it } from "vitest"
import { effectiveRoundTripMs, firstRoundTrip, inFlightTarget, nextRoundTrip, sliceTarget } from "../../src/pace/InFlight.ts"

describe("requests in flight", () => {
  it("given 20 requests/s and a 300 ms round trip, when the target is taken, then it is ⌈20 × 0.3 × 1.25⌉ + 1 = 9", () => {
    expect(inFlightTarget(20, firstRoundTrip(300), 64)).toBe(9)
  })

  it("given 50 requests/s and a 1 s round trip, when the cap is 64, then the target is ⌈62.5⌉ + 1 = 64; with a cap of 32 it is 32", () => {
    expect(inFlightTarget(50, firstRoundTrip(1000), 64)).toBe(64)
    expect(inFlightTarget(50, firstRoundTrip(1000), 32)).toBe(32)
  })

  it("given a round trip so short that rate × round trip is below one, when the target is taken, then it is still 2", () => {
    expect(inFlightTarget(10, firstRoundTrip(5), 64)).toBe(2)
  })

  it("given nothing measured yet, or no finite rate, when the target is taken, then it is the cap", () => {
    expect(inFlightTarget(20, undefined, 64)).toBe(64)
    expect(inFlightTarget(Number.POSITIVE_INFINITY, firstRoundTrip(300), 16)).toBe(16)
  })

  it("given answers of 100 ms, when one takes 300 ms, then the running round trip moves a fifth of the way (140 ms), the long-run one a fiftieth (104 ms)", () => {
    const rt = nextRoundTrip(nextRoundTrip(undefined, 100), 300)
    expect(rt).toEqual({ meanMs: 140, longMs: 104, samples: 2 })
  })

  it("given a service answering in 100 ms, when answers suddenly take 1 s, then in flight follows at most twice the long-run round trip (backing off)", () => {
    let rt = firstRoundTrip(100)
    for (let i = 0; i < 20; i++) rt = nextRoundTrip(rt, 1000)
    expect(rt.meanMs).toBeCloseTo(1000 - 900 * 0.8 ** 20, 6)
    // the long run has moved 1 − 0.98^20 of the way: 100 + 900 × 0.332
    expect(rt.longMs).toBeCloseTo(100 + 900 * (1 - 0.98 ** 20), 6)
    expect(effectiveRoundTripMs(rt)).toBeCloseTo(2 * rt.longMs, 6)
    // 20/s × 0.8 s × 1.25 → 20 + 1, where the running 1 s would have given 26
    expect(inFlightTarget(20, rt, 64)).toBe(Math.ceil((20 * 2 * rt.longMs * 1.25) / 1000) + 1)
  })

  it("given a host whose routes answer in 5 ms and in 500 ms by turns, when averaged, then in flight follows their mean, not the cheap route", () => {
    let rt = firstRoundTrip(5)
    for (let i = 0; i < 400; i++) rt = nextRoundTrip(rt, i % 2 === 0 ? 500 : 5)
    expect(effectiveRoundTripMs(rt)).toBeGreaterThan(200)
    expect(inFlightTarget(150, rt, 64)).toBeGreaterThan(40)
  })

  it("given a service that became slower for good, when enough answers come, then the long-run round trip follows it up", () => {
    let rt = firstRoundTrip(100)
    for (let i = 0; i < 400; i++) rt = nextRoundTrip(rt, 400)
    expect(rt.longMs).toBeCloseTo(400, 0)
    expect(effectiveRoundTripMs(rt)).toBeCloseTo(400, 0)
  })
})

describe("slices at once", () => {
  it("given no host measured yet, when the target is taken, then 4 slices start", () => {
    expect(sliceTarget(undefined, 64)).toBe(4)
  })

  it("given a host taking 9 requests in flight, when the target is taken, then 11 slices run, and never more than --concurrency", () => {
    expect(sliceTarget(9, 64)).toBe(11)
    expect(sliceTarget(9, 6)).toBe(6)
  })

  it("given --concurrency 1, when nothing is measured, then one slice runs", () => {
    expect(sliceTarget(undefined, 1)).toBe(1)
  })
})
