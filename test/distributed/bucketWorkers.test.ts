/**
 * Issue 15's "Done when", with real components: a PostgreSQL from the OS packages, s3rver in this
 * process, the emulator requiring one of two API keys and noting when each key's requests arrive,
 * three `chainetl worker` processes and `chainetl backfill --distributed --out s3://…`, the job
 * giving the two keys budgets (C-chain blocks at scale 20: six 8-hour windows, about six pages each).
 * The third worker starts after the jobs are queued (a worker added mid-run: its own default budgets
 * must not replace the job's). One worker is SIGKILLed the moment s3rver has stored one of its
 * parts (seq ≥ 2: at least its third, so the slice is mid-way, that part past its checkpoint): another takes the slice
 * over, and then
 *  - the bucket's rows, downloaded through the SDK and read with DuckDB, equal a single-process
 *    backfill of the same job into a folder (EXCEPT ALL both ways);
 *  - every slice was committed exactly once: one completed job, one checkpoint, its parts 0..n
 *    each once in the bucket or replaced by a listed compacted file (n ≤ its last seq), and no
 *    object the output does not account for;
 *  - counted at the emulator, no key sent more than its budget allows in any window;
 *  - no secret (the API keys, the S3 secret, the database password) is in any object, job payload
 *    or log line.
 */
import { Effect, Redacted } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogEntries } from "../../src/catalogEntries.ts"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { queueName } from "../../src/distributed/SliceJob.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import type { RunReport } from "../../src/Runner.ts"
import { buildCatalog } from "../../src/sink/Catalog.ts"
import { fileSet, readManifest } from "../../src/compact/Manifest.ts"
import { keyId } from "../../src/ApiKeys.ts"
import { tempFolders } from "../support/fixtures.ts"
import { queryPg } from "../support/pgQuery.ts"
import { until } from "../support/until.ts"
import { type CliExit, type CliProcess, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs } from "../reliability/compare.ts"
import { expectWithinBudgets, withLoopStalls } from "../support/keyWindows.ts"
import { PG_PASSWORD, type RunningPostgres, startPostgres } from "../support/postgres.ts"
import { type RunningS3, S3_BUCKET, S3_SECRET, startS3 } from "../support/s3.ts"

const ALPHA = "ka-alpha-Bucket-W0rkers-N0t-T0-Leak"
const BETA = "kb-beta-Bucket-W0rkers-N0t-T0-Leak"
// low enough that three workers crawling freely (a worker's default is 20/s) would exceed them
const BUDGETS = { alpha: { rate: 2, burst: 1 }, beta: { rate: 1, burst: 1 } }
// three CLI processes and this test's emulator and s3rver on two shared cores: arrivals lag sends by up to this
const JITTER_MS = 150
const LEASE_SECONDS = 6
const PREFIX = "fleet"
const SECRETS = [ALPHA, BETA, S3_SECRET, PG_PASSWORD, encodeURIComponent(PG_PASSWORD)]

let pg: RunningPostgres
let s3: RunningS3
let emu: RunningEmulator
const workersDir = tempFolders("bucket-workers")
let dir: string
let jobFile: string
beforeAll(async () => {
  ;[pg, s3, emu, dir] = await Promise.all([
    startPostgres(),
    startS3(),
    startEmulator({ seed: 1, scale: 20, recordKeyArrivals: true, auth: { mode: "required", validKeys: [ALPHA, BETA] } }),
    workersDir()
  ])
  jobFile = path.join(dir, "job.json")
  await fs.writeFile(jobFile, JSON.stringify({ networks: ["mainnet"], primaryBlockchains: ["c-chain"], apiKeys: BUDGETS }))
}, 60_000)
afterAll(async () => {
  await emu?.close()
  await s3?.stop()
  await pg?.stop()
})

const query = queryPg(() => pg.url)

const backfillArgs = (out: string, extra: ReadonlyArray<string> = []) =>
  ["backfill", "primary_blocks", "--from", "2024-12-31", "--to", "2025-01-02", "--window", "8h", "--part-rows", "20", "--job", jobFile, "--out", out, "--quiet", ...extra]

