/**
 * Item 2: a flaky upstream. With the emulator's fault knobs at 20% (429 bursts at 5% in CI: see
 * CI_FAULTS) for a whole run, the run completes and equals the clean run (pages with unknown
 * fields included: ignored, and counted in the run report); a fault that outlasts the retry budget fails
 * its slice alone, the CLI says which and exits 1, and the next run resumes that slice from its
 * checkpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { CAMPAIGN_DATASETS, CI_FAULTS, FAULT_CAMPAIGN_SOURCE, campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { runArgs, runCli } from "./cli.ts"
import { compareCatalogs, leftovers, readCheckpoints } from "./compare.ts"
import { DELEGATORS, startBrokenDelegators } from "../support/proxy.ts"
import { runInProcess } from "../support/spine.ts"

const SEED = 1

describe("fault campaign: transient faults on two requests in three for a whole run", () => {
  const faultsDir = tempFolders("faults")
  let clean: RunningEmulator
  let faulty: RunningEmulator
  let job: Partial<Job>
  let cleanOut: string
  let faultyOut: string
  let report: RunReport
  beforeAll(async () => {
    clean = await startEmulator({ seed: SEED })
    faulty = await startEmulator({ seed: SEED, faults: CI_FAULTS })
    job = campaignJob(clean)
    cleanOut = await faultsDir()
    faultyOut = await faultsDir()
    expect((await runInProcess(cleanOut, clean, { datasets: CAMPAIGN_DATASETS, job })).status).toBe("succeeded")
    report = await runInProcess(faultyOut, faulty, { datasets: CAMPAIGN_DATASETS, job, source: FAULT_CAMPAIGN_SOURCE })
  }, 240_000)
  afterAll(async () => {
    await clean?.close()
    await faulty?.close()
  })

  it("given 5xx, resets, truncated bodies and unknown fields at 20%, 429 bursts with Retry-After and latency, when the run ends, then every slice is done, each kind of fault was met and unknown fields were counted", () => {
    expect(report.slices.filter((s) => s.status !== "done").map((s) => `${s.slice}: ${s.error}`)).toEqual([])
    expect(report.status).toBe("succeeded")
    const met = faulty.state().requests.faults
    for (const kind of ["5xx", "429", "reset", "truncate", "extra-fields"]) expect(met[kind] ?? 0).toBeGreaterThan(0)
    // the unknown fields were ignored (the next test compares the rows) and counted
    expect(report.slices.reduce((n, s) => n + (s.unknownFields["unexpectedField"] ?? 0), 0)).toBeGreaterThan(0)
    // more faults than answers: a fault was the rule, not the exception
    expect(Object.values(met).reduce((a, b) => a + b, 0)).toBeGreaterThan(faulty.state().requests.total / 2)
  })

  it("given the faulty run and a clean run of the same seed, when compared in DuckDB, then EXCEPT ALL is empty both ways for every dataset", async () => {
    const diffs = await compareCatalogs(faultyOut, cleanOut)
    for (const name of CAMPAIGN_DATASETS) expect(diffs.find((d) => d.dataset === name)?.rowsB).toBeGreaterThan(0)
    expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    expect(await leftovers(faultyOut)).toEqual({ staging: [], temps: [], locks: [], strayParts: [], deadFiles: [] })
  })
})

describe("a fault that outlasts the retry budget", () => {
  const budgetDir = tempFolders("budget")
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ seed: SEED })
  })
  afterAll(async () => {
    await emu?.close()
  })

  it("given delegators' later pages answer 503 beyond the budget, when the CLI runs, then that slice alone fails, exit 1 names it, and the next run resumes it to the clean result", async () => {
    const proxy = await startBrokenDelegators(emu.baseUrl)
    try {
      const dir = await budgetDir()
      const jobFile = path.join(dir, "job.json")
      const job = campaignJob(emu)
      await fs.writeFile(jobFile, JSON.stringify(job))
      const out = path.join(dir, "out")
      const datasets = ["staking_transactions", "delegators"]
      const env = { CHAINETL_BASE_URL: proxy.url, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_MAX_RETRIES: "2" }
      const args = runArgs({ datasets, job: jobFile, out, partRows: 20 })

      // 1. the first page of delegators commits, the second fails after 2 retries
      const first = await runCli(args, env)
      expect(first.code).toBe(1)
      const failedSlice = /1 slice\(s\) failed: (delegators\/[a-z0-9-]+)\. Details in (\S+\.json); rerun the same command to resume them\./.exec(first.stderr)
      expect(failedSlice, first.stderr).not.toBeNull()
      const runReport = JSON.parse(await fs.readFile(failedSlice![2]!, "utf8")) as RunReport
      expect(runReport.status).toBe("failed")
      const statuses = (dataset: string) => [...new Set(runReport.slices.filter((s) => s.dataset === dataset).map((s) => s.status))]
      expect(statuses("staking_transactions")).toEqual(["done"])
      expect(runReport.slices.filter((s) => s.dataset === "delegators").map((s) => s.status)).toEqual(["failed"])
      const failed = runReport.slices.find((s) => s.dataset === "delegators")!
      expect(failed.error).toMatch(/^HttpStatus on GET data \/v1\/networks\/mainnet\/delegators\?.*pageToken=.* \(HTTP 503\): Service Unavailable: upstream maintenance \(gave up after 2 retries\)$/)
      expect(failed.pages).toBe(1)
      const checkpoint = (await readCheckpoints(out)).find((c) => c.dataset === "delegators")!
      expect(checkpoint).toMatchObject({ status: "failed", pagesCommitted: 1, rowsCommitted: 100 })
      expect(checkpoint.cursor).not.toBeNull()
      const firstRunPages = proxy.hits.filter((h) => h.url.pathname === DELEGATORS).length
      expect(firstRunPages).toBe(1 + 3) // page 1, then page 2 three times (1 + 2 retries)

      // 2. the upstream heals: the next run fetches only the pages after the checkpoint
      proxy.heal()
      const second = await runCli(args, env)
      expect(second.code, second.stderr).toBe(0)
      const resumedPages = proxy.hits.filter((h) => h.url.pathname === DELEGATORS).slice(firstRunPages)
      expect(resumedPages.length).toBe(3)
      expect(resumedPages.every((h) => h.url.searchParams.has("pageToken"))).toBe(true)

      // 3. and the result is the clean one (snapshot_date is the wall clock's day here, the run's as-of)
      const cleanOut = await budgetDir()
      await runInProcess(cleanOut, emu, { datasets, job })
      const diffs = await compareCatalogs(out, cleanOut, ["snapshot_date"])
      expect(diffs.find((d) => d.dataset === "delegators")?.rowsA).toBe(330)
      expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0)).toEqual([])
    } finally {
      await proxy.close()
    }
  }, 120_000)
})
