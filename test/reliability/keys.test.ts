/**
 * Issue 15 item 4 as a user meets it: `chainetl run` with two keys in CHAINETL_API_KEYS and their
 * budgets in the job file, against an emulator that requires a key and notes when each key's
 * requests arrive. Counted at the emulator, each key stays within its budget in every window, both
 * keys carry the crawl, the rows equal a run with one key, the run report and summary give each
 * key's requests, and no secret is in any output. Then two runs at once on two machines' worth of
 * processes (two output folders, one PostgreSQL through CHAINETL_STATE_URL) share the keys: the two
 * together stay within each budget.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { expectWithinBudgets, withLoopStalls } from "../support/keyWindows.ts"
import { type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { campaignJob } from "./campaign.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliExit, runCli, startCli } from "./cli.ts"
import { compareCatalogs, filesBelow } from "./compare.ts"

const ALPHA = "ka-alpha-5ecret-0f-the-CLI-N0t-T0-Leak"
const BETA = "kb-beta-5ecret-0f-the-CLI-N0t-T0-Leak"
const budgets = { alpha: { rate: 8, burst: 2 }, beta: { rate: 4, burst: 1 } }
// two processes (the CLI and this test's emulator) on two shared cores: arrivals lag sends by up to this
const JITTER_MS = 150
// 48 hourly windows of P-chain blocks: at least 48 chain-data requests, 4 slices at a time
const backfillArgs = (job: string, out: string) => ["backfill", "primary_blocks", "--from", "2024-06-01", "--to", "2024-06-03", "--window", "1h", "--concurrency", "4", "--part-rows", "200", "--job", job, "--out", out]

const keysDir = tempFolders("keys")
let emu: RunningEmulator
let pg: RunningPostgres
let dir: string
let jobFile: string
beforeAll(async () => {
  ;[emu, pg] = await Promise.all([startEmulator({ seed: 1, recordKeyArrivals: true, auth: { mode: "required", validKeys: [ALPHA, BETA] } }), startPostgres()])
  dir = await keysDir()
  jobFile = path.join(dir, "job.json")
  await fs.writeFile(jobFile, JSON.stringify({ ...campaignJob(emu), apiKeys: budgets }))
  await fs.writeFile(path.join(dir, "job-refused.json"), JSON.stringify(campaignJob(emu)))
}, 60_000)
afterAll(async () => {
  await emu?.close()
  await pg?.stop()
})

const env = (extra: Record<string, string> = {}) => ({
  CHAINETL_BASE_URL: emu.baseUrl,
  CHAINETL_METRICS_URL: emu.metricsUrl,
  CHAINETL_NODE_URL: emu.nodeUrl,
  CHAINETL_API_KEYS: `alpha=${ALPHA},beta=${BETA}`,
  ...extra
})

const arrivalsSince = (key: string, start: number) => (emu.keyArrivals().get(key) ?? []).filter((t) => t >= start)

const withinBudgets = (alpha: number[], beta: number[], stallMs: number) => {
  expectWithinBudgets({ alpha: { arrivals: alpha, budget: budgets.alpha }, beta: { arrivals: beta, budget: budgets.beta } }, [500, 1_000, 3_000], JITTER_MS + stallMs, ` (loop stall ${stallMs} ms)`)
}

const reportOf = async (out: string): Promise<RunReport> => {
  const runs = await fs.readdir(path.join(out, "_runs"))
  return JSON.parse(await fs.readFile(path.join(out, "_runs", runs[0]!), "utf8")) as RunReport
}

interface OneRun {
  readonly out: string
  readonly run: CliExit
  readonly stallMs: number
  readonly alpha: number[]
  readonly beta: number[]
}

let one: Promise<OneRun> | undefined
/** The run with two keys into `one`, made once for the file: the first describe's subject and the second's reference, whichever asks first. */
const oneRun = (): Promise<OneRun> =>
  (one ??= (async () => {
    const out = path.join(dir, "one")
    const start = performance.now()
    const { value: run, stallMs } = await withLoopStalls(() => runCli(backfillArgs(jobFile, out), env({ CHAINETL_CONCURRENCY: "8" })))
    return { out, run, stallMs, alpha: arrivalsSince(ALPHA, start), beta: arrivalsSince(BETA, start) }
  })())

