/**
 * Issue 41 item 3 with real processes: PostgreSQL (test/support/pgServer.ts), the emulator behind
 * a proxy that slows its pages, two `chainetl worker`s sharing one output folder, and
 * `chainetl backfill --distributed` SIGKILLed while jobs are still queued and running, then started
 * again with the same command. The restart must take over at once (the killed process's
 * PostgreSQL session is gone) and say so, join the jobs still queued and running instead of being
 * refused or planning nothing, close the killed run's report as interrupted, and leave rows equal
 * to an untouched single-process backfill.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliProcess, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { forward, startProxy, type Proxy } from "../support/proxy.ts"
import { type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { queryPg } from "../support/pgQuery.ts"
import { until } from "../support/until.ts"

const RANGE = ["2025-01-01", "2025-01-02", "4h"] as const

let pg: RunningPostgres
let emu: RunningEmulator
let proxy: Proxy
/** While set, pages of blocks wait for it: the workers' slices stay under way until the rerun has started. */
let gate: Promise<void> | undefined
beforeAll(async () => {
  ;[pg, emu] = await Promise.all([startPostgres(), startEmulator({ seed: 1, scale: 20 })])
  // slow pages, so that the slices last long enough for the enqueuer to die among them
  proxy = await startProxy(emu.baseUrl, (req) =>
    req.url.pathname.endsWith("/blocks") ? { kind: "forward", delayMs: 400, ...(gate === undefined ? {} : { after: gate }) } : forward
  )
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await emu?.close()
  await pg?.stop()
})

const query = queryPg(() => pg.url)

const backfillArgs = (job: string, out: string, extra: ReadonlyArray<string> = []) => [
  "backfill",
  "primary_blocks",
  "--from",
  RANGE[0],
  "--to",
  RANGE[1],
  "--window",
  RANGE[2],
  "--part-rows",
  "20",
  "--job",
  job,
  "--out",
  out,
  "--quiet",
  ...extra
]

const envOf = (): Record<string, string> => ({
  CHAINETL_BASE_URL: proxy.url,
  CHAINETL_METRICS_URL: emu.metricsUrl,
  CHAINETL_NODE_URL: emu.nodeUrl,
  CHAINETL_STATE_URL: pg.url,
  CHAINETL_WORKER_LEASE_SECONDS: "6",
  CHAINETL_QUEUE_SWEEP_SECONDS: "1",
  CHAINETL_QUEUE_POLL_MS: "200"
})

const readReports = async (out: string): Promise<RunReport[]> => {
  const dir = path.join(out, "_runs")
  return Promise.all((await fs.readdir(dir)).filter((f) => f.endsWith(".json")).map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as RunReport))
}

const restartDir = tempFolders("enqueuer-restart")

describe("an enqueuer SIGKILLed mid-run and started again with the same command", () => {
  it("given two workers crawling a distributed backfill, when its enqueuer is SIGKILLed with jobs queued and running and the same command is run again, then the rerun takes over at once saying so, joins those jobs, closes the killed run as interrupted, and the rows equal an untouched backfill", async () => {
    const dir = await restartDir()
    const jobFile = path.join(dir, "job.json")
    await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"] }))
    const out = path.join(dir, "out")
    const env = envOf()
    const workers: CliProcess[] = [0, 1].map(() => startCli(["worker", "--out", out, "--concurrency", "1"], env))
    const processes: CliProcess[] = [...workers]
    try {
      const first = startCli(backfillArgs(jobFile, out, ["--distributed"]), env)
      processes.push(first)
      // killed once a worker has committed a part of some slice: others are then still queued
      await until("a slice mid-way", async () => {
        const rows = await query<{ n: number }>(
          (sql) => sql`SELECT count(*)::int AS n FROM chainetl_checkpoints WHERE state->>'status' = 'running' AND (state->>'rowsCommitted')::int > 0`
        )
        return (rows[0]?.n ?? 0) > 0 ? true : undefined
      })
      // the workers' pages held from here until the rerun has taken over: whatever the machine's
      // load, jobs are still running and queued when it starts
      let open = () => {}
      gate = new Promise<void>((resolve) => (open = resolve))
      const fallback = setTimeout(open, 60_000)
      first.kill()
      await first.exited
      const killed = (await readReports(out)).find((r) => r.status === "running")
      expect(killed?.planned).toBe(6)
      const queued = await query<{ n: number }>((sql) => sql`SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`)
      expect(queued[0]!.n).toBeGreaterThan(0)

      // the same command again
      const again = startCli(backfillArgs(jobFile, out, ["--distributed"]), env)
      processes.push(again)
      again.child.stderr!.on("data", (d: Buffer) => void (d.toString().includes("joined") ? open() : undefined))
      const done = await again.exited
      console.log(done.stderr.split("\n").filter((l) => l.startsWith("chainetl:")).join("\n"))
      expect(done.code, `${done.stdout}\n${done.stderr}`).toBe(0)
      expect(done.stderr).not.toContain("in use by run")
      expect(done.stderr).toContain(`took over run ${killed!.runId}`)
      expect(done.stderr).toMatch(/at once: its PostgreSQL session had ended/)
      // the jobs still queued or running were joined, not planned anew beside them
      expect(done.stderr).toMatch(new RegExp(`joined [1-9]\\d* job\\(s\\) still queued or running of run ${killed!.runId}`))

      const reports = await readReports(out)
      expect(reports.length).toBe(2)
      const closed = reports.find((r) => r.runId === killed!.runId)!
      expect(closed.status).toBe("interrupted")
      expect(closed.error).toMatch(/process ended before the run finished/)
      const rerun = reports.find((r) => r.runId !== killed!.runId)!
      expect(rerun.status).toBe("succeeded")
      // it joined the run: every window not yet done was planned and finished by the workers
      expect(rerun.planned).toBeGreaterThan(0)
      expect(rerun.slices.every((s) => s.status === "done")).toBe(true)
      expect(rerun.tookOver).toMatchObject({ runId: killed!.runId, when: "at once" })

      // six windows, each done once, rows equal to one process backfilling alone
      const checkpoints = await query<{ status: string }>((sql) => sql`SELECT state->>'status' AS status FROM chainetl_checkpoints`)
      expect(checkpoints.map((c) => c.status)).toEqual(Array(6).fill("done"))
      const alone = await runCli(backfillArgs(jobFile, path.join(dir, "local")), { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl })
      expect(alone.code, alone.stderr).toBe(0)
      const diffs = await compareCatalogs(out, path.join(dir, "local"))
      expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
      expect(diffs.find((d) => d.dataset === "primary_blocks")!.rowsA).toBeGreaterThan(1_000)
      clearTimeout(fallback)
    } catch (e) {
      console.log(processes.map((p) => `--- pid ${p.pid} stderr:\n${p.stderrSoFar()}`).join("\n"))
      throw e
    } finally {
      gate = undefined
      for (const p of processes) p.kill()
      await Promise.all(processes.map((p) => p.exited))
    }
  }, 120_000)
})
