/**
 * Issue 15 item 2 with real components: a PostgreSQL from the OS packages, the emulator behind a
 * proxy that slows its pages (C-chain blocks at scale 20: six 8-hour windows of ~500 blocks, six
 * pages each), `chainetl backfill --distributed` and three `chainetl worker`
 * processes sharing one output folder. One worker is SIGKILLed mid-slice (a part committed, the
 * slice not done): its slice is taken over by another worker within the lease and resumes from
 * its checkpoint; every slice is committed once (one completed job each, parts 1..lastSeq once,
 * nothing past a checkpoint), and the rows equal a single-process local backfill (EXCEPT ALL
 * both ways). Besides: a local run is refused while the distributed one holds the output, and
 * `--distributed` without CHAINETL_STATE_URL is refused naming it.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { queueName } from "../../src/distributed/SliceJob.ts"
import { readOutputId } from "../../src/state/OutputId.ts"
import { tempFolders } from "../support/fixtures.ts"
import { queryPg } from "../support/pgQuery.ts"
import { until } from "../support/until.ts"
import { type CliProcess, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs, filesBelow } from "../reliability/compare.ts"
import { forward, startProxy, type Proxy } from "../support/proxy.ts"
import { PG_PASSWORD, type RunningPostgres, startPostgres } from "../support/postgres.ts"

const FROM = "2024-12-31"
const TO = "2025-01-02"
const WINDOW = "8h"
const LEASE_SECONDS = 6

let pg: RunningPostgres
let emu: RunningEmulator
let proxy: Proxy
beforeAll(async () => {
  ;[pg, emu] = await Promise.all([startPostgres(), startEmulator({ seed: 1, scale: 20 })])
  // slow pages, so a slice lasts a few seconds and a worker can be killed in the middle of one
  proxy = await startProxy(emu.baseUrl, (req) => (req.url.pathname.endsWith("/blocks") ? { kind: "forward", delayMs: 500 } : forward))
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await emu?.close()
  await pg?.stop()
})

const query = queryPg(() => pg.url)

const backfillArgs = (job: string, out: string, extra: ReadonlyArray<string> = [], range: readonly [string, string, string] = [FROM, TO, WINDOW]) => [
  "backfill",
  "primary_blocks",
  "--from",
  range[0],
  "--to",
  range[1],
  "--window",
  range[2],
  "--part-rows",
  "20",
  "--job",
  job,
  "--out",
  out,
  "--quiet",
  ...extra
]

const envOf = () => ({
  CHAINETL_BASE_URL: proxy.url,
  CHAINETL_METRICS_URL: emu.metricsUrl,
  CHAINETL_NODE_URL: emu.nodeUrl,
  CHAINETL_STATE_URL: pg.url,
  CHAINETL_WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
  CHAINETL_QUEUE_SWEEP_SECONDS: "1",
  CHAINETL_QUEUE_POLL_MS: "200"
})

type Held = { pid: number; dataset: string; slice: string }

const distDir = tempFolders("dist")

/** A job of the mainnet C-chain's blocks in a fresh folder, and `n` workers serving its output one slice at a time. */
const startWorkers = async (n: number) => {
  const dir = await distDir()
  const jobFile = path.join(dir, "job.json")
  await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"] }))
  const out = path.join(dir, "out")
  const workers: CliProcess[] = Array.from({ length: n }, () => startCli(["worker", "--out", out, "--concurrency", "1"], envOf()))
  return { dir, jobFile, out, workers }
}

/** A slice held by one of `workers`, with a part committed and more to come. */
const sliceMidWay = (workers: ReadonlyArray<CliProcess>) =>
  until("a slice mid-way", async () => {
    const rows = await query<Held>(
      (sql) => sql`SELECT h.pid, h.dataset, h.slice FROM chainetl_slice_holders h
                   JOIN chainetl_checkpoints c USING (output_id, dataset, slice)
                   WHERE c.state->>'status' = 'running' AND (c.state->>'rowsCommitted')::int > 0`
    )
    return rows.find((r) => workers.some((w) => w.pid === r.pid))
  })

const holderOf = async (victim: Held): Promise<number | undefined> =>
  (await query<{ pid: number }>((sql) => sql`SELECT pid FROM chainetl_slice_holders WHERE dataset = ${victim.dataset} AND slice = ${victim.slice}`))[0]?.pid

