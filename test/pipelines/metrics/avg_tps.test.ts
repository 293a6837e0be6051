import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { query, runSpine } from "../../support/spine.ts"
import { CHAINS } from "../../support/metricsRules.ts"
import { columnTypes } from "../../support/catalogReads.ts"
import { metricsJob } from "../../support/emulatorJob/groups.ts"
import { pages } from "../../support/emulatorAnswers.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("avg_tps")

/** Route 19 read by hand as the seed has it: pageToken only, no pageSize. */
const expected = async (emu: RunningEmulator) => {
  const rows: Array<Record<string, unknown>> = []
  for (const chain of CHAINS) {
    for (const body of await pages(`${emu.metricsUrl}/v1/avg_tps/${chain}`, "results")) {
      for (const p of body["results"] as Array<{ timestamp: number; value: number }>) {
        rows.push({ chain_id: chain, ts: p.timestamp, value: p.value, last_run: body["lastRun"] })
      }
    }
  }
  return rows.sort(byKey)
}

const byKey = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  `${a["chain_id"]}|${a["ts"]}`.localeCompare(`${b["chain_id"]}|${b["ts"]}`)

const actual = async (out: string): Promise<Array<Record<string, unknown>>> =>
  (await query(path.join(out, "catalog.duckdb"), "SELECT chain_id, epoch(period_start)::BIGINT AS ts, value, epoch(last_run)::BIGINT AS last_run FROM avg_tps"))
    .map((r) => ({ ...r, ts: Number(r["ts"]), last_run: Number(r["last_run"]) }))
    .sort(byKey)

describe("avg_tps through the spine", () => {
  let emu: RunningEmulator
  let out: string
  let job: Job

  beforeAll(async () => {
    // 120 more days of history: more than route 19's fixed 100 points a page
    emu = await startEmulator({ seed: 40, rateLimit: { metricsPerSecond: 0 } })
    emu.advance(120 * 86_400)
    out = await tempOut()
    job = metricsJob(emu)
    const report = await Effect.runPromise(runSpine(out, emu, { datasets: ["avg_tps"], job }))
    expect(report.status).toBe("succeeded")
    expect(report.slices.map((s) => s.pages)).toEqual([2, 2])
    expect(report.slices.reduce((n, s) => n + s.rejects, 0)).toBe(0)
  }, 60_000)
  afterAll(async () => {
    await emu.close()
  })

  it("given both C-Chains, when the run finishes, then every daily point and lastRun equal the emulator's route 19 pages", async () => {
    const want = await expected(emu)
    expect(want.filter((r) => r["chain_id"] === "43114").length).toBeGreaterThan(100)
    expect(want.every((r) => r["last_run"] === emu.clock.now())).toBe(true)
    expect(await actual(out)).toEqual(want)
  })

  it("given a finished run, when DuckDB describes avg_tps, then columns carry the declared types", async () => {
    expect(await columnTypes(out, "avg_tps")).toEqual({
      period_start: "TIMESTAMP WITH TIME ZONE",
      value: "DOUBLE",
      last_run: "TIMESTAMP WITH TIME ZONE",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      chain_id: "VARCHAR"
    })
  })

  it("given the clock moves a day and 3 hours, when the job runs again, then the series is replaced: the open day's new value once, one new day, no old row left", async () => {
    const before = await actual(out)
    const day = Math.floor(emu.clock.now() / 86_400) * 86_400
    const openBefore = before.find((r) => r["chain_id"] === "43114" && r["ts"] === day)
    expect(openBefore).toBeDefined()

    emu.advance(86_400 + 3 * 3600)
    const report = await Effect.runPromise(runSpine(out, emu, { datasets: ["avg_tps"], job }))
    expect(report.status).toBe("succeeded")
    const rows = await actual(out)
    expect(rows).toEqual(await expected(emu))
    expect(rows.length).toBe(before.length + 2)
    const keys = rows.map((r) => `${r["chain_id"]}|${r["ts"]}`)
    expect(new Set(keys).size).toBe(keys.length)
    // the day that was still open now has its whole-day value
    const openAfter = rows.filter((r) => r["chain_id"] === "43114" && r["ts"] === day)
    expect(openAfter).toHaveLength(1)
    expect(openAfter[0]!["value"]).not.toBe(openBefore!["value"])
    const runIds = await query(path.join(out, "catalog.duckdb"), "SELECT DISTINCT run_id FROM avg_tps")
    expect(runIds).toEqual([{ run_id: report.runId }])
  })
})
