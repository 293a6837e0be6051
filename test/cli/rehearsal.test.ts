/**
 * The offline nightly rehearsal as a user runs it: `chainetl run --emulator` for night 1, then
 * `--as-of +1d` (night 2) and `--as-of +3d` (a missed night, then the next), each preceded by its
 * `--dry-run`, on one output folder with the emulator job (its node block walks bounded). One crawl serves every assertion:
 * dry-run's estimate against the requests each night made, per dataset; the run summary's new and
 * replacing rows; `status` against the views; the height token_transfers scanned; lag at 0.
 */
import { promises as fs } from "node:fs"
import { createServer } from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DryRun } from "../../src/cli/dryRun.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { type CliExit, runCli } from "../reliability/cli.ts"
import { tempFolders } from "../support/fixtures.ts"
import { fetchAll, query } from "../support/spine.ts"

/** This file's temporary folders, removed after its last test. */
const tempOut = tempFolders("rehearsal")

const DAY = 86_400
const EMULATOR_JOB = fileURLToPath(new URL("../../pipelines/jobs/emulator.json", import.meta.url))

interface Night {
  readonly dry: DryRun
  readonly run: CliExit
  readonly report: RunReport
}

interface StatusJson {
  readonly datasets: ReadonlyArray<{ dataset: string; rows: number | null; rowsWritten: number }>
  readonly listings: ReadonlyArray<{ dataset: string; listing: Record<string, string>; watermark: number; latest: number | null; lagSeconds: number | null; lagNote?: string }>
  readonly heights: ReadonlyArray<{ dataset: string; listing: Record<string, string>; height: string; latest: string | null; lagBlocks: string | null; lagNote?: string }>
}

const byDataset = <T extends { dataset: string }>(rows: ReadonlyArray<T>, f: (r: T) => number): Map<string, number> => {
  const m = new Map<string, number>()
  for (const r of rows) m.set(r.dataset, (m.get(r.dataset) ?? 0) + f(r))
  return m
}

