import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { dataset as primaryBlocks } from "../../pipelines/primary_blocks.ts"
import { checkIncremental, parseBackfill } from "../../src/cli/backfillPlan.ts"
import { settingsOf } from "../../src/crawl/Windows.ts"
import { defaultJob, parseJob } from "../../src/Job.ts"

const at = (iso: string) => Date.parse(iso) / 1000

describe("the job's incremental section", () => {
  it("given no section, when primary_blocks' settings are read, then they are the pipeline's: day windows, an hour of lookback, from September 2020", () => {
    expect(settingsOf("primary_blocks", primaryBlocks.windows!, defaultJob)).toEqual({ window: 86_400, lookback: 3_600, since: at("2020-09-01T00:00:00Z") })
  })

  it("given a window, lookback and since, when the settings are read, then the job wins field by field", () => {
    const job = Either.getOrThrow(parseJob({ incremental: { primary_blocks: { window: "6h", since: "2024-01-01" } } }, "job.json"))
    expect(settingsOf("primary_blocks", primaryBlocks.windows!, job)).toEqual({ window: 21_600, lookback: 3_600, since: at("2024-01-01T00:00:00Z") })
  })

  it("given a malformed duration, when the job is parsed, then the error names the field and the spelling expected", () => {
    const bad = parseJob({ incremental: { primary_blocks: { lookback: "1 hour" } } }, "job.json")
    expect(Either.isLeft(bad) && bad.left.message).toContain('incremental.primary_blocks.lookback: a duration: a whole number and s, m, h or d, e.g. "1d" or "6h"')
  })

  it("given a dataset without windows or a zero window, when checked, then the error names it and the fix", () => {
    const unknown = checkIncremental(Either.getOrThrow(parseJob({ incremental: { delegators: { window: "1d" } } }, "job.json")), "job.json")
    expect(Either.isLeft(unknown) && unknown.left.message).toBe(
      "job.json: incremental.delegators: delegators is not a windowed dataset. Fix: use one of staking_transactions, primary_blocks"
    )
    const zero = checkIncremental(Either.getOrThrow(parseJob({ incremental: { primary_blocks: { window: "0d" } } }, "job.json")), "job.json")
    expect(Either.isLeft(zero) && zero.left.message).toContain("incremental.primary_blocks.window")
  })
})

describe("backfill flags", () => {
  it("given dates and a window, when parsed, then the range is half-open Unix seconds and the window seconds", () => {
    expect(parseBackfill(["primary_blocks", "chain_metrics"], "2024-01-01", "2024-02-01T12:00:00Z", undefined)).toEqual(Either.right({ unit: "time", from: at("2024-01-01T00:00:00Z"), to: at("2024-02-01T12:00:00Z") }))
    expect(parseBackfill(["primary_blocks"], "2024-01-01", "2024-01-02", "6h")).toEqual(Either.right({ unit: "time", from: at("2024-01-01T00:00:00Z"), to: at("2024-01-02T00:00:00Z"), window: 21_600 }))
  })

  it("given heights for node blocks, when parsed, then they stay exact decimal strings, leading zeros dropped", () => {
    expect(parseBackfill(["node_p_blocks"], "0012", "18446744073709551615", "1000")).toEqual(Either.right({ unit: "height", from: "12", to: "18446744073709551615", window: "1000" }))
  })

  it("given a height where a date belongs, when parsed, then --from is named with the spelling expected", () => {
    const bad = parseBackfill(["primary_blocks"], "1200000", "2024-01-02", undefined)
    expect(Either.isLeft(bad) && bad.left.message).toBe('--from: got "1200000". Fix: pass a UTC date like 2025-01-01 or an instant like 2025-01-01T06:00:00Z')
  })
})
