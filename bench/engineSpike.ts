/**
 * Spike (issue 15 item 2): two job queues on PostgreSQL that run on Node 20, compared on what
 * distributed slices need: how soon a SIGKILLed worker's in-flight job is handed to another worker,
 * and what enqueueing and dequeueing cost. `node --import tsx bench/engineSpike.ts [--jobs N]`
 * starts its own PostgreSQL (test/support/postgres.ts) and prints one table.
 * docs/scale-out.md#distributed-slices records the numbers and the choice.
 *
 *  - pg-boss 10: per-job `expireInSeconds`; an expired active job is put back (retry) by the
 *    maintenance loop (`maintenanceIntervalSeconds`, ≥ 1 s). Measured with expiry 5 s.
 *  - graphile-worker 0.17: a locked job is free again only when `locked_at` is 4 hours old (fixed
 *    in its SQL, sql/resetLockedAt.js and get_job; not an option). It can be shortened only from
 *    outside: something that knows the worker is dead calls `graphile_worker.force_unlock_workers`.
 *    Measured: no takeover within 20 s, then the time from such a call to the takeover.
 *
 * Child mode (`--child pgboss|graphile URL QUEUE`): take one job and hang, printing its id.
 */
import { spawn } from "node:child_process"
import { performance } from "node:perf_hooks"
import { startPostgres } from "../test/support/postgres.ts"

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const quiet = () => undefined

const child = async (engine: string, url: string, queue: string) => {
  if (engine === "pgboss") {
    const { default: PgBoss } = await import("pg-boss")
    const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false })
    boss.on("error", quiet)
    await boss.start()
    for (;;) {
      const [job] = await boss.fetch(queue)
      if (job !== undefined) {
        process.stdout.write(`took ${job.id}\n`)
        break
      }
      await sleep(100)
    }
  } else {
    const { run } = await import("graphile-worker")
    await run({
      connectionString: url,
      concurrency: 1,
      pollInterval: 100,
      noHandleSignals: true,
      logger: silentLogger(await import("graphile-worker")),
      taskList: {
        [queue]: async (_payload, helpers) => {
          process.stdout.write(`took ${helpers.job.id}\n`)
          await new Promise(() => undefined)
        }
      }
    })
  }
  await new Promise(() => undefined)
}

const silentLogger = (gw: typeof import("graphile-worker")) => new gw.Logger(() => () => undefined)

/** Starts a child that takes the queue's next job; resolves once it holds it. */
const holder = (engine: string, url: string, queue: string) =>
  new Promise<{ kill: () => number }>((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "--child", engine, url, queue], { stdio: ["ignore", "pipe", "inherit"] })
    p.on("error", reject)
    p.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("took")) resolve({ kill: () => (p.kill("SIGKILL"), performance.now()) })
    })
  })

interface Row {
  engine: string
  enqueueMsPerJob: number
  batchEnqueueMsPerJob: number
  dequeueCompleteMsPerJob: number
  takeover: string
}

const pgBoss = async (url: string, jobs: number): Promise<Row> => {
  const { default: PgBoss } = await import("pg-boss")
  const boss = new PgBoss({ connectionString: url, maintenanceIntervalSeconds: 1, schedule: false })
  boss.on("error", quiet)
  await boss.start()
  await boss.createQueue("cost")
  let t = performance.now()
  for (let i = 0; i < jobs; i++) await boss.send("cost", { i })
  const enqueue = (performance.now() - t) / jobs
  t = performance.now()
  await boss.insert(Array.from({ length: jobs }, (_, i) => ({ name: "cost", data: { i } })))
  const batch = (performance.now() - t) / jobs
  t = performance.now()
  let done = 0
  while (done < 2 * jobs) {
    const [job] = await boss.fetch("cost")
    if (job === undefined) break
    await boss.complete("cost", job.id)
    done++
  }
  const dequeue = (performance.now() - t) / done

  await boss.createQueue("takeover")
  await boss.send("takeover", {}, { expireInSeconds: 5, retryLimit: 5, retryDelay: 0 })
  const h = await holder("pgboss", url, "takeover")
  const killedAt = h.kill()
  for (;;) {
    const [job] = await boss.fetch("takeover")
    if (job !== undefined) break
    await sleep(100)
  }
  const takeover = (performance.now() - killedAt) / 1000
  await boss.stop({ graceful: false, wait: true })
  return { engine: "pg-boss 10.4.2", enqueueMsPerJob: enqueue, batchEnqueueMsPerJob: batch, dequeueCompleteMsPerJob: dequeue, takeover: `${takeover.toFixed(1)} s (expireInSeconds 5, maintenance every 1 s)` }
}