const env = () => ({
  ...s3.env,
  CHAINETL_BASE_URL: emu.baseUrl,
  CHAINETL_METRICS_URL: emu.metricsUrl,
  CHAINETL_NODE_URL: emu.nodeUrl,
  CHAINETL_API_KEYS: `alpha=${ALPHA},beta=${BETA}`,
  CHAINETL_STATE_URL: pg.url,
  CHAINETL_STAGING_DIR: path.join(dir, "staging"),
  CHAINETL_WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
  CHAINETL_QUEUE_SWEEP_SECONDS: "1",
  CHAINETL_QUEUE_POLL_MS: "200"
})

const saysServing = (w: CliProcess) =>
  new Promise<void>((resolve) => w.child.stderr!.on("data", (d: Buffer) => void (d.toString().includes(": serving ") ? resolve() : undefined)))

type Held = { pid: number; dataset: string; slice: string }
const holders = () => query<Held>((sql) => sql`SELECT pid, dataset, slice FROM chainetl_slice_holders`)

interface Kill {
  readonly victim: Held
  readonly key: string
  readonly seq: number
  readonly at: number
}

/**
 * SIGKILLs the worker holding a slice the moment s3rver has stored that slice's part `seq` ≥ 2
 * (s3rver emits the event after storing, before answering: the worker never hears back, so its
 * checkpoint stays behind the part). Who holds which slice is polled from PostgreSQL beforehand,
 * since the kill must be synchronous.
 */
