/**
 * Issue 15, "a slice never runs twice at once", for a worker cut off from PostgreSQL but not
 * killed (a network partition the server noticed and the worker did not). Real components: a
 * PostgreSQL from the OS packages, the emulator, `chainetl backfill --distributed` and two
 * `chainetl worker` processes sharing one output folder (C-chain blocks at scale 20, two 12-hour
 * windows of about eight pages each, a part per page).
 *
 * Worker A reaches PostgreSQL through a TCP proxy that can cut it off (test/support/pgPartition.ts:
 * the server's side of every connection closed, so the server ends A's sessions and frees its
 * advisory locks; A's side kept open and silent, new connections too), and the emulator through an
 * HTTP proxy that forwards A's first two block pages and holds every later one, then answers it
 * altered (every block's `blockSizeBytes` + 1,000,000: valid for the schema, wrong) once the run is
 * over: more than a lease later. So:
 *  1. A alone crawls its first slice: two parts committed, checkpoint saved, its third page asked
 *     for and held;
 *  2. the cut: the server drops A's sessions (checked in pg_stat_activity), A is left waiting on
 *     the held page;
 *  3. worker B starts, takes the other slice and, after the lease, A's, resumes it from A's
 *     checkpoint and finishes the backfill (the enqueuer exits 0);
 *  4. A's held page is answered, altered. Nothing may reach the output from A now: its slice is
 *     B's, done. On the current code A writes its next part (the name of one of B's parts) and
 *     only then learns, at its checkpoint save, that it lost the slice.
 * The test waits for A's write (a Parquet file of the output's tables changed after the run),
 * bounded by the lease and some (SETTLE_MS after A's altered page went out), then checks the output equals a single-process backfill (EXCEPT ALL both ways),
 * every slice has one checkpoint, done, and no file of the output changed after the run finished.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { queueName } from "../../src/distributed/SliceJob.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { readOutputId } from "../../src/state/OutputId.ts"
import { tempFolders } from "../support/fixtures.ts"
import { type CliExit, type CliProcess, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs, filesBelow } from "../reliability/compare.ts"
import { forward, type Proxy, startProxy } from "../support/proxy.ts"
import { type PgPartition, startPgPartition } from "../support/pgPartition.ts"
import { type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { queryPg } from "../support/pgQuery.ts"
import { until } from "../support/until.ts"

const RANGE = ["2025-01-01", "2025-01-02", "12h"] as const
const SLICES = 2
const LEASE_SECONDS = 6
/** A's block pages forwarded untouched before the rest are held: two parts committed. */
const PAGES_BEFORE_CUT = 2
/** How long after A's altered page went out a write of A's still counts: its part is a page's decoding and a Parquet write away. */
const SETTLE_MS = LEASE_SECONDS * 1000 + 4_000
/** What the altered pages add to every block's size: stays an int64, differs from the emulator's. */
const SKEW = 1_000_000

let pg: RunningPostgres
let emu: RunningEmulator
let pgProxy: PgPartition
let httpProxy: Proxy
const processes: CliProcess[] = []
// removed after the afterAll below has stopped the processes writing there
const partitionDir = tempFolders("dist-partition")

/** A's block pages after the first PAGES_BEFORE_CUT: held until `open()`, then answered altered. */
let open: () => void = () => undefined
const gate = new Promise<void>((resolve) => (open = resolve))
const held: number[] = []
const alteredSent: Array<{ at: number; blocks: number }> = []
let blockPages = 0

const alter = (body: string): string => {
  let blocks = 0
  const out = body.replace(/"blockSizeBytes":(\d+)/g, (_, n: string) => {
    blocks++
    return `"blockSizeBytes":${Number(n) + SKEW}`
  })
  alteredSent.push({ at: Date.now(), blocks })
  return out
}

beforeAll(async () => {
  ;[pg, emu] = await Promise.all([startPostgres(), startEmulator({ seed: 1, scale: 20 })])
  pgProxy = await startPgPartition({ host: "127.0.0.1", port: pg.port })
  httpProxy = await startProxy(emu.baseUrl, (req) => {
    if (!req.url.pathname.endsWith("/blocks")) return forward
    if (++blockPages <= PAGES_BEFORE_CUT) return forward
    held.push(Date.now())
    // more than a lease in any case; in fact until the run is over (the test opens the gate)
    return { kind: "forward", delayMs: (LEASE_SECONDS + 1) * 1000, after: gate, rewrite: alter }
  })
}, 60_000)
afterAll(async () => {
  open()
  for (const p of processes) p.kill()
  await Promise.all(processes.map((p) => p.exited))
  await httpProxy?.close()
  await pgProxy?.close()
  await emu?.close()
  await pg?.stop()
})

