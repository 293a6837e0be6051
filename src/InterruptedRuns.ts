/**
 * A run whose process died (SIGKILL, a host lost) never writes its final report: its
 * `_runs/<id>.json` would say `running` forever, and `status` and `report` with it. The next run
 * to hold the output closes it. Holding the output proves the others dead: a local run holds the
 * writer lock alone, so no other run writes; a distributed run holds the one distributed-run lock
 * and the writer lock (shared with workers only when it took over a dead run's), so no other
 * enqueuer or local run is alive. Every other report still `running` is then a dead run's, and
 * is marked `interrupted`, naming the run that found it (and whether that one took its jobs over).
 * A worker finishing a job of a distributed run whose enqueuer is gone closes that run's report
 * too (distributed/OrphanedRun.ts), so it does not wait for the next run.
 */
import { Effect, Option } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { replaceFile } from "./files/Durable.ts"
import type { RunReport } from "./Runner.ts"
import type { TookOver } from "./SliceExecution.ts"
import { OutputStore } from "./store/OutputStore.ts"

/** The report of a run found dead by `by` ("run <id>", "worker <pid> on <host>") (pure). */
export const interrupted = (report: RunReport, by: string, tookOver: TookOver | undefined): RunReport => ({
  ...report,
  status: "interrupted",
  error: [
    report.error,
    `interrupted: its process ended before the run finished (found by ${by}${tookOver?.runId === report.runId ? `, which took over its jobs ${tookOver.when}: ${tookOver.why}` : ""})`
  ]
    .filter((e) => e !== null)
    .join("; ")
})

/** Reports name their status in their first lines (Runner.ts writes runId, startedAt, finishedAt, status first). */
const HEAD_BYTES = 1024

/** Whether the report may still say running: only its head is read, as `_runs/` grows by a report per run. */
const mayBeRunning = async (file: string): Promise<boolean> => {
  const handle = await fs.open(file, "r").catch(() => undefined)
  if (handle === undefined) return false
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0)
    return /"status":\s*"running"/.test(buffer.subarray(0, bytesRead).toString("utf8"))
  } finally {
    await handle.close()
  }
}

const readReport = async (file: string): Promise<RunReport | undefined> => {
  try {
    if (!(await mayBeRunning(file))) return undefined
    return JSON.parse(await fs.readFile(file, "utf8")) as RunReport
  } catch {
    // unreadable (torn by hand, another format): not ours to rewrite
    return undefined
  }
}

/**
 * Marks every report of `out/_runs` still `running`, other than run `by`'s own, `interrupted`
 * (and publishes it, an s3:// output). Call only while holding the output. Returns the run ids
 * closed; a report that cannot be rewritten is said and left (the run goes on).
 */
export const closeInterrupted = (out: string, by: string, tookOver: TookOver | undefined) =>
  Effect.flatMap(
    Effect.promise(() => fs.readdir(path.join(out, "_runs")).catch(() => [] as string[])),
    (names) => closeReports(out, names, (r) => r.runId !== by, `run ${by}`, tookOver)
  )

/** Marks run `runId`'s report `interrupted` if it is still `running` (its process known dead), found by `by`. */
export const closeInterruptedRun = (out: string, runId: string, by: string) =>
  // an id as runs make them (Runner.ts newRunId): read from a queue, it must not name another path
  /^[0-9A-Za-z-]+$/.test(runId) ? closeReports(out, [`${runId}.json`], (r) => r.runId === runId, by, undefined) : Effect.succeed([] as string[])

const closeReports = (out: string, names: ReadonlyArray<string>, which: (r: RunReport) => boolean, by: string, tookOver: TookOver | undefined) =>
  Effect.gen(function* () {
    const dir = path.join(out, "_runs")
    const outputStore = yield* Effect.serviceOption(OutputStore)
    const closed: string[] = []
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      const file = path.join(dir, name)
      const report = yield* Effect.promise(() => readReport(file))
      if (report === undefined || report.status !== "running" || !which(report)) continue
      const written = yield* Effect.tryPromise(() => replaceFile(file, JSON.stringify(interrupted(report, by, tookOver), null, 2))).pipe(
        Effect.zipRight(Option.isNone(outputStore) ? Effect.void : outputStore.value.publish([file])),
        Effect.as(true),
        Effect.catchAll((e) => Effect.as(Effect.logWarning(`run report ${file} of an interrupted run not closed: ${e.message}`), false))
      )
      if (written) closed.push(report.runId)
    }
    return closed
  })
