/**
 * What a run tells the outside while it works: one event per slice start, fetched page,
 * committed part, finished slice, and the run's start and end. The CLI turns them into a live
 * view on a terminal, log lines under cron, or JSON lines for machines; the run itself does not
 * care who listens. Optional: without a Progress service in context, emitting does nothing.
 */
import { Context, Effect, Layer } from "effect"

interface Base {
  /** Milliseconds since the epoch, when the event happened. */
  readonly at: number
}

export type ProgressEvent =
  | (Base & {
      readonly type: "run_started"
      readonly runId: string
      readonly mode: "run" | "backfill"
      readonly datasets: ReadonlyArray<string>
      /** Slices planned, the final ones already done included. */
      readonly slices: number
    })
  | (Base & { readonly type: "slice_started"; readonly dataset: string; readonly slice: string; readonly params: Readonly<Record<string, string>> })
  | (Base & {
      readonly type: "page"
      readonly dataset: string
      readonly slice: string
      /** Pages and rows fetched by this run for the slice so far (committed or still buffered). */
      readonly pages: number
      readonly rows: number
    })
  | (Base & {
      readonly type: "part_committed"
      readonly dataset: string
      readonly slice: string
      readonly seq: number
      readonly rows: number
      readonly rejects: number
      /** Pages this part covers. */
      readonly pages: number
    })
  | (Base & {
      readonly type: "slice_finished"
      readonly dataset: string
      readonly slice: string
      readonly status: "done" | "failed" | "skipped"
      readonly pages: number
      readonly rows: number
      readonly rejects: number
      readonly requests: number
      readonly durationMs: number
      readonly error?: string
    })
  | (Base & { readonly type: "run_finished"; readonly runId: string; readonly status: "succeeded" | "failed"; readonly durationMs: number })

export class Progress extends Context.Tag("chainetl/Progress")<
  Progress,
  { readonly emit: (event: ProgressEvent) => Effect.Effect<void> }
>() {
  /** Collects events in memory (tests). */
  static readonly collect = (into: ProgressEvent[]): Layer.Layer<Progress> =>
    Layer.succeed(Progress, { emit: (e) => Effect.sync(() => void into.push(e)) })
}

/** Emits `event` if a Progress service is present; does nothing otherwise. */
export const emit = (event: ProgressEvent): Effect.Effect<void> =>
  Effect.flatMap(Effect.serviceOption(Progress), (p) => (p._tag === "Some" ? p.value.emit(event) : Effect.void))
