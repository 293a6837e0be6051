/** What crawling one slice did, as the run report and summary show it. */
import type { CheckpointState } from "./Checkpoint.ts"
import { openHoles } from "./Holes.ts"
import type { Tally } from "./SliceState.ts"
import type { Slice } from "./Slice.ts"

export interface SliceResult {
  readonly dataset: string
  readonly slice: string
  readonly params: Readonly<Record<string, string>>
  /** "not_run": never started, because the run stopped before it (a service refused our credentials). */
  readonly status: "done" | "failed" | "skipped" | "not_run"
  /** Pages, rows and rejects committed by this run (not cumulative). */
  readonly pages: number
  readonly rows: number
  readonly rejects: number
  /**
   * The slice's holes once this run is over: records rejected and not written since (Holes.ts),
   * cumulative, which the next run asks for again. Absent when unknown (a checkpoint from before
   * holes were counted) and in reports written before.
   */
  readonly holes?: number
  /** The first of their keys (up to SHOWN_HOLE_KEYS), where the listing names them. */
  readonly holeKeys?: ReadonlyArray<string>
  /**
   * Records this run could not map that leave a hole (settled answers aside), a record rejected
   * by an earlier run too, whose `_rejects` row is not written again (so `rejects` may be lower).
   */
  readonly holesMet?: number
  readonly restarts: number
  /** Records dropped because the service sent their key again within one pass (first version kept). */
  readonly duplicates: number
  readonly parts: number
  /** Fields the service sent that the dataset does not know (ignored), by name: records carrying each, in committed pages. */
  readonly unknownFields: Readonly<Record<string, number>>
  /** What the slice's requests cost this run (HTTP attempts, retries included). */
  readonly requests: number
  readonly retries: number
  readonly rateLimited: number
  readonly bytes: number
  /** Time its requests waited for the shared limiter or a 429's Retry-After. */
  readonly waitMs: number
  readonly durationMs: number
  readonly error?: string
  /** The failure stops the whole run: a service refused our credentials (401/403). */
  readonly stopsRun?: true
}

/** A slice's result before its requests' cost and duration are added. */
export type Counts = Omit<SliceResult, "requests" | "retries" | "rateLimited" | "bytes" | "waitMs" | "durationMs" | "status"> & {
  readonly status: Exclude<SliceResult["status"], "not_run">
}

/** Hole keys a slice's result names (its checkpoint keeps more). */
export const SHOWN_HOLE_KEYS = 10

const holesOf = (after: CheckpointState) => {
  const holes = openHoles(after)
  if (holes === undefined) return {}
  const keys = after.holeKeys ?? []
  return { holes, ...(keys.length === 0 ? {} : { holeKeys: keys.slice(0, SHOWN_HOLE_KEYS) }) }
}

const between = (slice: Slice, status: Counts["status"], before: CheckpointState, after: CheckpointState): Counts => ({
  dataset: slice.dataset,
  slice: slice.id,
  params: slice.params,
  status,
  pages: after.pagesCommitted - before.pagesCommitted,
  rows: after.rowsCommitted - before.rowsCommitted,
  rejects: after.rejectsCommitted - before.rejectsCommitted,
  ...holesOf(after),
  restarts: after.restarts - before.restarts,
  duplicates: 0,
  parts: 0,
  unknownFields: {}
})

/** A slice final before this run: nothing done. */
export const skipped = (slice: Slice, done: CheckpointState): Counts => between(slice, "skipped", done, done)

/** What this run did to the slice, from the checkpoint it started at to where it got. */
export const counts = (
  slice: Slice,
  status: "done" | "failed",
  state: { readonly checkpoint: CheckpointState; readonly tally: Tally },
  duplicates: number
): Counts => ({
  ...between(slice, status, state.tally.started, state.checkpoint),
  duplicates,
  holesMet: state.tally.holesMet,
  parts: state.tally.parts,
  unknownFields: state.tally.unknownFields
})
