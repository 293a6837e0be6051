/**
 * `chainetl backfill` as a user runs it (a child process, exit codes, the run report on disk),
 * against the emulator behind a proxy that can take one window's requests down.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { forward, type Proxy, startProxy } from "../support/proxy.ts"
import { tempFolders } from "../support/fixtures.ts"
import { fetchAll, query } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("backfill")

const at = (iso: string) => Date.parse(iso) / 1000
const FROM = "2024-06-01"
const TO = "2024-06-08"
/** The nightly crawl's start: the world's own history (the P-chain's archive era lies before it). */
const SINCE = "2023-11-28"
const FAILING = "2024-06-03T00:00:00Z"

type Outcome = CliExit

// the steps of one story, in order (each run follows the one before): the files are shuffled, these tests are not
describe("chainetl backfill with one failing window", { shuffle: false }, () => {
  let emu: RunningEmulator
  let proxy: Proxy
  /** The window whose requests answer 503, while set. */
  let down: ((url: URL) => boolean) | undefined
  let out: string
  let jobFile: string
  let first: Outcome
  let firstReport: RunReport
  let second: Outcome
  let statusAfterFirst: Outcome
  let secondReport: RunReport
  let secondRequests: number

  const cli = (args: ReadonlyArray<string>) =>
    runCli(args, { CHAINETL_BASE_URL: proxy.url, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_MAX_RETRIES: "0", CHAINETL_RATE_LIMIT: "200" })
  const report = async (o: Outcome): Promise<RunReport> => {
    const runs = (await fs.readdir(path.join(out, "_runs"))).sort()
    const events = o.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; runId?: string })
    const runId = events.find((e) => e.type === "run_started")?.runId
    expect(runs).toContain(`${runId}.json`)
    return JSON.parse(await fs.readFile(path.join(out, "_runs", `${runId}.json`), "utf8")) as RunReport
  }
  const backfill = ["backfill", "primary_blocks", "--from", FROM, "--to", TO, "--window", "1d", "--concurrency", "3", "--json"]

  beforeAll(async () => {
    emu = await startEmulator()
    proxy = await startProxy(emu.baseUrl, (req) =>
      down?.(req.url) === true ? { kind: "answer", status: 503, body: JSON.stringify({ message: "injected outage" }) } : forward
    )
    out = await tempOut()
    jobFile = path.join(await tempOut(), "job.json")
    await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["p-chain"], incremental: { primary_blocks: { window: "90d", since: SINCE } } }))
    // given the window of June 3rd down
    down = (url) => url.pathname.endsWith("/blocks") && url.searchParams.get("startTimestamp") === String(at(FAILING) - 1)
    first = await cli([...backfill, "--job", jobFile, "--out", out])
    firstReport = await report(first)
    statusAfterFirst = await cli(["status", "--out", out, "--live", "--json"])
    // when the outage is over and the same command runs again
    down = undefined
    const before = emu.state().requests.total
    second = await cli([...backfill, "--job", jobFile, "--out", out])
    secondRequests = emu.state().requests.total - before
    secondReport = await report(second)
  }, 180_000)

  afterAll(async () => {
    await proxy?.close()
    await emu?.close()
  })

  it("given one window down, when the backfill runs, then it exits 1 naming that window, and the six others are done", () => {
    expect(first.code).toBe(1)
    expect(first.stderr).toContain("1 slice(s) failed: primary_blocks/")
    expect(first.stderr).toContain("2024-06-03")
    expect(firstReport.mode).toBe("backfill")
    expect(firstReport.status).toBe("failed")
    expect(firstReport.planned).toBe(7)
    const failed = firstReport.slices.filter((s) => s.status === "failed")
    expect(failed.map((s) => s.params["from"])).toEqual([FAILING])
    expect(failed[0]?.error).toContain("503")
    expect(firstReport.slices.filter((s) => s.status === "done")).toHaveLength(6)
    expect(firstReport.slices.every((s) => s.requests >= 1 && s.durationMs >= 0)).toBe(true)
  })

  it("given --json, when the backfill runs, then stdout is one event per line: run start, a start and a finish per window, run end", () => {
    const events = first.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string })
    expect(events[0]?.type).toBe("run_started")
    expect(events[events.length - 1]).toMatchObject({ type: "run_finished", status: "failed" })
    expect(events.filter((e) => e.type === "slice_started")).toHaveLength(7)
    expect(events.filter((e) => e.type === "slice_finished")).toHaveLength(7)
  })

  it("given the failed window, when status is asked with --live, then it shows the history complete up to that window, it pending, the lag to the service's newest block, and the failure", async () => {
    expect(statusAfterFirst.code).toBe(0)
    const status = JSON.parse(statusAfterFirst.stdout) as {
      listings: Array<{ dataset: string; listing: Record<string, string>; windows: number; done: number; since: number; watermark: number; pending: Array<{ from: number; status: string; error: string }>; latest: number; lagSeconds: number }>
      failures: Array<{ dataset: string; error: string }>
      runs: Array<{ mode: string; status: string; failed: number; requests: number }>
    }
    const [blocks] = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/blocks`, "blocks", { pageSize: "1" }).then((all) => all.slice(0, 1))
    expect(status.listings).toEqual([
      {
        dataset: "primary_blocks",
        listing: { network: "mainnet", blockchain: "p-chain" },
        windows: 7,
        done: 6,
        since: at(FROM),
        watermark: at(FAILING),
        holes: 0,
        pending: [{ from: at(FAILING), to: at(FAILING) + 86_400, status: "failed", holes: 0, error: expect.stringContaining("HTTP 503") }],
        lastRun: firstReport.runId,
        latest: blocks!["blockTimestamp"],
        lagSeconds: (blocks!["blockTimestamp"] as number) - at(FAILING)
      }
    ])
    expect(status.failures).toHaveLength(1)
    expect(status.runs[0]).toMatchObject({ mode: "backfill", status: "failed", failed: 1, requests: firstReport.slices.reduce((n, s) => n + s.requests, 0) })
  })

  it("given the outage over, when the same backfill runs again, then only the failed window is crawled and the run exits 0", () => {
    expect(second.code).toBe(0)
    expect(secondReport.status).toBe("succeeded")
    expect(secondReport.planned).toBe(1)
    expect(secondReport.slices.map((s) => [s.params["from"], s.status])).toEqual([[FAILING, "done"]])
    expect(secondRequests).toBe(secondReport.slices[0]?.requests)
  })

  it("given the completed backfill, when the output is read, then the range holds every block the service has in it, once", async () => {
    const truth = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/blocks`, "blocks", {
      startTimestamp: String(at(FROM)),
      endTimestamp: String(at(TO) - 1)
    })
    const rows = await query(path.join(out, "catalog.duckdb"), "SELECT block_hash FROM primary_blocks")
    expect(rows.map((r) => r["block_hash"]).sort()).toEqual(truth.map((b) => b["blockHash"]).sort())
    expect(truth.length).toBeGreaterThan(0)
  })

  it("given the completed backfill, when it is planned again with --dry-run, then no window is left to crawl", async () => {
    const plan = await cli([...backfill.filter((a) => a !== "--json"), "--dry-run", "--job", jobFile, "--out", out])
    expect(plan.code).toBe(0)
    expect(plan.stdout).toMatch(/^primary_blocks\s+0\s+0\s+0\s+0$/m)
  }, 60_000)

  it("given backfilled days, when the nightly run follows, then it fills the history around them and no block is written twice", async () => {
    const night = await cli(["run", "primary_blocks", "--job", jobFile, "--out", out, "--quiet"])
    expect(night).toMatchObject({ code: 0, stdout: "" })
    const truth = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/blocks`, "blocks", { startTimestamp: String(at(SINCE)) })
    expect(truth.length).toBeGreaterThan(1000)
    const [row] = await query(path.join(out, "catalog.duckdb"), "SELECT count(*)::INTEGER AS n, count(DISTINCT block_hash)::INTEGER AS d FROM primary_blocks")
    expect(row).toEqual({ n: truth.length, d: truth.length })
  }, 60_000)

  it("given bad flags, when backfill is called, then it exits 2 naming the flag and the fix", async () => {
    const reversed = await cli(["backfill", "primary_blocks", "--from", TO, "--to", FROM, "--out", out])
    expect(reversed.code).toBe(2)
    expect(reversed.stderr).toContain("--to: 2024-06-01 is not after --from 2024-06-08")
    const notWindowed = await cli(["backfill", "delegators", "--from", FROM, "--to", TO, "--out", out])
    expect(notWindowed.code).toBe(2)
    expect(notWindowed.stderr).toContain("delegators cannot be backfilled by range")
    const badWindow = await cli(["backfill", "chain_metrics", "--from", FROM, "--to", TO, "--window", "1d", "--out", out])
    expect(badWindow.code).toBe(2)
    expect(badWindow.stderr).toContain("--window: chain_metrics has windows of its own")
  }, 60_000)
})

// the steps of one story, in order (each run follows the one before): the files are shuffled, these tests are not
describe("chainetl backfill by block height (node_x_blocks)", { shuffle: false }, () => {
  let emu: RunningEmulator
  let out: string
  let jobFile: string
  const cli = (args: ReadonlyArray<string>) => runCli(args, { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_RATE_LIMIT: "200" })
  const heights = async () => (await query(path.join(out, "catalog.duckdb"), "SELECT height::INTEGER AS h FROM node_x_blocks ORDER BY h")).map((r) => r["h"])
  const lastReport = async (): Promise<RunReport> => {
    const runs = (await fs.readdir(path.join(out, "_runs"))).sort()
    return JSON.parse(await fs.readFile(path.join(out, "_runs", runs[runs.length - 1]!), "utf8")) as RunReport
  }

  beforeAll(async () => {
    emu = await startEmulator()
    out = await tempOut()
    jobFile = path.join(await tempOut(), "job.json")
    await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"] }))
  })
  afterAll(async () => {
    await emu?.close()
  })

  it("given heights 30 to 120 in cells of 50, when backfilled, then cells [30,50) [50,100) [100,120) each hold their blocks once", async () => {
    const run = await cli(["backfill", "node_x_blocks", "--from", "30", "--to", "120", "--window", "50", "--job", jobFile, "--out", out, "--quiet"])
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" })
    const report = await lastReport()
    expect(report.backfill).toEqual({ unit: "height", from: "30", to: "120", window: "50" })
    expect(report.slices.map((s) => [s.params["from"], s.params["to"], s.rows])).toEqual([
      ["30", "50", 20],
      ["50", "100", 50],
      ["100", "120", 20]
    ])
    expect(await heights()).toEqual(Array.from({ length: 90 }, (_, i) => 30 + i))
  }, 60_000)

  it("given the backfill done, when it runs again, then no cell is planned and it says there is nothing to do", async () => {
    const run = await cli(["backfill", "node_x_blocks", "--from", "30", "--to", "120", "--window", "50", "--job", jobFile, "--out", out])
    expect(run.code).toBe(0)
    expect((await lastReport()).planned).toBe(0)
    expect(run.stdout).toContain("backfill: nothing to do: heights [30, 120) is already complete on disk for node_x_blocks")
    expect(run.stdout).not.toContain("requests:")
  }, 60_000)

  it("given backfilled heights, when the nightly walk runs, then it fetches the rest from genesis to the tip and no block twice", async () => {
    const before = emu.state().requests.total
    const night = await cli(["run", "node_x_blocks", "--job", jobFile, "--out", out, "--quiet"])
    expect(night.code).toBe(0)
    const tip = emu.world.primary.network("mainnet").height("X")
    expect(await heights()).toEqual(Array.from({ length: Number(tip) + 1 }, (_, i) => i))
    // one block call per height not backfilled, plus the node's tip and network checks
    const blockCalls = Number(tip) + 1 - 90
    expect(emu.state().requests.total - before).toBeGreaterThanOrEqual(blockCalls)
    expect(emu.state().requests.total - before).toBeLessThan(blockCalls + 10)
  }, 60_000)

  it("given dates for a height dataset or a mix of units, when backfill is called, then it exits 2 naming the flag and the fix", async () => {
    const dates = await cli(["backfill", "node_x_blocks", "--from", "2024-01-01", "--to", "2024-02-01", "--out", out])
    expect(dates.code).toBe(2)
    expect(dates.stderr).toContain('--from: got "2024-01-01"; these datasets are ordered by block height. Fix: pass a block height like 1200000')
    const mixed = await cli(["backfill", "node_x_blocks", "primary_blocks", "--from", "1", "--to", "2", "--out", out])
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain("node_x_blocks take block heights, the others dates")
  }, 60_000)
})