const killMidSlice = (workers: ReadonlyArray<CliProcess>): Promise<Kill> =>
  new Promise((resolve) => {
    let held: ReadonlyArray<Held> = []
    let stop = false
    const poll = async () => {
      while (!stop) {
        held = await holders().catch(() => held)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    void poll()
    const onEvent = (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => {
      const r = event.Records[0]!
      const key = decodeURIComponent(r.s3.object.key)
      const m = /\/part-([a-z0-9_-]+)-(\d{6})\.parquet$/.exec(key)
      if (!r.eventName.startsWith("ObjectCreated") || m === null || Number(m[2]) < 2 || !key.startsWith(`${PREFIX}/primary_blocks/`)) return
      const victim = held.find((h) => h.slice === m[1] && workers.some((w) => w.pid === h.pid))
      if (victim === undefined) return
      workers.find((w) => w.pid === victim.pid)!.kill()
      stop = true
      s3.server.off("event", onEvent)
      resolve({ victim, key: key.slice(PREFIX.length + 1), seq: Number(m[2]), at: Date.now() })
    }
    s3.server.on("event", onEvent)
  })

const arrivalsIn = (key: string, from: number, to: number) => (emu.keyArrivals().get(key) ?? []).filter((t) => t >= from && t <= to)

describe("chainetl worker on an s3:// output", () => {
  it("given a worker on an s3:// output without CHAINETL_STATE_URL, when it starts, then it is refused (exit 2) naming the variable, and nothing is written to the bucket", async () => {
    const { CHAINETL_STATE_URL: _, ...rest } = env()
    const refused = await runCli(["worker", "--out", `s3://${S3_BUCKET}/no-state`], rest)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("CHAINETL_STATE_URL")
    expect(refused.stderr).not.toContain("not supported")
    for (const secret of SECRETS) expect(refused.stdout + refused.stderr).not.toContain(secret)
    expect(await s3.keys("no-state")).toEqual([])
  }, 60_000)

  it("given three workers, two API keys with job budgets and a distributed backfill into a bucket, when one worker is SIGKILLed mid-slice, then the bucket equals a local backfill, every slice is committed once, no key exceeds its budget and no secret is anywhere", async () => {
    const out = `s3://${S3_BUCKET}/${PREFIX}`
    const workers: CliProcess[] = []
    const exits: CliExit[] = []
    let enqueued: CliExit | undefined
    let kill: Kill | undefined
    let takeoverSeconds = 0
    let successor: number | undefined
    let behind: CheckpointState | undefined
    const start = performance.now()
    const { stallMs } = await withLoopStalls(async () => {
      try {
        for (let i = 0; i < 2; i++) workers.push(startCli(["worker", "--out", out, "--concurrency", "1"], env()))
        const enqueuer = startCli(backfillArgs(out, ["--distributed"]), env())
        // the third worker joins once the jobs are queued: a worker added mid-run
        await until("the slice jobs", async () => {
          const n = await query<{ n: number }>((sql) => sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name LIKE 'chainetl-slices-%'`).catch(() => [{ n: 0 }])
          return n[0]!.n >= 6 ? true : undefined
        })
        const late = startCli(["worker", "--out", out, "--concurrency", "1"], env())
        workers.push(late)
        await saysServing(late)
        kill = await killMidSlice(workers)
        const k = kill
        // the dead worker's checkpoint, before anyone takes the slice over (a lease at least)
        behind = (await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE dataset = ${k.victim.dataset} AND slice = ${k.victim.slice}`))[0]?.state
        successor = await until(
          "the slice's takeover",
          async () => (await holders()).find((h) => h.slice === k.victim.slice && h.pid !== k.victim.pid)?.pid,
          120_000
        )
        takeoverSeconds = (Date.now() - kill.at) / 1000
        enqueued = await enqueuer.exited
      } finally {
        for (const w of workers) w.child.kill("SIGTERM")
        exits.push(...(await Promise.all(workers.map((w) => w.exited))))
      }
    })
    const end = performance.now()
    console.log(
      `takeover of ${kill?.victim.dataset}/${kill?.victim.slice} (killed when ${kill?.key} was stored): ${takeoverSeconds.toFixed(1)} s after SIGKILL (lease ${LEASE_SECONDS} s, sweep 1 s, poll 0.2 s), by pid ${successor}`
    )
    console.log(exits.flatMap((e) => e.stderr.split("\n")).filter((l) => /taken over|lease lost|handed back/.test(l)).join("\n"))
    expect(enqueued?.code, enqueued?.stderr).toBe(0)
    expect(takeoverSeconds).toBeGreaterThan(0)
    expect(takeoverSeconds).toBeLessThan(LEASE_SECONDS + 30)
    const victim = kill!.victim

    // every slice committed once: one completed job per slice (the victim's taken again), one
    // checkpoint each, done
    const outputId = (await s3.bytes(`${PREFIX}/_state/output-id`)).toString("utf8").trim()
    const jobs = await query<{ state: string; retry_count: number; slice: string; data: string }>(
      (sql) => sql`SELECT state::text AS state, retry_count, data->'slice'->>'id' AS slice, data::text AS data FROM pgboss.job WHERE name = ${queueName(outputId)}`
    )
    expect(jobs.length).toBe(6)
    expect(new Set(jobs.map((j) => j.slice)).size).toBe(6)
    expect(jobs.every((j) => j.state === "completed")).toBe(true)
    expect(jobs.find((j) => j.slice === victim.slice)!.retry_count).toBeGreaterThanOrEqual(1)
    // the job's budgets travelled with each job, by the keys' digests
    const payload = JSON.parse(jobs[0]!.data) as { keyBudgets?: unknown }
    expect(payload.keyBudgets).toEqual([
      { id: keyId(Redacted.make(ALPHA)), name: "alpha", ...BUDGETS.alpha },
      { id: keyId(Redacted.make(BETA)), name: "beta", ...BUDGETS.beta }
    ])
    const checkpoints = (await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE output_id = ${outputId}`)).map((r) => r.state)
    expect(checkpoints.length).toBe(6)
    expect(checkpoints.every((c) => c.status === "done")).toBe(true)

    // the bucket: downloaded through the SDK, catalogued, every object accounted for
    const copy = path.join(dir, "download")
    const keys = (await s3.download(PREFIX, copy)).map((k) => k.slice(PREFIX.length + 1))
    await Effect.runPromise(buildCatalog(copy, catalogEntries()))
    const tables = [...new Set(keys.filter((k) => k.endsWith(".parquet")).map((k) => k.split("/")[0]!))]
    const sets = await Promise.all(tables.map((t) => fileSet(copy, t)))
    const compacted = new Set(sets.flatMap((s) => s.compacted).map((f) => path.relative(copy, f)))
    // a manifest's replaced parts are gone from the bucket; its compacted files are all there
    expect(sets.flatMap((s) => [...s.replaced, ...s.orphans])).toEqual([])
    const partSeqs = new Map<string, number[]>()
    const unaccounted: string[] = []
    for (const k of keys) {
      const part = /^(?:primary_blocks|_rejects)\/.*\/part-([a-z0-9_-]+)-(\d{6})\.parquet$/.exec(k)
      if (part !== null) partSeqs.set(part[1]!, [...(partSeqs.get(part[1]!) ?? []), Number(part[2])])
      else if (!(compacted.has(k) || /^_state\/(output-id|manifests\/[a-z_]+\.json|schemas\/[a-z_]+\.json)$/.test(k) || /^_runs\/[^/]+\.json$/.test(k) || k === "catalog.sql")) unaccounted.push(k)
    }
    expect(unaccounted).toEqual([])
    const replacedSeqs = new Map<string, number[]>()
    for (const t of tables) {
      for (const entry of (await readManifest(copy, t)).files) {
        for (const { slice, seq } of entry.replaces.flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, i) => ({ slice: r.slice, seq: r.from + i })))) {
          replacedSeqs.set(slice, [...(replacedSeqs.get(slice) ?? []), seq])
        }
      }
    }
    for (const c of checkpoints) {
      // a part may span partitions (its seq once in each); every seq from the first (0) on, none past the checkpoint
      const seqs = [...(partSeqs.get(c.slice) ?? []), ...(replacedSeqs.get(c.slice) ?? [])]
      const distinct = [...new Set(seqs)].sort((a, b) => a - b)
      expect(distinct, c.slice).toEqual(Array.from({ length: distinct.length }, (_, i) => i))
      expect(Math.max(...distinct), c.slice).toBeLessThanOrEqual(c.lastSeq)
    }
    // the part stored when its writer was killed was past that slice's checkpoint (data first,
    // checkpoint second); its successor removed it in recovery and wrote that seq again, once
    expect(behind?.status).toBe("running")
    expect(behind!.lastSeq).toBeLessThan(kill!.seq)
    expect([...(partSeqs.get(victim.slice) ?? []), ...(replacedSeqs.get(victim.slice) ?? [])]).toContain(kill!.seq)

    // the run report: every slice done
    const reports = await Promise.all(keys.filter((k) => k.startsWith("_runs/")).map(async (k) => JSON.parse((await s3.bytes(`${PREFIX}/${k}`)).toString("utf8")) as RunReport))
    const report = reports.find((r) => r.status === "succeeded")!
    expect(report.slices.map((s) => s.status)).toEqual(Array(6).fill("done"))

    // counted at the emulator: both keys carried the crawl, neither beyond its budget in any window
    const alpha = arrivalsIn(ALPHA, start, end)
    const beta = arrivalsIn(BETA, start, end)
    expect(alpha.length + beta.length).toBeGreaterThanOrEqual(report.slices.length * 5)
    expect(beta.length).toBeGreaterThan(3)
    expectWithinBudgets({ alpha: { arrivals: alpha, budget: BUDGETS.alpha }, beta: { arrivals: beta, budget: BUDGETS.beta } }, [500, 1_000, 3_000], JITTER_MS + stallMs, ` (loop stall ${stallMs} ms)`)
    expect(emu.state().requests.rateLimited).toBe(0)

    // the same backfill by one process alone, into a folder: the bucket equals it
    const local = path.join(dir, "local")
    const { CHAINETL_STATE_URL: _, ...localEnv } = env()
    const alone = await runCli(backfillArgs(local), localEnv)
    expect(alone.code, alone.stderr).toBe(0)
    const diffs = await compareCatalogs(copy, local)
    expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    expect(diffs.find((d) => d.dataset === "primary_blocks")!.rowsA).toBeGreaterThan(2_000)

    // no secret in any object, job payload or log line
    for (const k of keys) {
      const bytes = await s3.bytes(`${PREFIX}/${k}`)
      for (const secret of SECRETS) expect(bytes.includes(secret), `a secret in ${k}`).toBe(false)
    }
    for (const j of jobs) for (const secret of SECRETS) expect(j.data).not.toContain(secret)
    for (const e of [...exits, enqueued!, alone]) for (const secret of SECRETS) expect(e.stdout + e.stderr).not.toContain(secret)
  }, 180_000)
})
