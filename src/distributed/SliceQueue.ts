/**
 * The job queue distributed runs use, as a service, so the engine behind it can be swapped
 * (PgBossQueue.ts is the one in use; docs/scale-out.md#distributed-slices says why). What it promises:
 *  - `enqueue` is idempotent per job id: a job already waiting or running is left as it is, one
 *    that finished is queued again;
 *  - `take` hands a job to one worker at a time under a lease of `leaseSeconds`; a worker that
 *    stops renewing it (killed, stalled, cut off) loses it and the job goes to another worker
 *    within about `leaseSeconds` plus the engine's sweep and a poll;
 *  - `renew` says whether the lease is still this worker's (false: another worker may have the job);
 *  - `withdraw` drops jobs no worker has taken yet (a run stopped by a refused key);
 *  - `complete` records the slice's outcome, only while the lease still holds the job (a worker
 *    whose job passed to another changes nothing); `release` hands the job back for another try soon.
 * The lease alone does not keep two workers off one slice (an expired-but-alive worker): the
 * slice lock does (SliceLocks.ts).
 */
import { Context, Data, type Effect } from "effect"
import type { RunSlice } from "../Runner.ts"
import type { SliceJob } from "./SliceJob.ts"

export class QueueError extends Data.TaggedError("QueueError")<{
  readonly reason: "Unavailable" | "Enqueue" | "Take" | "Lease" | "Complete" | "Read"
  readonly detail: string
}> {
  override get message(): string {
    return `job queue: ${this.reason}: ${this.detail}`
  }
}

/** A job as held by one worker: `generation` tells this hold from a later one of the same job. */
export interface Lease {
  readonly id: string
  readonly job: SliceJob
  readonly generation: number
}

export type JobState = "waiting" | "running" | "done" | "failed"

export interface JobOutcome {
  readonly id: string
  readonly state: JobState
  /** What the worker that completed it reported (done), or why the engine gave up (failed). */
  readonly result?: RunSlice
  readonly error?: string
  /** Times the job was taken after its first hold (a worker died or handed it back). */
  readonly retries: number
}

export class SliceQueue extends Context.Tag("chainetl/SliceQueue")<
  SliceQueue,
  {
    readonly leaseSeconds: number
    /** Returns how many of the jobs were already waiting or running (joined, left as they are). */
    readonly enqueue: (jobs: ReadonlyArray<{ readonly id: string; readonly job: SliceJob }>) => Effect.Effect<number, QueueError>
    /** The next job, or none when nothing is waiting. */
    readonly take: Effect.Effect<Lease | undefined, QueueError>
    readonly renew: (lease: Lease) => Effect.Effect<boolean, QueueError>
    readonly complete: (lease: Lease, result: RunSlice) => Effect.Effect<void, QueueError>
    readonly release: (lease: Lease, why: string) => Effect.Effect<void, QueueError>
    /** Jobs not yet taken are dropped (they report as failed); running ones finish. */
    readonly withdraw: (ids: ReadonlyArray<string>) => Effect.Effect<void, QueueError>
    readonly outcomes: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<JobOutcome>, QueueError>
  }
>() {}
