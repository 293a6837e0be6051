/**
 * `chainetl run` with CHAINETL_STATE_URL set, as real child processes against a real PostgreSQL:
 * a slice stopped by a failing service resumes from its checkpoint in the database and the output
 * equals a clean run, with no checkpoint file in the folder; a second writer is refused naming the
 * first, and a writer killed with SIGKILL frees the lock at once (its session ends with it).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { readOutputId } from "../../src/state/OutputId.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { campaignJob } from "../reliability/campaign.ts"
import { runArgs, runCli, startCli } from "../reliability/cli.ts"
import { compareCatalogs, filesBelow } from "../reliability/compare.ts"
import { DELEGATORS, forward, startBrokenDelegators, startProxy } from "../support/proxy.ts"
import { runInProcess } from "../support/spine.ts"
import { tempFolders } from "../support/fixtures.ts"
import { PG_PASSWORD, type RunningPostgres, startPostgres } from "../support/postgres.ts"

let pg: RunningPostgres
let emu: RunningEmulator
beforeAll(async () => {
  ;[pg, emu] = await Promise.all([startPostgres(), startEmulator({ seed: 3 })])
}, 60_000)
afterAll(async () => {
  await emu?.close()
  await pg?.stop()
})

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(pgDatabase(Redacted.make(pg.url)))) as Effect.Effect<ReadonlyArray<A>, never>)

const checkpointsOf = async (out: string): Promise<CheckpointState[]> => {
  const id = await Effect.runPromise(readOutputId(out))
  const rows = await query<{ state: CheckpointState }>((sql) => sql`SELECT state FROM chainetl_checkpoints WHERE output_id = ${id!} ORDER BY dataset, slice`)
  return rows.map((r) => r.state)
}


describe("chainetl run with its state in PostgreSQL", () => {
  const pgDir = tempFolders("pg-run")
  it("given delegators' later pages fail beyond the retry budget, when the CLI runs and then reruns once the service heals, then it resumes from the database's checkpoint, equals a clean run, and writes no checkpoint file", async () => {
    const proxy = await startBrokenDelegators(emu.baseUrl)
    try {
      const dir = await pgDir()
      const jobFile = path.join(dir, "job.json")
      const job = campaignJob(emu)
      await fs.writeFile(jobFile, JSON.stringify(job))
      const out = path.join(dir, "out")
      const datasets = ["delegators"]
      const env = {
        CHAINETL_BASE_URL: proxy.url,
        CHAINETL_METRICS_URL: emu.metricsUrl,
        CHAINETL_NODE_URL: emu.nodeUrl,
        CHAINETL_MAX_RETRIES: "1",
        CHAINETL_STATE_URL: pg.url
      }
      const args = runArgs({ datasets, job: jobFile, out, partRows: 20 })

      // 1. delegators' first page commits, its second fails
      const first = await runCli(args, env)
      expect(first.code, first.stderr).toBe(1)
      expect(first.stderr).toMatch(/1 slice\(s\) failed: delegators\//)
      const afterFirst = await checkpointsOf(out)
      expect(afterFirst.find((c) => c.dataset === "delegators")).toMatchObject({ status: "failed", pagesCommitted: 1, rowsCommitted: 100 })
      const firstRunPages = proxy.hits.filter((h) => h.url.pathname === DELEGATORS).length

      // 2. healed: only the pages after the database's checkpoint are fetched
      proxy.heal()
      const second = await runCli(args, env)
      expect(second.code, second.stderr).toBe(0)
      const resumed = proxy.hits.filter((h) => h.url.pathname === DELEGATORS).slice(firstRunPages)
      // the three pages past the checkpoint, never the first (a page retried on a loaded machine
      // is the same page: counted once, as CI once saw 4 requests for 3 pages)
      expect(new Set(resumed.map((h) => h.url.searchParams.get("pageToken"))).size).toBe(3)
      expect(resumed.every((h) => h.url.searchParams.has("pageToken"))).toBe(true)
      expect((await checkpointsOf(out)).every((c) => c.status === "done")).toBe(true)

      // 3. the state lives only in the database: no checkpoint file, no lock file
      expect(await filesBelow(path.join(out, "_state", "checkpoints"))).toEqual([])
      expect(await fs.stat(path.join(out, "_state", "writer.lock")).catch(() => undefined)).toBeUndefined()
      // and the URL's password is in no output of either run
      for (const text of [first.stdout, first.stderr, second.stdout, second.stderr]) expect(text).not.toContain(PG_PASSWORD)

      // 4. equal to a clean run (EXCEPT ALL both ways)
      const cleanOut = await pgDir()
      await runInProcess(cleanOut, emu, { datasets, job })
      const diffs = await compareCatalogs(out, cleanOut, ["snapshot_date"])
      expect(diffs.find((d) => d.dataset === "delegators")?.rowsA).toBe(357)
      expect(diffs.filter((d) => d.onlyA !== 0 || d.onlyB !== 0 || d.rowsA !== d.rowsB)).toEqual([])
    } finally {
      await proxy.close()
    }
  }, 60_000)

  it("given a run holding the PostgreSQL lock, when a second run starts on the same folder, then it is refused naming the first; when the first is SIGKILLed, then the next run gets the lock at once", async () => {
    // slow delegators pages, so the first run holds the lock for seconds
    const proxy = await startProxy(emu.baseUrl, (req) => (req.url.pathname === DELEGATORS ? { kind: "forward", delayMs: 1_500 } : forward))
    try {
      const dir = await pgDir()
      const jobFile = path.join(dir, "job.json")
      await fs.writeFile(jobFile, JSON.stringify(campaignJob(emu)))
      const out = path.join(dir, "out")
      const env = { CHAINETL_BASE_URL: proxy.url, CHAINETL_METRICS_URL: emu.metricsUrl, CHAINETL_NODE_URL: emu.nodeUrl, CHAINETL_STATE_URL: pg.url }
      const args = runArgs({ datasets: ["delegators"], job: jobFile, out, partRows: 20 })
      const holder = startCli(args, env)
      // the holder's row appears once it has the advisory lock
      const deadline = Date.now() + 20_000
      let held: ReadonlyArray<{ run_id: string; pid: number }> = []
      while (held.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
        held = await query<{ run_id: string; pid: number }>((sql) => sql`SELECT run_id, pid FROM chainetl_writer WHERE location = ${out}`)
      }
      expect(held.map((h) => h.pid)).toEqual([holder.pid])

      const refused = await runCli(args, env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(`in use by run ${held[0]!.run_id} (pid ${holder.pid}`)
      expect(refused.stderr).not.toContain(PG_PASSWORD)

      holder.kill()
      await holder.exited
      const next = startCli(args, env)
      // it takes the lock (its own row replaces the killed run's) rather than being refused
      let taken: ReadonlyArray<{ pid: number }> = []
      const deadline2 = Date.now() + 20_000
      while (!taken.some((h) => h.pid === next.pid) && Date.now() < deadline2) {
        await new Promise((r) => setTimeout(r, 100))
        taken = await query<{ pid: number }>((sql) => sql`SELECT pid FROM chainetl_writer WHERE location = ${out}`)
      }
      expect(taken.map((h) => h.pid)).toEqual([next.pid])
      next.kill()
      await next.exited
    } finally {
      await proxy.close()
    }
  }, 60_000)
})