describe("chainetl run with two API keys and their budgets", () => {
  let out: string
  let run: CliExit
  let alpha: number[]
  let beta: number[]
  let stallMs: number
  beforeAll(async () => {
    ;({ out, run, alpha, beta, stallMs } = await oneRun())
  }, 120_000)

  it("given the run, when the emulator's arrivals are counted per key, then both keys carried it and each stayed within its budget in every window", () => {
    expect(run.code, run.stderr).toBe(0)
    expect(alpha.length + beta.length).toBeGreaterThanOrEqual(48)
    expect(alpha.length).toBeGreaterThan(beta.length)
    expect(beta.length).toBeGreaterThan(5)
    withinBudgets(alpha, beta, stallMs)
    expect(emu.state().requests.rateLimited).toBe(0)
  })

  it("given the run, when its report and summary are read, then they give each key's requests by name, equal to what the emulator counted", async () => {
    const report = await reportOf(out)
    expect(report.keys.map((k) => [k.name, k.rate, k.burst, k.requests, k.rateLimited, k.refused])).toEqual([
      ["alpha", 8, 2, alpha.length, 0, null],
      ["beta", 4, 1, beta.length, 0, null]
    ])
    expect(run.stdout).toContain(`API keys: alpha ${alpha.length}, beta ${beta.length}`)
  })

  it("given the run, when its rows are compared with the same backfill on CHAINETL_API_KEY alone (as before several keys), then they are equal (EXCEPT ALL both ways)", async () => {
    const single = path.join(dir, "single")
    const plain = await keysDir()
    await fs.writeFile(path.join(plain, "job.json"), JSON.stringify(campaignJob(emu)))
    const { CHAINETL_API_KEYS: _, ...rest } = env({ CHAINETL_API_KEY: ALPHA })
    const one = await runCli(backfillArgs(path.join(plain, "job.json"), single), rest)
    expect(one.code, one.stderr).toBe(0)
    const diffs = await compareCatalogs(out, single)
    expect(diffs.find((d) => d.dataset === "primary_blocks")?.rowsA).toBeGreaterThan(0)
    expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    // one key is still the one key it always was, under the name `default`
    expect((await reportOf(single)).keys.map((k) => [k.name, k.rate])).toEqual([["default", 20]])
    expect(one.stdout).not.toContain("API keys:")
  }, 120_000)

  it("given stdout, stderr and every file of the output, when searched for either secret, then there is no hit", async () => {
    const hits: string[] = []
    for (const f of await filesBelow(out)) {
      const bytes = await fs.readFile(path.join(out, f))
      for (const secret of [ALPHA, BETA]) if (bytes.includes(Buffer.from(secret))) hits.push(f)
    }
    expect(hits).toEqual([])
    for (const secret of [ALPHA, BETA]) expect(run.stdout + run.stderr).not.toContain(secret)
  })
})

describe("two chainetl runs at once sharing the keys through PostgreSQL", () => {
  it("given two runs on two output folders with CHAINETL_STATE_URL, when they crawl at the same time, then the two together keep each key within its budget in every window", async () => {
    // the rows of one run alone, to compare with (made here when this describe comes first)
    const reference = (await oneRun()).out
    const start = performance.now()
    const shared = env({ CHAINETL_STATE_URL: pg.url, CHAINETL_CONCURRENCY: "8" })
    const { value: runs, stallMs } = await withLoopStalls(() =>
      Promise.all(["a", "b"].map((name) => startCli(backfillArgs(jobFile, path.join(dir, `shared-${name}`)), shared).exited))
    )
    for (const r of runs) expect(r.code, r.stderr).toBe(0)
    const alpha = arrivalsSince(ALPHA, start)
    const beta = arrivalsSince(BETA, start)
    const reports = await Promise.all(["a", "b"].map((name) => reportOf(path.join(dir, `shared-${name}`))))
    // each run used both keys; together they are everything the emulator saw
    for (const report of reports) expect(report.keys.every((k) => k.requests > 0)).toBe(true)
    expect(reports.reduce((n, r) => n + r.keys.reduce((m, k) => m + k.requests, 0), 0)).toBe(alpha.length + beta.length)
    withinBudgets(alpha, beta, stallMs)
    for (const r of runs) for (const secret of [ALPHA, BETA]) expect(r.stdout + r.stderr).not.toContain(secret)
    // and each wrote what one run alone writes
    for (const name of ["a", "b"]) {
      const diffs = await compareCatalogs(path.join(dir, `shared-${name}`), reference)
      expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    }
  }, 300_000)
})

describe("a run whose service refuses one of its keys", () => {
  it("given gamma unknown to the service beside alpha, when the run goes, then gamma is dropped after its first refusal, the run completes on alpha and exits 0, and the log, summary and report name gamma as refused, never a secret", async () => {
    const GAMMA = "kc-gamma-Unkn0wn-N0t-T0-Leak"
    const out = path.join(dir, "refused")
    const run = await runCli(["run", "delegators", "--job", jobFile.replace("job.json", "job-refused.json"), "--out", out], {
      ...env(),
      CHAINETL_API_KEYS: `gamma=${GAMMA},alpha=${ALPHA}`
    })
    expect(run.code, run.stderr).toBe(0)
    const report = await reportOf(out)
    const gamma = report.keys.find((k) => k.name === "gamma")!
    expect(gamma.refused).toMatch(/^HTTP 401: Unauthorized: invalid API key/)
    expect(gamma.requests).toBe(1)
    expect(report.keys.find((k) => k.name === "alpha")!.requests).toBeGreaterThanOrEqual(4)
    expect(report.slices.every((s) => s.status === "done")).toBe(true)
    expect(run.stdout + run.stderr).toMatch(/API key 'gamma' was refused by the chain-data service \(HTTP 401: Unauthorized: invalid API key\): not used again this run; going on with 'alpha'/)
    expect(run.stdout).toMatch(/API keys: gamma 1 \(REFUSED, not used after: HTTP 401: Unauthorized: invalid API key\), alpha \d+/)
    for (const secret of [GAMMA, ALPHA]) expect(run.stdout + run.stderr + JSON.stringify(report)).not.toContain(secret)
  }, 60_000)
})
