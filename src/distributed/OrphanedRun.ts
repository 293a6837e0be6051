/**
 * A worker that finishes a job of a run whose enqueuer is gone (killed: its session no longer
 * holds the distributed-run lock, or another enqueuer has taken the run over) closes that run's
 * report as `interrupted`, so `status` and `report` say so before the next run starts. Only the
 * enqueuer writes a run's report, and one whose lock is gone writes nothing more: the worker
 * cannot race it. On an s3:// output the worker's copy holds no run reports: the next run that
 * holds the output closes it (InterruptedRuns.ts).
 */
import { Effect } from "effect"
import * as os from "node:os"
import { closeInterruptedRun } from "../InterruptedRuns.ts"
import { enqueuerAlive } from "./RunHold.ts"
import type { SliceJob } from "./SliceJob.ts"

/** The run ids closed (none while the job's enqueuer is alive). */
export const closeIfOrphaned = (out: string, job: Pick<SliceJob, "outputId" | "runId">) =>
  Effect.gen(function* () {
    if (yield* enqueuerAlive(job.outputId, job.runId)) return [] as ReadonlyArray<string>
    return yield* closeInterruptedRun(out, job.runId, `worker ${process.pid} on ${os.hostname()}`)
  })
