/**
 * The enqueuer's hold on its output (src/distributed/RunHold.ts) on a real PostgreSQL, with the
 * earlier holder played by a plain client session: taken over at once when that session ended
 * (a SIGKILL) or its pid is gone from this host (the session lingering is ended), after one lease
 * when it fell silent, refused while it confirms; joined shared when workers still crawl, refused
 * naming a local run that holds the output. And a local run refused while such workers crawl is
 * told their enqueuer is gone and how to finish the run, not sent after the dead process; a
 * worker closes the report of a run whose enqueuer is gone.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { closeIfOrphaned } from "../../src/distributed/OrphanedRun.ts"
import { holdRun } from "../../src/distributed/RunHold.ts"
import { ensureOutputId } from "../../src/state/OutputId.ts"
import { makePgWriterLock } from "../../src/state/PgWriterLock.ts"
import { pgDatabase } from "../../src/state/PgDatabase.ts"
import { tempFolders } from "../support/fixtures.ts"
import { postgresForTests } from "../support/postgres.ts"

const OUT_DIR = path.join(os.tmpdir(), "chainetl-run-hold-out")
const LEASE_SECONDS = 3
const holdDir = tempFolders("run-hold")
const orphanDir = tempFolders("orphan")
const RUN_LOCK = "hashtextextended('chainetl distributed ' || $1, 0)"
const WRITER_LOCK = "hashtextextended('chainetl writer ' || $1, 0)"

/** The pid of a process that has exited. */
const deadPid = async (): Promise<number> => {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
  await new Promise((resolve) => child.once("exit", resolve))
  return child.pid!
}

