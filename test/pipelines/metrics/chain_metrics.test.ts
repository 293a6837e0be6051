import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import * as path from "node:path"
import { chainMetricsDataset, settledAfter } from "../../../pipelines/chain_metrics.ts"
import { CheckpointStore } from "../../../src/crawl/Checkpoint.ts"
import { CommittedKeys } from "../../../src/crawl/CommittedKeys.ts"
import { crawlSlice } from "../../../src/crawl/Crawler.ts"
import { makeSlice } from "../../../src/crawl/Slice.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { Job } from "../../../src/Job.ts"
import type { RunReport } from "../../../src/Runner.ts"
import { buildCatalog } from "../../../src/sink/Catalog.ts"
import { ParquetSink } from "../../../src/sink/ParquetSink.ts"
import { sourceLayerWith } from "../../../src/source/SourceLayer.ts"
import { tempFolders } from "../../support/fixtures.ts"
import { emulatorRetry, filesUnder, query, runSpine } from "../../support/spine.ts"
import { CHAINS, DAY_ONLY, allowedSeries, monthOf, windowOf } from "../../support/metricsRules.ts"
import { columnTypes } from "../../support/catalogReads.ts"
import { metricsJob } from "../../support/emulatorJob/groups.ts"
import { series } from "../../support/emulatorAnswers.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("chain_metrics")

// seed 40: the network's now is 2025-02-10 00:00 UTC, history from mid-January, so the job's
// two-week window spans a closed month (January) and the open one (February)
const SEED = 40

/** The emulator's points of every allowed series in the window's months, as rows. */
const expectedRows = async (emu: RunningEmulator, job: Job) => {
  const { start, end } = windowOf(job)
  const months = new Set([monthOf(start), monthOf(end)])
  const rows: Array<Record<string, unknown>> = []
  for (const chain of CHAINS) {
    for (const { metric, interval } of allowedSeries()) {
      for (const p of await series(emu, chain, metric, interval)) {
        if (months.has(monthOf(p.ts))) rows.push({ chain_id: chain, metric, time_interval: interval, month: monthOf(p.ts), ts: p.ts, value: p.value })
      }
    }
  }
  return rows.sort(byKey)
}

const byKey = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  `${a["chain_id"]}|${a["metric"]}|${a["time_interval"]}|${String(a["ts"]).padStart(12, "0")}`.localeCompare(
    `${b["chain_id"]}|${b["metric"]}|${b["time_interval"]}|${String(b["ts"]).padStart(12, "0")}`
  )

const actualRows = async (catalog: string): Promise<Array<Record<string, unknown>>> =>
  (
    await query(
      catalog,
      `SELECT chain_id, metric, time_interval, month, epoch(period_start)::BIGINT AS ts, value FROM chain_metrics`
    )
  )
    .map((r) => ({ ...r, ts: Number(r["ts"]) }))
    .sort(byKey)