describe("chainetl run --emulator --as-of: night 1, night 2, a missed night", () => {
  let out: string
  let jobFile: string
  let sameDay: DryRun
  const nights: Night[] = []
  let status: CliExit
  /** The same network as the CLI's (same seed), moved to night 3's clock: the truth to compare with. */
  let emu: RunningEmulator
  /**
   * The emulator hashes three days of blocks on its first answers after the move, seconds of its
   * event loop: asked while the nights run in their own processes, so status --live (not what is
   * timed here: the closed-port test is) and the truth below meet a network already hashed.
   */
  const warm = async () => {
    for (const chain of ["p-chain", "x-chain", "c-chain"]) await fetch(`${emu.baseUrl}/v1/networks/mainnet/blockchains/${chain}/blocks?pageSize=1`).then((r) => r.json())
    for (const chain of ["43114", "43113", "364763"]) await fetch(`${emu.baseUrl}/v1/chains/${chain}/blocks?pageSize=1`).then((r) => r.json())
  }
  let warmed: Promise<void>

  const cli = (args: ReadonlyArray<string>) => runCli(args)
  const lastReport = async (): Promise<RunReport> => {
    const runs = (await fs.readdir(path.join(out, "_runs"))).filter((f) => f.endsWith(".json")).sort()
    return JSON.parse(await fs.readFile(path.join(out, "_runs", runs[runs.length - 1]!), "utf8")) as RunReport
  }
  const dryRun = (asOf: ReadonlyArray<string>) => cli(["run", "--emulator", ...asOf, "--job", jobFile, "--out", out, "--dry-run", "--json"])
  /** The night's dry run (unless already made: it writes nothing), then the night. */
  const night = async (asOf: ReadonlyArray<string>, planned?: Promise<CliExit>): Promise<Night> => {
    const plan = await (planned ?? dryRun(asOf))
    expect(plan.code, plan.stderr).toBe(0)
    const run = await cli(["run", "--emulator", ...asOf, "--job", jobFile, "--out", out])
    expect(run.code, run.stderr).toBe(0)
    return { dry: JSON.parse(plan.stdout) as DryRun, run, report: await lastReport() }
  }
  const catalog = () => path.join(out, "catalog.duckdb")

  beforeAll(async () => {
    out = await tempOut()
    emu = await startEmulator()
    // the emulator job, every dataset in it, made cheaper to keep three nights within minutes on two
    // cores: mainnet only, two metrics, and the node's block walks stop at night 1's tips (past
    // them each emulated day is 4,320 X-chain and 2,880 P-chain blocks, one request each, and as
    // many avm.getTx: 11.5k requests a night). Their slices are still planned and run every night
    const job = JSON.parse(await fs.readFile(EMULATOR_JOB, "utf8")) as Record<string, Record<string, unknown>>
    const tip = (chain: "X" | "P") => String(emu.world.primary.network("mainnet").height(chain) + 1n)
    jobFile = path.join(await tempOut(), "job.json")
    await fs.writeFile(
      jobFile,
      JSON.stringify({
        ...job,
        networks: ["mainnet"],
        metrics: { ...job["metrics"], metrics: ["txCount", "activeAddresses"] },
        nodeXHeights: { ...job["nodeXHeights"], to: tip("X") },
        nodePHeights: { ...job["nodePHeights"], to: tip("P") }
      })
    )
    // the tips are read: the test's emulator moves to night 3's clock now (its clock stands still)
    emu.advance(3 * DAY)
    warmed = warm()
    warmed.catch(() => undefined)
    nights.push(await night([]))
    // the same instant again: what night 1 finished is final now. Night 2's plan reads the same
    // folder (dry runs write nothing): both are made at once
    const [again, plan2] = await Promise.all([dryRun([]), dryRun(["--as-of", "+1d"])])
    sameDay = JSON.parse(again.stdout) as DryRun
    nights.push(await night(["--as-of", "+1d"], Promise.resolve(plan2)))
    nights.push(await night(["--as-of", "+3d"]))
    status = await cli(["status", "--out", out, "--json"])
    await warmed
  }, 900_000)

  afterAll(async () => {
    await emu?.close()
  })

  it("given --as-of +1d and +3d, when the nights run, then each is as of the emulator's start plus that many days", () => {
    const [n1, n2, n3] = nights
    expect(n1!.report.asOf).toBe(emu.clock.now() - 3 * DAY)
    expect(n2!.report.asOf).toBe(n1!.report.asOf! + DAY)
    expect(n3!.report.asOf).toBe(n1!.report.asOf! + 3 * DAY)
    expect(nights.map((n) => n.dry.asOf)).toEqual(nights.map((n) => n.report.asOf))
    expect(n2!.run.stdout).toContain(`= --as-of +1d`)
  })

  it("given each night's dry run, when the night runs, then per dataset the estimate is at most the requests made and the slices to crawl are the ones not skipped", () => {
    for (const n of nights) {
      const actual = byDataset(n.report.slices, (s) => s.requests)
      const crawled = byDataset(n.report.slices, (s) => (s.status === "skipped" ? 0 : 1))
      for (const line of n.dry.datasets) {
        expect({ dataset: line.dataset, ok: line.atLeastRequests <= (actual.get(line.dataset) ?? 0) }).toEqual({ dataset: line.dataset, ok: true })
        expect({ dataset: line.dataset, crawl: line.crawl }).toEqual({ dataset: line.dataset, crawl: crawled.get(line.dataset) ?? 0 })
      }
      const total = n.report.slices.reduce((k, s) => k + s.requests, 0)
      expect(n.dry.atLeastRequests).toBeLessThanOrEqual(total)
      expect(n.dry.atLeastRequests).toBeGreaterThan(0)
    }
  })

  it("given night 1 done, when the same instant is planned again, then the snapshots and the contract metadata are final and cost no request", () => {
    for (const name of ["delegators", "current_supply", "contract_metadata", "token_holders"]) {
      const line = sameDay.datasets.find((l) => l.dataset === name)
      expect(line).toMatchObject({ crawl: 0, atLeastRequests: 0 })
      expect(line!.final).toBe(nights[0]!.report.slices.filter((s) => s.dataset === name).length)
    }
    // night 1 made every dataset's requests; the rerun's bound is far below them
    expect(sameDay.atLeastRequests).toBeLessThan(nights[0]!.dry.atLeastRequests)
  })

  it("given night 2, when the summary is printed, then avg_tps' rows are all replacing and chain_metrics' open months replace, the new months' rows are new", () => {
    const n2 = nights[1]!
    const line = (name: string) => {
      const m = new RegExp(`^${name}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s`, "m").exec(n2.run.stdout)
      expect(m, `${name} in ${n2.run.stdout}`).not.toBeNull()
      return { newRows: Number(m![4]), replacing: Number(m![5]) }
    }
    const tps = n2.report.slices.filter((s) => s.dataset === "avg_tps")
    expect(tps.every((s) => s.replacing === true)).toBe(true)
    expect(line("avg_tps")).toEqual({ newRows: 0, replacing: tps.reduce((k, s) => k + s.rows, 0) })
    expect(line("avg_tps").replacing).toBeGreaterThan(0)
    const metrics = n2.report.slices.filter((s) => s.dataset === "chain_metrics")
    const replacing = metrics.filter((s) => s.replacing === true).reduce((k, s) => k + s.rows, 0)
    const fresh = metrics.filter((s) => s.replacing !== true).reduce((k, s) => k + s.rows, 0)
    expect(line("chain_metrics")).toEqual({ newRows: fresh, replacing })
    expect(replacing).toBeGreaterThan(0)
    // night 1 had nothing to replace
    expect(nights[0]!.report.slices.some((s) => s.replacing === true)).toBe(false)
  })

  it("given three nights, when status is read, then every dataset's rows are what its view returns, and replaced versions are not counted", async () => {
    expect(status.code, status.stderr).toBe(0)
    const parsed = JSON.parse(status.stdout) as StatusJson
    const names = parsed.datasets.map((d) => d.dataset)
    const counts = await query(catalog(), names.map((n) => `SELECT '${n}' AS dataset, count(*)::INTEGER AS n FROM ${n}`).join(" UNION ALL "))
    expect(Object.fromEntries(parsed.datasets.map((d) => [d.dataset, d.rows]))).toEqual(Object.fromEntries(counts.map((c) => [c["dataset"], c["n"]])))
    const tps = parsed.datasets.find((d) => d.dataset === "avg_tps")!
    // three versions written, one live
    expect(tps.rowsWritten).toBeGreaterThan(tps.rows!)
  })

  it("given the missed night, when night 3 runs, then the two days' blocks are all there once and the snapshots skip the missed day", async () => {
    const [n1, , n3] = nights
    const asOf2 = n1!.report.asOf! + DAY
    const asOf3 = n3!.report.asOf!
    const truth = await fetchAll(`${emu.baseUrl}/v1/networks/mainnet/blockchains/p-chain/blocks`, "blocks", { startTimestamp: String(asOf2), endTimestamp: String(asOf3 + 1) }).then((all) =>
      all.filter((b) => (b["blockTimestamp"] as number) > asOf2 && (b["blockTimestamp"] as number) <= asOf3)
    )
    expect(truth.length).toBeGreaterThan(0)
    const rows = await query(
      catalog(),
      `SELECT block_hash FROM primary_blocks WHERE network = 'mainnet' AND blockchain = 'p-chain' AND epoch(block_timestamp) > ${asOf2} AND epoch(block_timestamp) <= ${asOf3}`
    )
    expect(rows.map((r) => r["block_hash"]).sort()).toEqual(truth.map((b) => b["blockHash"]).sort())
    const [dup] = await query(catalog(), "SELECT count(*)::INTEGER AS n, count(DISTINCT block_hash)::INTEGER AS d FROM primary_blocks")
    expect(dup!["n"]).toBe(dup!["d"])
    // every row the three nights wrote, once: the view holds what their reports count
    const written = nights.reduce((k, n) => k + n.report.slices.filter((s) => s.dataset === "primary_blocks").reduce((j, s) => j + s.rows, 0), 0)
    expect(dup!["n"]).toBe(written)
    const days = await query(catalog(), "SELECT DISTINCT snapshot_date::VARCHAR AS d FROM delegators ORDER BY d")
    const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10)
    expect(days.map((r) => r["d"])).toEqual([day(n1!.report.asOf!), day(asOf2), day(asOf3)])
  })

  it("given night 3, when status --live asks the same network, then token_transfers report the tip they scanned to, and no lag is negative", async () => {
    await warmed
    const live = await runCli(["status", "--out", out, "--live", "--json"], {
      CHAINETL_BASE_URL: emu.baseUrl,
      CHAINETL_METRICS_URL: emu.metricsUrl,
      CHAINETL_NODE_URL: emu.nodeUrl,
      CHAINETL_STATUS_TIMEOUT_MS: "60000"
    })
    expect(live.code, live.stderr).toBe(0)
    const parsed = JSON.parse(live.stdout) as StatusJson
    const transfers = parsed.heights.filter((h) => h.dataset === "token_transfers")
    expect(transfers.length).toBeGreaterThan(0)
    for (const t of transfers) {
      const [tip] = await fetchAll(`${emu.baseUrl}/v1/chains/${t.listing["chain_id"]}/blocks`, "blocks", { pageSize: "1" }).then((b) => b.slice(0, 1))
      // scanned through the chain's tip at night 3 (the clock has not moved since): lag 0
      expect(t).toMatchObject({ height: String(tip!["blockNumber"]), latest: String(tip!["blockNumber"]), lagBlocks: "0" })
      const [last] = await query(catalog(), `SELECT max(block_number)::VARCHAR AS h FROM token_transfers WHERE lower(token_address) = lower('${t.listing["token_address"]}')`)
      expect(BigInt(t.height)).toBeGreaterThanOrEqual(BigInt(String(last!["h"] ?? "0")))
    }
    for (const l of parsed.listings) {
      expect(l.lagSeconds).toBeGreaterThanOrEqual(0)
      if (l.lagNote !== undefined) expect(l.latest!).toBeLessThan(l.watermark)
    }
    // the windowed listings are complete up to the run's as-of, past the newest block: clamped, and said so
    expect(parsed.listings.some((l) => l.lagNote !== undefined)).toBe(true)
    for (const h of parsed.heights) expect(BigInt(h.lagBlocks ?? "0")).toBeGreaterThanOrEqual(0n)
  }, 120_000)
})