const query = queryPg(() => pg.url)

const backfillArgs = (job: string, out: string, extra: ReadonlyArray<string> = []) =>
  ["backfill", "primary_blocks", "--from", RANGE[0], "--to", RANGE[1], "--window", RANGE[2], "--part-rows", "20", "--job", job, "--out", out, "--quiet", ...extra]

const queueEnv = {
  CHAINETL_WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
  CHAINETL_QUEUE_SWEEP_SECONDS: "1",
  CHAINETL_QUEUE_POLL_MS: "200"
}

const start = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const p = startCli(args, env)
  processes.push(p)
  return p
}

/**
 * Every Parquet file of the output's tables (not `_staging`: a part staged and never renamed in
 * reaches no reader) with its identity: a rename over one, or a new one, shows.
 */
const snapshot = async (dir: string): Promise<Map<string, string>> => {
  const files = (await filesBelow(dir)).filter((f) => f.endsWith(".parquet") && !f.startsWith("_staging"))
  const entries = await Promise.all(
    files.map(async (f) => {
      const s = await fs.stat(path.join(dir, f)).catch(() => undefined)
      return [f, s === undefined ? "gone" : `${s.ino}:${s.size}:${s.mtimeMs}`] as const
    })
  )
  return new Map(entries)
}

const changedSince = (before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] =>
  [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f)).sort()