describe("the enqueuer's hold on its output", () => {
  const postgres = postgresForTests()

  const withPg = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Scope.Scope>): Promise<A> =>
    Effect.runPromise(Effect.scoped(effect).pipe(Effect.provide(pgDatabase(Redacted.make(postgres().url)))) as Effect.Effect<A>)

  /** A session of its own, as an enqueuer or a worker of another process would hold. */
  const session = async (): Promise<pg.Client> => {
    // the tables first (the layer creates them)
    await withPg(Effect.void)
    const client = new pg.Client({ connectionString: postgres().url })
    // a session the contender ends reports it here
    client.on("error", () => undefined)
    await client.connect()
    return client
  }

  /** An earlier enqueuer: the run lock held by `client`, its row written `confirmedAgoS` ago. */
  const enqueuer = async (client: pg.Client, output: string, row: { pid: number; hostname: string; confirmedAgoS: number }) => {
    await client.query(`SELECT pg_advisory_lock(${RUN_LOCK})`, [output])
    await client.query(
      `INSERT INTO chainetl_enqueuers (output_id, run_id, pid, hostname, backend_pid, started_at, confirmed_at)
       VALUES ($1, 'run-1', $2, $3, pg_backend_pid(), now(), clock_timestamp() - $4 * interval '1 second')`,
      [output, row.pid, row.hostname, row.confirmedAgoS]
    )
    return Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid)
  }

  const backendAlive = (pid: number) =>
    withPg(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}`)).then((r) => r[0]!.n > 0)

  it("given an enqueuer whose session ended with its row left behind (SIGKILLed), when the same run starts, then it takes over at once saying its session had ended", async () => {
    const output = "11111111-0000-4000-8000-000000000001"
    const killed = await session()
    await enqueuer(killed, output, { pid: 4_000_001, hostname: "elsewhere", confirmedAgoS: 0 })
    await killed.end()
    const hold = await withPg(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS))
    expect(hold.tookOver).toEqual({ runId: "run-1", pid: 4_000_001, hostname: "elsewhere", when: "at once", why: "its PostgreSQL session had ended (the server freed its lock)" })
    expect(hold.joined).toBe(false)
  }, 30_000)

  it("given an enqueuer's session lingering while its pid is gone from this host, when the same run starts, then it ends that session and takes over at once", async () => {
    const output = "11111111-0000-4000-8000-000000000002"
    const pid = await deadPid()
    const lingering = await session()
    const backend = await enqueuer(lingering, output, { pid, hostname: os.hostname(), confirmedAgoS: 0 })
    const started = Date.now()
    const hold = await withPg(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS))
    expect(Date.now() - started).toBeLessThan(LEASE_SECONDS * 1000)
    expect(hold.tookOver).toEqual({ runId: "run-1", pid, hostname: os.hostname(), when: "at once", why: `its process (pid ${pid}) no longer runs on this host` })
    expect(await backendAlive(backend)).toBe(false)
  }, 30_000)

  it("given an enqueuer on another host whose session lingers and which confirms no more, when the same run starts, then it takes over after one lease and says so", async () => {
    const output = "11111111-0000-4000-8000-000000000003"
    const lingering = await session()
    const backend = await enqueuer(lingering, output, { pid: 4_000_003, hostname: "elsewhere", confirmedAgoS: 0 })
    const started = Date.now()
    const hold = await withPg(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS))
    const waited = Date.now() - started
    expect(waited).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 500)
    expect(waited).toBeLessThan(LEASE_SECONDS * 1000 + 5_000)
    expect(hold.tookOver).toMatchObject({ runId: "run-1", pid: 4_000_003, hostname: "elsewhere", when: "after its lease" })
    expect(hold.tookOver?.why).toMatch(/^no sign of life for 3\.\d s \(lease 3\.0 s\)$/)
    expect(await backendAlive(backend)).toBe(false)
  }, 30_000)

  it("given a live enqueuer holding the output, when a second one starts, then it is refused within a lease naming the live run", async () => {
    const output = "11111111-0000-4000-8000-000000000004"
    const outcome = await withPg(
      Effect.gen(function* () {
        const first = yield* Scope.make()
        yield* Scope.extend(holdRun(OUT_DIR, output, "run-1", LEASE_SECONDS), first)
        const started = Date.now()
        const second = yield* Effect.either(Effect.scoped(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS)))
        return { second, waited: Date.now() - started }
      })
    )
    expect(outcome.waited).toBeLessThan(LEASE_SECONDS * 1000)
    if (Either.isRight(outcome.second)) throw new Error("the second enqueuer was let in")
    expect(outcome.second.left.reason).toBe("Locked")
    expect(outcome.second.left.detail).toMatch(new RegExp(`^another distributed run .* is under way on this output: run run-1 \\(pid ${process.pid} on ${os.hostname()}\\), alive \\(it confirmed its hold \\d+\\.\\d s ago\\)\\. Wait for it to finish or stop it$`))
  }, 30_000)

  it("given workers of a run without an enqueuer holding the output shared, when a run starts, then it joins them shared instead of refusing", async () => {
    const output = "11111111-0000-4000-8000-000000000005"
    const worker = await session()
    await worker.query(`SELECT pg_advisory_lock_shared(${WRITER_LOCK})`, [output])
    const hold = await withPg(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS))
    expect(hold.joined).toBe(true)
    expect(hold.tookOver).toBeUndefined()
    await worker.end()
  }, 30_000)

  it("given workers still crawling after their enqueuer was killed, when a local run starts, then it is refused saying the enqueuer is gone and how to finish the run, not naming it as the holder", async () => {
    const dir = await holdDir()
    const output = await Effect.runPromise(ensureOutputId(dir))
    const killed = await session()
    await killed.query(`SELECT pg_advisory_lock_shared(${WRITER_LOCK})`, [output])
    await killed.query(
      `INSERT INTO chainetl_writer (output_id, location, run_id, pid, hostname, backend_pid, started_at) VALUES ($1, '/data/out', 'run-1 (distributed)', 4242, 'box', pg_backend_pid(), now())`,
      [output]
    )
    const worker = await session()
    await worker.query(`SELECT pg_advisory_lock_shared(${WRITER_LOCK})`, [output])
    await killed.end()
    const refused = await withPg(
      Effect.either(Effect.flatMap(makePgWriterLock, (lock) => lock.acquire(dir, "local-2")))
    )
    if (Either.isRight(refused)) throw new Error("let in beside the workers")
    expect(refused.left.detail).toBe(
      "workers of distributed run run-1 still crawl this output, and its enqueuer (pid 4242 on box) is gone. Run its --distributed command again to take the run over and finish it, or wait for the workers to finish its jobs"
    )
    await worker.end()
  }, 30_000)

  it("given a distributed run's report still running, when a worker finishes one of its jobs, then it leaves it while the enqueuer lives and closes it as interrupted once the enqueuer is gone", async () => {
    const output = "11111111-0000-4000-8000-000000000008"
    const dir = await orphanDir()
    await fs.mkdir(path.join(dir, "_runs"))
    const running = { runId: "20261207T040000Z-a1b2c3", startedAt: "2026-12-07T04:00:00.000Z", finishedAt: null, status: "running", planned: 6, slices: [], error: null }
    const file = path.join(dir, "_runs", `${running.runId}.json`)
    await fs.writeFile(file, JSON.stringify(running))
    const job = { outputId: output, runId: running.runId }
    const whileAlive = await withPg(
      Effect.gen(function* () {
        yield* holdRun(OUT_DIR, output, running.runId, LEASE_SECONDS)
        return yield* closeIfOrphaned(dir, job)
      })
    )
    expect(whileAlive).toEqual([])
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual(running)
    // the enqueuer's scope has closed: its lock is gone, as a killed one's would be
    expect(await withPg(closeIfOrphaned(dir, job))).toEqual([running.runId])
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({
      ...running,
      status: "interrupted",
      error: `interrupted: its process ended before the run finished (found by worker ${process.pid} on ${os.hostname()})`
    })
  }, 30_000)

  it("given a local run holding the output, when a distributed run starts, then it is refused naming that run", async () => {
    const output = "11111111-0000-4000-8000-000000000006"
    const local = await session()
    await local.query(`SELECT pg_advisory_lock(${WRITER_LOCK})`, [output])
    await local.query(
      `INSERT INTO chainetl_writer (output_id, location, run_id, pid, hostname, backend_pid, started_at) VALUES ($1, '/data/out', 'local-1', 777, 'box', pg_backend_pid(), now())`,
      [output]
    )
    const refused = await withPg(Effect.either(holdRun(OUT_DIR, output, "run-2", LEASE_SECONDS)))
    if (Either.isRight(refused)) throw new Error("let in beside a local run")
    expect(refused.left.detail).toBe("output folder is in use by run local-1 (pid 777 on box). Wait for it to finish or stop it")
    await local.end()
  }, 30_000)
})
