import { execFile } from "node:child_process"
import { promises as fs } from "node:fs"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { tempFolders } from "../support/fixtures.ts"
import { filesUnder } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("dryRun")

const run = promisify(execFile)
const BIN = fileURLToPath(new URL("../../bin/chainetl.mjs", import.meta.url))
const JOB = fileURLToPath(new URL("../../pipelines/jobs/emulator.json", import.meta.url))

describe("chainetl run --dry-run", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given services that answer, when a dry run --offline plans the default job, then it prints every dataset's slices and sends no request and writes nothing", async () => {
    const out = await tempOut()
    const before = JSON.stringify(emu.state().requests)
    const { stdout } = await run(process.execPath, [BIN, "run", "--dry-run", "--offline", "--job", JOB, "--out", out], {
      env: { ...process.env, CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
    })
    // windowed datasets: the job's 90-day cells from its `since` to the wall clock (the run's as-of
    // without --emulator), per network (staking) and per network and chain (blocks)
    const job = JSON.parse(await fs.readFile(JOB, "utf8")) as { incremental: { staking_transactions: { since: string } } }
    const grid = 90 * 86_400
    const since = Date.parse(job.incremental.staking_transactions.since) / 1000
    const cells = Math.floor(Math.floor(Date.now() / 1000) / grid) - Math.floor(since / grid) + 1
    // dataset, slices, to crawl, final, requests (at least): nothing on disk, so nothing final
    expect(stdout).toMatch(new RegExp(`^staking_transactions\\s+${2 * cells}\\s+${2 * cells}\\s+0\\s+${2 * cells}$`, "m"))
    expect(stdout).toMatch(new RegExp(`^primary_blocks\\s+${6 * cells}\\s+${6 * cells}\\s+0\\s+${6 * cells}$`, "m"))
    expect(stdout).toContain("nothing was fetched or written")
    expect(stdout).toContain("round trip not measured (--offline)")
    expect(stdout).toMatch(/CPU of the crawl: likely [\d.]+ s \(\d+ requests, \d+ slices\); at the \d+ % of a core this process gets now/)
    expect(JSON.stringify(emu.state().requests)).toBe(before)
    expect(await filesUnder(out)).toEqual([])
  }, 120_000)

  it("given services that answer, when a dry run is --quiet, then it prints nothing, sends no request and writes nothing", async () => {
    const out = await tempOut()
    const before = JSON.stringify(emu.state().requests)
    const { stdout } = await run(process.execPath, [BIN, "run", "--dry-run", "--quiet", "--job", JOB, "--out", out], {
      env: { ...process.env, CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }
    })
    expect(stdout).toBe("")
    expect(JSON.stringify(emu.state().requests)).toBe(before)
    expect(await filesUnder(out)).toEqual([])
  })

  it("given services that answer, when a dry run plans two windowed datasets, then it asks windows of each listing for their first page, estimates the pace and writes nothing", async () => {
    const out = await tempOut()
    const { stdout } = await run(process.execPath, [BIN, "run", "staking_transactions", "primary_blocks", "--dry-run", "--json", "--job", JOB, "--out", out], {
      env: { ...process.env, CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_RATE_LIMIT: "20" }
    })
    const dry = JSON.parse(stdout) as {
      atLeastRequests: number
      probes: number[]
      probeFailures: string[]
      estimate: { rate: number; roundTripMs: number; requests: { low: number; likely: number; high: number }; wallMs: { low: number; likely: number; high: number }; cpuMs: number; coreShare: number }
    }
    // at least one window of each listing (per network for staking, per network and chain for
    // blocks: 2 + 6), at most 32 per dataset
    expect(dry.probes.length).toBeGreaterThanOrEqual(8)
    expect(dry.probes.length).toBeLessThanOrEqual(64)
    expect(dry.probeFailures).toEqual([])
    expect(dry.estimate.rate).toBe(20)
    expect(dry.estimate.roundTripMs).toBe(Math.min(...dry.probes))
    // a probed window with a next page counts two pages at least
    expect(dry.estimate.requests.low).toBeGreaterThanOrEqual(dry.atLeastRequests)
    expect(dry.estimate.requests.low).toBeLessThanOrEqual(dry.estimate.requests.likely)
    expect(dry.estimate.requests.likely).toBeLessThanOrEqual(dry.estimate.requests.high)
    expect(dry.estimate.wallMs.likely).toBeGreaterThanOrEqual((dry.estimate.requests.likely / 20) * 1000 - 1e-6)
    // the crawl's CPU over the share of a core the dry run measured is a bound too
    expect(dry.estimate.coreShare).toBeGreaterThan(0)
    expect(dry.estimate.coreShare).toBeLessThanOrEqual(1)
    expect(dry.estimate.cpuMs).toBeGreaterThan(0)
    expect(dry.estimate.wallMs.likely).toBeGreaterThanOrEqual(dry.estimate.cpuMs / dry.estimate.coreShare - 1e-6)
    expect(await filesUnder(out)).toEqual([])
  }, 120_000)
})