const checkpointOf = async (victim: Held): Promise<CheckpointState | undefined> =>
  (await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE dataset = ${victim.dataset} AND slice = ${victim.slice}`))[0]?.state

/** The same backfill by one process alone, compared with `out` both ways. */
const equalsLocal = async (jobFile: string, out: string, localOut: string, range?: readonly [string, string, string]) => {
  const alone = await runCli(backfillArgs(jobFile, localOut, [], range), { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl })
  expect(alone.code, alone.stderr).toBe(0)
  const diffs = await compareCatalogs(out, localOut)
  expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
  return diffs
}

describe("chainetl worker: distributed slices", () => {
  it("given --distributed without CHAINETL_STATE_URL, or with --emulator, when it starts, then it is refused (exit 2) naming what is missing, and nothing is created", async () => {
    const dir = await distDir()
    const out = path.join(dir, "out")
    const noUrl = await runCli(["run", "delegators", "--out", out, "--distributed"], { CHAINETL_BASE_URL: emu.baseUrl })
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toMatch(/CHAINETL_STATE_URL: run --distributed keeps its job queue, slice locks and checkpoints in PostgreSQL/)
    const worker = await runCli(["worker", "--out", out], {})
    expect(worker.code).toBe(2)
    expect(worker.stderr).toContain("CHAINETL_STATE_URL")
    const emulated = await runCli(["run", "delegators", "--emulator", "--out", out, "--distributed"], { CHAINETL_STATE_URL: pg.url })
    expect(emulated.code).toBe(2)
    expect(emulated.stderr).toContain("--distributed: workers cannot reach an emulator")
    expect(await fs.stat(out).catch(() => undefined)).toBeUndefined()
  }, 60_000)

  it("given three workers and a distributed backfill, when one worker is SIGKILLed mid-slice, then its slice is taken over within the lease, every slice is committed once and the rows equal a local backfill", async () => {
    const { dir, jobFile, out, workers } = await startWorkers(3)
    const env = envOf()
    try {
      // --part-mb travels with each job: a worker has no command line of the run
      const enqueuer = startCli(backfillArgs(jobFile, out, ["--distributed", "--part-mb", "3"]), env)

      const victim = await sliceMidWay(workers)
      // killed at once: a loaded machine could otherwise let the victim finish its slice first
      const killed = workers.find((w) => w.pid === victim.pid)!
      killed.kill()
      const killedAt = Date.now()
      const [{ successor, takeoverSeconds }, local] = await Promise.all([
        until("the slice's takeover", async () => {
          const pid = await holderOf(victim)
          return pid === undefined || pid === victim.pid ? undefined : { successor: { pid }, takeoverSeconds: (Date.now() - killedAt) / 1000 }
        }, 120_000),
        // meanwhile a local run on the same output is refused: the distributed run holds it
        runCli(backfillArgs(jobFile, out), env)
      ])
      expect(local.code).toBe(1)
      expect(local.stderr).toMatch(/in use by run \S+ \(distributed\)/)
      console.log(`takeover of ${victim.dataset}/${victim.slice}: ${takeoverSeconds.toFixed(1)} s after SIGKILL (lease ${LEASE_SECONDS} s, sweep 1 s, poll 0.2 s), by pid ${successor.pid}`)
      // bounded: lease + sweep + poll, with room for a loaded machine
      expect(takeoverSeconds).toBeLessThan(LEASE_SECONDS + 30)

      const done = await enqueuer.exited
      expect(done.code, done.stderr).toBe(0)
      for (const text of [done.stdout, done.stderr]) expect(text).not.toContain(PG_PASSWORD)

      // the run report: every slice done by some worker
      const runs = await fs.readdir(path.join(out, "_runs"))
      const reports = await Promise.all(runs.map(async (r) => JSON.parse(await fs.readFile(path.join(out, "_runs", r), "utf8")) as RunReport))
      const report = reports.find((r) => r.status === "succeeded")!
      expect(report.planned).toBe(6)
      expect(report.slices.map((s) => s.status)).toEqual(Array(6).fill("done"))
      // the workers' requests, summed under one entry of the report's hosts (the killed worker's
      // requests went with it: its successor reports its own)
      expect(report.hosts["workers"]?.requests).toBe(report.slices.reduce((n, s) => n + s.requests, 0))
      expect(report.hosts["workers"]?.requests).toBeGreaterThan(6)

      // every slice committed once: one completed job per slice, the killed one taken again
      const outputId = (await Effect.runPromise(readOutputId(out)))!
      const jobs = await query<{ state: string; retry_count: number; slice: string; part_bytes: string }>(
        (sql) =>
          sql`SELECT state::text AS state, retry_count, data->'slice'->>'id' AS slice, data->>'partBytes' AS part_bytes FROM pgboss.job WHERE name = ${queueName(outputId)}`
      )
      expect(jobs.length).toBe(6)
      expect(jobs.map((j) => j.part_bytes)).toEqual(Array(6).fill(String(3 * 1024 * 1024)))
      expect(new Set(jobs.map((j) => j.slice)).size).toBe(6)
      expect(jobs.every((j) => j.state === "completed")).toBe(true)
      expect(jobs.find((j) => j.slice === victim.slice)!.retry_count).toBeGreaterThanOrEqual(1)
      const checkpoints = (await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE output_id = ${outputId}`)).map((r) => r.state)
      expect(checkpoints.length).toBe(6)
      expect(checkpoints.every((c) => c.status === "done")).toBe(true)
      const parts = (await filesBelow(path.join(out, "primary_blocks"))).map((f) => path.basename(f))
      for (const c of checkpoints) {
        const seqs = parts.filter((p) => p.startsWith(`part-${c.slice}-`)).map((p) => Number(/-(\d+)\.parquet$/.exec(p)?.[1] ?? NaN))
        expect([...new Set(seqs)].sort((a, b) => a - b), c.slice).toEqual(Array.from({ length: new Set(seqs).size }, (_, i) => i + 1))
        expect(Math.max(...seqs)).toBeLessThanOrEqual(c.lastSeq)
      }
      expect(await filesBelow(path.join(out, "_staging"))).toEqual([])

      // equal to one process doing the same backfill alone
      const diffs = await equalsLocal(jobFile, out, path.join(dir, "local"))
      expect(diffs.find((d) => d.dataset === "primary_blocks")!.rowsA).toBeGreaterThan(2_000)
    } finally {
      for (const w of workers) w.kill()
      const exits = await Promise.all(workers.map((w) => w.exited))
      for (const e of exits) expect(e.stderr).not.toContain(PG_PASSWORD)
      // the workers' own account of the handover
      console.log(exits.flatMap((e) => e.stderr.split("\n")).filter((l) => /taken over|lease lost|handed back/.test(l)).join("\n"))
    }
  }, 240_000)

  it("given a worker stalled past its lease (SIGSTOP) mid-slice, when its job goes to another worker, then that worker cannot crawl the slice while the stalled one holds its lock, and once the stalled one resumes it stops and the slice is finished once", async () => {
    const range = ["2025-01-01", "2025-01-02", "12h"] as const
    const { dir, jobFile, out, workers } = await startWorkers(2)
    const env = envOf()
    const enqueuer = startCli(backfillArgs(jobFile, out, ["--distributed"], range), env)
    try {
      const victim = await sliceMidWay(workers)
      const stalled = workers.find((w) => w.pid === victim.pid)!
      const other = workers.find((w) => w.pid !== victim.pid)!
      stalled.child.kill("SIGSTOP")
      const frozen = await checkpointOf(victim)
      // past the lease the job is handed to the other worker, which finds the slice locked
      const handedBack = new Promise<void>((resolve) => other.child.stderr!.on("data", (d: Buffer) => void (d.toString().includes("another worker still holds the slice") ? resolve() : undefined)))
      await Promise.race([handedBack, new Promise((_, reject) => setTimeout(() => reject(new Error("the other worker never asked for the stalled slice")), 60_000))])
      // nobody wrote the slice meanwhile: same holder, same checkpoint
      expect(await holderOf(victim)).toBe(victim.pid)
      expect((await checkpointOf(victim))?.lastSeq).toBe(frozen?.lastSeq)
      stalled.child.kill("SIGCONT")
      const done = await enqueuer.exited
      expect(done.code, done.stderr).toBe(0)
      stalled.kill()
      const stalledExit = await stalled.exited
      // it learnt it had lost the lease and stopped; the slice was finished by the other worker
      expect(stalledExit.stderr).toMatch(/lease or lock lost after .*, stopped/)
      expect((await checkpointOf(victim))?.status).toBe("done")
      await equalsLocal(jobFile, out, path.join(dir, "local"), range)
    } catch (e) {
      // the processes' own account, for a failure seen only on a loaded machine
      console.log([enqueuer, ...workers].map((p) => `--- pid ${p.pid} stderr:\n${p.stderrSoFar()}`).join("\n"))
      throw e
    } finally {
      enqueuer.kill()
      for (const w of workers) {
        w.child.kill("SIGCONT")
        w.kill()
      }
      await Promise.all(workers.map((w) => w.exited))
    }
  }, 180_000)
})