describe("chain_metrics through the spine", () => {
  let emu: RunningEmulator
  let out: string
  let job: Job
  let first: RunReport
  let firstRows: Array<Record<string, unknown>>
  /** The emulator's points when the first run ended, before any test moves its clock. */
  let firstExpected: Array<Record<string, unknown>>

  beforeAll(async () => {
    emu = await startEmulator({ seed: SEED, rateLimit: { metricsPerSecond: 0 } })
    out = await tempOut()
    job = metricsJob(emu)
    first = await Effect.runPromise(runSpine(out, emu, { datasets: ["chain_metrics"], job }))
    firstRows = await actualRows(path.join(out, "catalog.duckdb"))
    firstExpected = await expectedRows(emu, job)
  }, 120_000)
  afterAll(async () => {
    await emu.close()
  })

  it("given the job's two-week window, when the run finishes, then every point of the window's months equals the emulator's, values and timestamps", async () => {
    expect(first.status).toBe("succeeded")
    expect(first.slices.reduce((n, s) => n + s.rejects, 0)).toBe(0)
    const expected = firstExpected
    // both chains, 29 series each, January and February
    expect(new Set(expected.map((r) => `${r["chain_id"]}/${r["metric"]}/${r["time_interval"]}`)).size).toBe(58)
    expect(new Set(expected.map((r) => r["month"]))).toEqual(new Set(["2025-01", "2025-02"]))
    expect(firstRows).toEqual(expected)
  })

  it("given rule 2, when the slices ran, then day-only metrics were asked by day only and the service never answered 400", () => {
    const asked = first.slices.map((s) => `${s.params["metric"]}/${s.params["time_interval"]}`)
    for (const metric of DAY_ONLY) {
      expect(asked.filter((a) => a.startsWith(`${metric}/`)).every((a) => a === `${metric}/day`)).toBe(true)
      expect(asked).toContain(`${metric}/day`)
    }
    expect(new Set(asked)).toEqual(new Set(allowedSeries().map((s) => `${s.metric}/${s.interval}`)))
    // one request per page: nothing was asked outside the slices
    const state = emu.state().requests
    expect(state.byStatus["400"]).toBeUndefined()
    expect(state.byHost.metrics).toBeGreaterThanOrEqual(first.slices.reduce((n, s) => n + s.pages, 0))
    expect(first.slices).toHaveLength(2 * 29 * 2)
    expect(first.slices.every((s) => s.pages === 1)).toBe(true)
  })

  it("given a finished run, when DuckDB describes chain_metrics, then columns carry the declared types", async () => {
    expect(await columnTypes(out, "chain_metrics")).toEqual({
      period_start: "TIMESTAMP WITH TIME ZONE",
      value: "DOUBLE",
      run_id: "VARCHAR",
      ingested_at: "TIMESTAMP WITH TIME ZONE",
      chain_id: "VARCHAR",
      metric: "VARCHAR",
      time_interval: "VARCHAR",
      month: "VARCHAR"
    })
  })

  it("given a finished run, when output is listed, then each slice is one part under chain_id/metric/time_interval/month", async () => {
    const parts = await filesUnder(path.join(out, "chain_metrics"))
    expect(parts).toHaveLength(2 * 29 * 2)
    for (const p of parts) expect(p).toMatch(/^chain_id=4311[34]\/metric=[a-z%0-9]+\/time_interval=(hour|day|week|month)\/month=2025-0[12]\/part-[a-z0-9-]+-\d{6}\.parquet$/)
  })

  it("given the clock moves 5 hours, when the same job runs again, then the open period's points are replaced, not duplicated, and new hours appear", async () => {
    const now = emu.clock.now()
    const latest = (rows: Array<Record<string, unknown>>, interval: string) =>
      rows.filter((r) => r["chain_id"] === "43114" && r["metric"] === "txCount" && r["time_interval"] === interval && r["ts"] === now)
    const before = { hour: latest(firstRows, "hour"), day: latest(firstRows, "day") }
    expect(before.hour).toHaveLength(1)
    expect(before.day).toHaveLength(1)

    emu.advance(5 * 3600)
    const second = await Effect.runPromise(runSpine(out, emu, { datasets: ["chain_metrics"], job }))
    expect(second.status).toBe("succeeded")
    const rows = await actualRows(path.join(out, "catalog.duckdb"))
    expect(rows).toEqual(await expectedRows(emu, job))

    const keys = rows.map((r) => `${r["chain_id"]}|${r["metric"]}|${r["time_interval"]}|${r["ts"]}`)
    expect(new Set(keys).size).toBe(keys.length)
    // the hour and the day that were open at the first run now hold their newer values, once
    const after = { hour: latest(rows, "hour"), day: latest(rows, "day") }
    expect(after.hour).toHaveLength(1)
    expect(after.day).toHaveLength(1)
    expect(after.day[0]!["value"]).toBeGreaterThan(before.day[0]!["value"] as number)
    expect(after.hour[0]!["value"]).toBeGreaterThan(before.hour[0]!["value"] as number)
    const hours = rows.filter((r) => r["chain_id"] === "43114" && r["metric"] === "txCount" && r["time_interval"] === "hour" && (r["ts"] as number) > now)
    expect(hours.map((r) => r["ts"])).toEqual([1, 2, 3, 4, 5].map((h) => now + h * 3600))
    expect(rows.length).toBe(firstRows.length + 5 * 4 * 2)
    // open months are the second run's alone (the first run's parts are gone); a month whose last
    // bucket had settled before the first run was final then and was not fetched again
    const runIds = await query(
      path.join(out, "catalog.duckdb"),
      "SELECT DISTINCT month, time_interval, run_id FROM chain_metrics WHERE chain_id = '43114' AND metric = 'txCount' ORDER BY ALL"
    )
    const firstAsOf = now
    expect(runIds).toEqual(
      runIds.map((r) => ({
        ...r,
        run_id: settledAfter(String(r["month"]), String(r["time_interval"])) <= firstAsOf ? first.runId : second.runId
      }))
    )
    expect(runIds.some((r) => r["run_id"] === second.runId)).toBe(true)
  })
})

describe("chain_metrics when page tokens expire mid-listing", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ seed: SEED, rateLimit: { metricsPerSecond: 0 } })
  })
  afterAll(async () => {
    await emu.close()
  })

  it("given the clock jumps two days after page 4 of a month's hours, when the service refuses the token, then the listing restarts and each point is written once", async () => {
    const out = await tempOut()
    const PAGE = 24
    const dataset = chainMetricsDataset(PAGE)
    let pagesSeen = 0
    const advancing: typeof dataset = {
      ...dataset,
      listing: { ...dataset.listing, fetch: (s, c) => Effect.tap(dataset.listing.fetch(s, c), () => Effect.sync(() => ++pagesSeen === 4 && emu.advance(2 * 86_400))) }
    }
    const slice = makeSlice("chain_metrics", { chain_id: "43114", metric: "txCount", time_interval: "hour", month: "2025-01" })
    const layers = Layer.mergeAll(sourceLayerWith({ ...emu, out, retry: emulatorRetry }), ParquetSink.layer(out), CheckpointStore.layer(out), CommittedKeys.layer(out))
    const result = await Effect.runPromise(crawlSlice(advancing, slice, { runId: "r1", asOf: emu.clock.now(), ingestedAt: new Date(), partRows: PAGE * 2 }).pipe(Effect.provide(layers)))
    expect(result.error).toBeUndefined()
    expect(result).toMatchObject({ status: "done", restarts: 1 })
    await Effect.runPromise(buildCatalog(out, [{ name: dataset.name, schema: dataset.schema, partitionKeys: dataset.partitionBy.map((p) => ({ key: p.key, type: p.type })) }]))

    const expected = (await series(emu, "43114", "txCount", "hour")).filter((p) => monthOf(p.ts) === "2025-01")
    // January's hours since the chain's genesis: many pages at 24 a page
    expect(expected.length).toBeGreaterThan(PAGE * 8)
    const actual = await query(path.join(out, "catalog.duckdb"), `SELECT epoch(period_start)::BIGINT AS ts, value FROM chain_metrics ORDER BY ts`)
    expect(actual.map((r) => ({ ts: Number(r["ts"]), value: r["value"] }))).toEqual(expected)
  })
})