const graphile = async (url: string, jobs: number): Promise<Row> => {
  const gw = await import("graphile-worker")
  const utils = await gw.makeWorkerUtils({ connectionString: url, logger: silentLogger(gw) })
  await utils.migrate()
  let t = performance.now()
  for (let i = 0; i < jobs; i++) await utils.addJob("cost", { i })
  const enqueue = (performance.now() - t) / jobs
  t = performance.now()
  await utils.addJobs(Array.from({ length: jobs }, (_, i) => ({ identifier: "cost", payload: { i } })))
  const batch = (performance.now() - t) / jobs
  t = performance.now()
  let done = 0
  const runner = await gw.run({ connectionString: url, concurrency: 1, pollInterval: 100, noHandleSignals: true, logger: silentLogger(gw), taskList: { cost: async () => void done++ } })
  while (done < 2 * jobs) await sleep(20)
  const dequeue = (performance.now() - t) / done
  await runner.stop()

  await utils.addJob("takeover", {})
  const h = await holder("graphile", url, "takeover")
  const killedAt = h.kill()
  let taken = false
  let takenAt = 0
  const second = await gw.run({
    connectionString: url,
    concurrency: 1,
    pollInterval: 100,
    noHandleSignals: true,
    logger: silentLogger(gw),
    taskList: { takeover: async () => void ((taken = true), (takenAt = performance.now())) }
  })
  await sleep(20_000)
  const within20 = taken
  const forcedAt = performance.now()
  const { rows } = await utils.withPgClient((c) => c.query<{ locked_by: string }>("SELECT locked_by FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL"))
  await utils.forceUnlockWorkers(rows.map((r) => r.locked_by))
  while (!taken) await sleep(20)
  await second.stop()
  await utils.release()
  return {
    engine: "graphile-worker 0.17.3",
    enqueueMsPerJob: enqueue,
    batchEnqueueMsPerJob: batch,
    dequeueCompleteMsPerJob: dequeue,
    takeover: `${within20 ? "taken within 20 s?!" : "none in 20 s"} (4 h lock timeout); ${((takenAt - forcedAt) / 1000).toFixed(1)} s after force_unlock_workers (killed ${((forcedAt - killedAt) / 1000).toFixed(0)} s before)`
  }
}

const main = async () => {
  if (process.argv[2] === "--child") return child(process.argv[3]!, process.argv[4]!, process.argv[5]!)
  const jobs = arg("--jobs", 500)
  const pg = await startPostgres()
  try {
    const rows = [await pgBoss(pg.url, jobs), await graphile(pg.url, jobs)]
    console.log(`${jobs} jobs each way, one client, PostgreSQL on loopback (fsync off), 2 shared cores`)
    console.log("| engine | enqueue, one by one | enqueue, one batch | fetch + complete | takeover of a SIGKILLed worker's job |")
    console.log("|---|---|---|---|---|")
    for (const r of rows) {
      console.log(`| ${r.engine} | ${r.enqueueMsPerJob.toFixed(2)} ms/job | ${r.batchEnqueueMsPerJob.toFixed(3)} ms/job | ${r.dequeueCompleteMsPerJob.toFixed(2)} ms/job | ${r.takeover} |`)
    }
  } finally {
    await pg.stop()
  }
  process.exit(0)
}

await main()