describe("chainetl status --live against a closed port", () => {
  it("given no service listening, when status --live is asked, then it exits 1 within seconds naming the service and its variable, where status without --live exits 0", async () => {
    const out = await tempOut()
    // a checkpoint of a windowed listing and one of a height listing: two services to probe
    await fs.mkdir(path.join(out, "_state", "checkpoints", "primary_blocks"), { recursive: true })
    await fs.writeFile(
      path.join(out, "_state", "checkpoints", "primary_blocks", "w.json"),
      JSON.stringify({
        dataset: "primary_blocks", slice: "w", params: { network: "mainnet", blockchain: "p-chain", from: "2025-01-01T00:00:00Z", to: "2025-01-02T00:00:00Z" },
        cursor: null, cursorIssuedAt: null, pagesCommitted: 1, rowsCommitted: 0, rejectsCommitted: 0, lastSeq: -1, keepFromSeq: null,
        status: "done", completedAsOf: 1735776000, restarts: 0, runId: "r", updatedAt: "2025-01-02T00:00:00Z", error: null
      })
    )
    const port = await new Promise<number>((resolve) => {
      const server = createServer()
      server.listen(0, "127.0.0.1", () => {
        const p = (server.address() as { port: number }).port
        server.close(() => resolve(p))
      })
    })
    const url = `http://127.0.0.1:${port}`
    const env = { CHAINETL_BASE_URL: url, CHAINETL_METRICS_URL: url, CHAINETL_NODE_URL: url }
    const offline = await runCli(["status", "--out", out], env)
    expect(offline.code).toBe(0)
    const probe = await runCli(["status", "--out", out, "--live"], env)
    expect(probe.code).toBe(1)
    expect(probe.stderr).toContain(`chain-data service (CHAINETL_BASE_URL=${url}) did not answer`)
    expect(probe.stderr).toContain("ECONNREFUSED")
    expect(probe.stdout).toContain("unreachable")
    // generous, and net of starting the program (the same status without --live): the retry storm
    // took minutes; one attempt per listing, all at once, takes well under a second
    expect(probe.ms - offline.ms).toBeLessThan(20_000)
  }, 60_000)
})