describe("chainetl worker cut off from PostgreSQL", () => {
  it("given a worker whose PostgreSQL connections are cut (the server drops its sessions, the worker hears nothing) mid-slice, when another worker takes the slice over and the run finishes, then nothing the cut-off worker fetches afterwards reaches the output: it equals a local backfill and every slice has one checkpoint, done", async () => {
    const dir = await partitionDir()
    const jobFile = path.join(dir, "job.json")
    await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"] }))
    const out = path.join(dir, "out")
    const direct = { CHAINETL_BASE_URL: emu.baseUrl, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl }

    // 1. A alone, through both proxies; its page requests may wait for the gate far longer than the default 30 s
    const a = start(["worker", "--out", out, "--concurrency", "1"], {
      ...direct,
      ...queueEnv,
      CHAINETL_BASE_URL: httpProxy.url,
      CHAINETL_STATE_URL: pgProxy.via(pg.url),
      CHAINETL_TIMEOUT_MS: "600000"
    })
    const enqueuer = start(backfillArgs(jobFile, out, ["--distributed", "--no-compact"]), { ...direct, ...queueEnv, CHAINETL_STATE_URL: pg.url })
    let b: CliProcess | undefined
    try {
      await until("A's third block page (held)", async () => (held.length > 0 ? true : undefined), 60_000)
      // A asks for a page only once the previous one's part and checkpoint are committed (no prefetch)
      const [mine] = await query<{ dataset: string; slice: string; backend_pid: number }>(
        (sql) => sql`SELECT dataset, slice, backend_pid FROM chainetl_slice_holders WHERE pid = ${a.pid}`
      )
      expect(mine, "A holds a slice").toBeDefined()
      const [before] = await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE dataset = ${mine!.dataset} AND slice = ${mine!.slice}`)
      expect(before?.state.status).toBe("running")
      expect(before?.state.rowsCommitted).toBeGreaterThan(0)
      // parts 0 and 1: a part per page
      expect(before?.state.lastSeq).toBe(PAGES_BEFORE_CUT - 1)

      // 2. the cut; the server ends A's sessions (its slice lock goes with them)
      const ports = pgProxy.upstreamPorts()
      expect(ports.length).toBeGreaterThan(0)
      pgProxy.cut()
      await until(
        "the server to drop A's sessions",
        async () => {
          const rows = await query<{ n: number }>(
            (sql) => sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE client_port = ANY(${ports}::int[]) OR pid = ${mine!.backend_pid}`
          )
          return rows[0]!.n === 0 ? true : undefined
        },
        15_000
      )
      console.log(`cut at ${new Date(pgProxy.cutAt!).toISOString()}: A (pid ${a.pid}) held ${mine!.dataset}/${mine!.slice} at seq ${before!.state.lastSeq}; the server dropped its ${ports.length} session(s)`)

      // 3. B, straight to PostgreSQL and the emulator, takes the other slice and A's after the lease
      b = start(["worker", "--out", out, "--concurrency", "1"], { ...direct, ...queueEnv, CHAINETL_STATE_URL: pg.url })
      const done: CliExit = await enqueuer.exited
      expect(done.code, done.stderr).toBe(0)
      const finishedAt = Date.now()
      const outputId = (await Effect.runPromise(readOutputId(out)))!
      const checkpoints = async () =>
        (await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE output_id = ${outputId}`)).map((r) => r.state)
      const afterRun = await checkpoints()
      expect(afterRun.map((c) => c.status)).toEqual(Array(SLICES).fill("done"))
      const jobs = await query<{ state: string; retry_count: number; slice: string }>(
        (sql) => sql`SELECT state::text AS state, retry_count, data->'slice'->>'id' AS slice FROM pgboss.job WHERE name = ${queueName(outputId)}`
      )
      expect(jobs.map((j) => j.state)).toEqual(Array(SLICES).fill("completed"))
      // A's slice went to B through the queue: taken again after the lease
      expect(jobs.find((j) => j.slice === mine!.slice)?.retry_count).toBeGreaterThanOrEqual(1)

      // 4. the run is over and the output the run's: now A's held page is answered (altered), and
      // whatever A does with it must not reach the output
      const outputAtEnd = await snapshot(out)
      const openedAt = Date.now()
      open()
      let changed: string[] = []
      await until(
        "A's write, or the settle time after its altered page",
        async () => {
          changed = changedSince(outputAtEnd, await snapshot(out))
          if (changed.length > 0) return true
          const sentAt = alteredSent[0]?.at ?? openedAt
          return Date.now() - sentAt > SETTLE_MS ? true : undefined
        },
        SETTLE_MS * 3
      )
      // a moment more: A may have written more than one file
      await new Promise((r) => setTimeout(r, 1_000))
      changed = changedSince(outputAtEnd, await snapshot(out))
      const aExit = a.child.exitCode ?? a.child.signalCode
      console.log(
        `run finished ${((finishedAt - pgProxy.cutAt!) / 1000).toFixed(1)} s after the cut; A's held pages: ${held.length}, answered altered: ${alteredSent
          .map((s) => `${s.blocks} blocks ${((s.at - finishedAt) / 1000).toFixed(1)} s after the run`)
          .join(", ")}; A ${aExit === null ? "still running" : `exited (${String(aExit)})`}; ` +
          `A's connections after the cut: ${pgProxy.connectionsAfterCut}; files of the output changed after the run: ${changed.length === 0 ? "none" : changed.join(", ")}`
      )

      // the output equals one process doing the same backfill alone
      const localOut = path.join(dir, "local")
      const alone = await runCli(backfillArgs(jobFile, localOut), direct)
      expect(alone.code, alone.stderr).toBe(0)
      const diffs = await compareCatalogs(out, localOut)
      expect(diffs.find((d) => d.dataset === "primary_blocks")!.rowsB).toBeGreaterThan(1_000)
      expect(
        diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB),
        `rows differ from a local backfill; files of the output changed after the run finished (by the cut-off worker A, pid ${a.pid}): ${changed.join(", ") || "none"}`
      ).toEqual([])
      // every slice has one checkpoint, done (A's refused saves moved none)
      expect((await checkpoints()).map((c) => c.status)).toEqual(Array(SLICES).fill("done"))
      expect(changed, "files of the output changed after the run finished (written by the cut-off worker)").toEqual([])
    } finally {
      // the workers' own account (A on the current code never hears back: it is killed here)
      for (const w of [a, b, enqueuer]) w?.kill()
      const [aEnd, bEnd, eEnd] = await Promise.all([a.exited, b?.exited, enqueuer.exited])
      const tail = (text: string) => text.trim().split("\n").slice(-15).join("\n")
      console.log(`A (cut off, pid ${a.pid}):\n${aEnd.stderr.trim()}\nB (pid ${b?.pid}):\n${bEnd?.stderr.trim() ?? "(not started)"}\nenqueuer (last lines):\n${tail(eEnd.stderr)}`)
    }
  }, 120_000)
})
