import { describe, expect, it } from "vitest"
import { dataset, monthWindow, monthsOf } from "../../../pipelines/chain_metrics.ts"
import { defaultJob } from "../../../src/Job.ts"

const at = (iso: string): number => Date.parse(iso) / 1000

describe("chain_metrics slicing", () => {
  it("given weeks, when a month's window is computed, then it starts at the month's first Monday and a week starting on the 31st stays in its month", () => {
    // 2025-03-01 is a Saturday: the week of Monday 24 February belongs to February
    const march = monthWindow("2025-03", "week")
    expect(march).toEqual({ from: at("2025-03-03T00:00:00Z"), until: at("2025-04-01T00:00:00Z") })
    // Monday 31 March starts a week that runs into April: March owns it, April's window starts after it
    expect(at("2025-03-31T00:00:00Z")).toBeLessThan(march.until)
    expect(monthWindow("2025-04", "week").from).toBe(at("2025-04-07T00:00:00Z"))
    expect(monthWindow("2024-12", "hour")).toEqual({ from: at("2024-12-01T00:00:00Z"), until: at("2025-01-01T00:00:00Z") })
  })

  it("given a job window, when months are listed, then they run from the start's month to the end's, never past the run's month", () => {
    expect(monthsOf({ startTimestamp: at("2024-11-20T00:00:00Z"), endTimestamp: at("2025-02-01T00:00:00Z") }, "2026-01-01")).toEqual(["2024-11", "2024-12", "2025-01", "2025-02"])
    expect(monthsOf({ startTimestamp: at("2025-12-20T00:00:00Z") }, "2026-01-15")).toEqual(["2025-12", "2026-01"])
    const all = monthsOf({}, "2021-01-31")
    expect([all[0], all[all.length - 1], all.length]).toEqual(["2020-09", "2021-01", 5])
  })

  it("given a job naming two chains and three metrics, when slices are made, then day-only metrics get one interval, others four, each per month, with no duplicate", () => {
    const job = { ...defaultJob, evmChains: ["43114", "43114", "43113"], metrics: { metrics: ["txCount", "avgTps", "feesPaid"], startTimestamp: at("2025-01-20T00:00:00Z"), endTimestamp: at("2025-02-03T00:00:00Z") } }
    const slices = dataset.slices(job, { asOf: at("2025-02-03T00:00:00Z"), runDate: "2025-02-03" })
    const intervals = (metric: string) => [...new Set(slices.filter((s) => s.params["metric"] === metric).map((s) => s.params["time_interval"]))].sort()
    expect(intervals("txCount")).toEqual(["day", "hour", "month", "week"])
    expect(intervals("avgTps")).toEqual(["day"])
    expect(intervals("feesPaid")).toEqual(["day"])
    expect(slices).toHaveLength(2 * (4 + 1 + 1) * 2)
    expect(new Set(slices.map((s) => s.id)).size).toBe(slices.length)
  })

  it("given month slices, when their finality is set, then a month settles six hours after its last bucket ends (weeks run into the next month)", () => {
    const job = { ...defaultJob, evmChains: ["43114"], metrics: { metrics: ["txCount"], startTimestamp: at("2025-01-20T00:00:00Z"), endTimestamp: at("2025-01-21T00:00:00Z") } }
    const finalAfter = Object.fromEntries(dataset.slices(job, { asOf: at("2025-02-03T00:00:00Z"), runDate: "2025-02-03" }).map((s) => [s.params["time_interval"], s.finalAfter]))
    expect(finalAfter).toEqual({
      hour: at("2025-02-01T06:00:00Z"),
      day: at("2025-02-01T06:00:00Z"),
      week: at("2025-02-07T06:00:00Z"),
      month: at("2025-02-01T06:00:00Z")
    })
  })
})
