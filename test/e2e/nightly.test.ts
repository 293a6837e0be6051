/**
 * Two nights against an emulator whose clock moves a day between them: night 1 crawls the job's
 * history, night 2 asks only for what is new (counted in requests), replaces the metric point
 * that changed, and duplicates nothing. Every request of a night is booked to one of its slices.
 */
import { Effect } from "effect"

import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../src/Job.ts"
import type { RunReport } from "../../src/Runner.ts"
import { runCli } from "../reliability/cli.ts"
import { emulatorJob } from "../support/emulatorJob/index.ts"
import { tempFolders } from "../support/fixtures.ts"
import { fetchAll, query, runSpine } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("nightly")

const DAY = 86_400
const HOUR = 3_600
const DATASETS = ["primary_blocks", "staking_transactions", "evm_blocks", "chain_metrics"]

// the steps of one story, in order: two nights in beforeAll, then readings of them, a rerun and an
// hour later (the last two change the output and the clock the readings see): the files are
// shuffled, these tests are not
describe("nightly runs: night 1 full, night 2 only what is new", { shuffle: false }, () => {
  let emu: RunningEmulator
  let out: string
  let job: Job
  let night1: RunReport
  let night2: RunReport
  let requests1: number
  let requests2: number
  let asOf1: number
  let metricsBefore: Array<Record<string, unknown>>

  const total = () => emu.state().requests.total
  const catalog = () => path.join(out, "catalog.duckdb")
  const ofDataset = (report: RunReport, name: string) => report.slices.filter((s) => s.dataset === name)
  const sum = (slices: ReadonlyArray<{ requests: number }>) => slices.reduce((n, s) => n + s.requests, 0)

  beforeAll(async () => {
    emu = await startEmulator()
    out = await tempOut()
    const full = emulatorJob(emu)
    job = {
      ...full,
      networks: ["mainnet"],
      primaryBlockchains: ["p-chain", "x-chain"],
      evmChains: ["43114"],
      metrics: { metrics: ["txCount"], startTimestamp: emu.clock.now() - 10 * DAY }
    }
    asOf1 = emu.clock.now()
    night1 = await Effect.runPromise(runSpine(out, emu, { datasets: DATASETS, job }))
    requests1 = total()
    metricsBefore = await query(catalog(), "SELECT time_interval, epoch(period_start)::BIGINT AS ts, value FROM chain_metrics WHERE time_interval = 'day' ORDER BY ts")
    emu.advance(DAY)
    night2 = await Effect.runPromise(runSpine(out, emu, { datasets: DATASETS, job }))
    requests2 = total() - requests1
  }, 240_000)

  afterAll(async () => {
    await emu?.close()
  })

  it("given two nights, when both finish, then both succeeded and every request was booked to a slice", () => {
    expect(night1.status).toBe("succeeded")
    expect(night2.status).toBe("succeeded")
    expect(sum(night1.slices)).toBe(requests1)
    expect(sum(night2.slices)).toBe(requests2)
    expect(night2.mode).toBe("run")
    expect(Object.values(night2.hosts).reduce((n, h) => n + h.requests, 0)).toBe(requests2)
  })

  it("given night 1 on disk, when night 2 plans primary_blocks, then only the head window of each chain is crawled, from night 1 minus the lookback", async () => {
    const windows = ofDataset(night2, "primary_blocks")
    expect(windows.map((s) => s.params["blockchain"]).sort()).toEqual(["p-chain", "x-chain"])
    for (const w of windows) {
      // the emulator's truth for the request's own bounds: one second wider than [fetchFrom, to)
      const fetchFrom = asOf1 - HOUR
      const to = Date.parse(String(w.params["to"])) / 1000
      const asked = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${w.params["blockchain"]}/blocks`, "blocks", {
        startTimestamp: String(fetchFrom - 1),
        endTimestamp: String(to)
      })
      expect(w.requests).toBe(Math.max(1, Math.ceil(asked.length / 100)))
      // rows new to the output: blocks of the day between the nights
      const fresh = asked.filter((b) => (b["blockTimestamp"] as number) > asOf1 && (b["blockTimestamp"] as number) <= asOf1 + DAY)
      expect(w.rows).toBe(fresh.length)
    }
  })

  it("given night 2, when the output is read, then primary_blocks hold every block the service lists, each once", async () => {
    for (const chain of ["p-chain", "x-chain"]) {
      const truth = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${chain}/blocks`, "blocks")
      const [row] = await query(catalog(), `SELECT count(*)::INTEGER AS n, count(DISTINCT block_hash)::INTEGER AS d FROM primary_blocks WHERE blockchain = '${chain}'`)
      expect(row).toEqual({ n: truth.length, d: truth.length })
    }
  })

  it("given night 2, when evm_blocks lists latest first, then it stops at night 1's blocks: pages hold only the new day's blocks", async () => {
    const [slice] = ofDataset(night2, "evm_blocks")
    const [{ n } = { n: 0 }] = await query(catalog(), "SELECT count(*)::INTEGER AS n FROM evm_blocks WHERE run_id = '" + night2.runId + "'")
    expect(slice?.rows).toBe(n)
    expect(slice?.requests).toBe(Math.ceil((n as number) / 100) + ((n as number) % 100 === 0 ? 1 : 0))
    expect(sum(ofDataset(night2, "evm_blocks"))).toBeLessThan(sum(ofDataset(night1, "evm_blocks")))
  })

  it("given the day that was open at night 1, when night 2 refetches it, then its point is replaced by the newer value, not duplicated", async () => {
    const after = await query(catalog(), "SELECT time_interval, epoch(period_start)::BIGINT AS ts, value FROM chain_metrics WHERE time_interval = 'day' ORDER BY ts")
    const openDay = Math.floor(asOf1 / DAY) * DAY
    const was = metricsBefore.filter((r) => Number(r["ts"]) === openDay)
    const is = after.filter((r) => Number(r["ts"]) === openDay)
    expect(was).toHaveLength(1)
    expect(is).toHaveLength(1)
    expect(is[0]!["value"]).toBeGreaterThan(was[0]!["value"] as number)
    const truth = await fetchAll(`${emu.metricsUrl}/v2/chains/43114/metrics/txCount`, "results", { timeInterval: "day", startTimestamp: String(openDay), endTimestamp: String(openDay) })
    expect(is[0]!["value"]).toBe(truth[0]!["value"])
    const keys = after.map((r) => String(r["ts"]))
    expect(new Set(keys).size).toBe(keys.length)
  })

  it("given night 2 again at the same instant, when it reruns, then appending datasets add nothing and the open metric months are replaced in place", async () => {
    const before = await query(catalog(), "SELECT (SELECT count(*) FROM primary_blocks)::INTEGER AS b, (SELECT count(*) FROM staking_transactions)::INTEGER AS s, (SELECT count(*) FROM chain_metrics)::INTEGER AS m, (SELECT count(*) FROM evm_blocks)::INTEGER AS e")
    const again = await Effect.runPromise(runSpine(out, emu, { datasets: DATASETS, job }))
    expect(again.status).toBe("succeeded")
    expect(again.slices.filter((s) => s.dataset !== "chain_metrics").reduce((n, s) => n + s.rows, 0)).toBe(0)
    expect(await query(catalog(), "SELECT (SELECT count(*) FROM primary_blocks)::INTEGER AS b, (SELECT count(*) FROM staking_transactions)::INTEGER AS s, (SELECT count(*) FROM chain_metrics)::INTEGER AS m, (SELECT count(*) FROM evm_blocks)::INTEGER AS e")).toEqual(before)
  }, 120_000)

  it("given an hour after night 2, when status --live is asked, then each listing shows how far it got and how far the service has moved on", async () => {
    emu.advance(HOUR)
    const asOf2 = emu.clock.now() - HOUR
    const status = await runCli(["status", "--out", out, "--live", "--json"], { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl })
    expect(status.code).toBe(0)
    const parsed = JSON.parse(status.stdout) as {
      listings: Array<{ dataset: string; listing: Record<string, string>; watermark: number; latest: number; lagSeconds: number; pending: unknown[] }>
      heights: Array<{ dataset: string; listing: Record<string, string>; height: string; completeThrough: string | null; holes: number | null; holeKeys: string[]; latest: string; lagBlocks: string }>
    }
    const [newestP] = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/blocks`, "blocks", { pageSize: "1" }).then((b) => b.slice(0, 1))
    const pBlocks = parsed.listings.find((l) => l.dataset === "primary_blocks" && l.listing["blockchain"] === "p-chain")
    expect(pBlocks).toMatchObject({ watermark: asOf2, latest: newestP!["blockTimestamp"], lagSeconds: (newestP!["blockTimestamp"] as number) - asOf2, pending: [] })
    const [committed] = await query(catalog(), "SELECT max(block_number)::VARCHAR AS h FROM evm_blocks")
    const tip = String((await (await fetch(`${emu.baseUrl}/v1/chains/43114/blocks?pageSize=1`)).json() as { blocks: Array<{ blockNumber: string }> }).blocks[0]!.blockNumber)
    expect(parsed.heights.filter((h) => h.dataset === "evm_blocks")).toEqual([
      // every block from the lowest is written, no record was rejected
      { dataset: "evm_blocks", listing: { chain_id: "43114" }, height: committed!["h"], completeThrough: committed!["h"], holes: 0, holeKeys: [], latest: tip, lagBlocks: String(BigInt(tip) - BigInt(String(committed!["h"]))) }
    ])
    expect(BigInt(tip)).toBeGreaterThan(BigInt(String(committed!["h"])))
  }, 60_000)
})
