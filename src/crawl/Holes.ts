/**
 * Holes: records a slice's listing sent that became rejects and that no later pass has written
 * since. A reject keeps its `_rejects` row (the record of what failed) but never makes its slice
 * complete: a slice with holes is not final (Checkpoint.ts `isFinal`), so the next run plans it
 * again, and a listing that revisits (Dataset.ts `Listing.revisits`: a height walk, a fan-out over
 * the output, a window listed whole) asks for the rejected records again. The service may have
 * fixed the record, or a newer chainetl may map it; then it is written like any other and the
 * hole is gone.
 *
 * Counting. A pass counts the holes it meets (`passHoles`, kept across a resume); `holes` changes
 * only when a pass completes, so a planner that reads it (a window listed whole while it has
 * holes) asks the same query for a whole pass and a resumed page token stays valid. A revisiting
 * listing's pass from its first page asks again for everything of the slice not yet written, so
 * its count replaces the holes (a hole filled by another slice, the nightly walk over a backfill
 * cell's height, is simply not met again). A listing that goes on after what it wrote never asks
 * again: its passes add up. Settled answers (a 404, a node's "not found") are rejects but not
 * holes: nothing asks for them again (ToRows.ts).
 *
 * Pure transitions, state in and state out, like CommitPart.ts `advance`.
 */
import type { CheckpointState } from "./Checkpoint.ts"

/** Keys kept per slice: enough to name where a walk's holes start, bounded for a pipeline that rejects everything. */
export const HOLE_KEYS_KEPT = 1_000

/** The holes a pass has met so far. */
export interface PassHoles {
  readonly count: number
  readonly keys: ReadonlyArray<string>
  /** The pass began at the first page of a revisiting listing: on completion it replaces the holes instead of adding to them. */
  readonly replaces: boolean
}

/**
 * The slice's open holes as of its last completed pass; undefined when unknown: a checkpoint
 * written before holes were counted that committed rejects (its next pass from the first page
 * counts them).
 */
export const openHoles = (state: CheckpointState): number | undefined => state.holes ?? (state.rejectsCommitted > 0 ? undefined : 0)

/** Done, with no hole open or unknown: the slice holds every record its listing sent. */
export const isComplete = (state: CheckpointState): boolean => state.status === "done" && openHoles(state) === 0

const capped = (kept: ReadonlyArray<string>, more: ReadonlyArray<string>): ReadonlyArray<string> =>
  more.length === 0 || kept.length >= HOLE_KEYS_KEPT ? kept : [...kept, ...more.slice(0, HOLE_KEYS_KEPT - kept.length)]

/**
 * The checkpoint as a pass of the listing begins (or resumes). A revisiting listing from its first
 * page starts counting afresh; resumed mid-pass it keeps its count (and without one, a pass begun
 * before holes were counted, it counts nothing: the holes stay unknown until a pass from the first
 * page). A listing that never asks again keeps counting; a checkpoint from before holes were
 * counted gets its committed rejects as holes, since nothing will ask for them again.
 */
export const startPass = (state: CheckpointState, revisits: boolean): CheckpointState => {
  const known = state.holes !== undefined || state.rejectsCommitted === 0 || revisits ? state : { ...state, holes: state.rejectsCommitted, holeKeys: [] }
  const base = known.holes === undefined && known.rejectsCommitted === 0 ? { ...known, holes: 0, holeKeys: [] } : known
  if (revisits && base.cursor === null) return { ...base, passHoles: { count: 0, keys: [], replaces: true } }
  if (revisits || (base.passHoles !== undefined && base.passHoles !== null)) return base
  return { ...base, passHoles: { count: 0, keys: [], replaces: false } }
}

/**
 * The holes once pages leaving `count` more (their keys, where the listing names them) are
 * committed; `done`: the pass completes with them.
 */
export const addHoles = (
  before: CheckpointState,
  count: number,
  keys: ReadonlyArray<string>,
  done: boolean
): Pick<CheckpointState, "holes" | "holeKeys" | "passHoles"> => {
  const pass = before.passHoles
  // a pass begun before holes were counted: nothing to add to, the holes stay as they are
  if (pass === undefined || pass === null) return {}
  const met: PassHoles = { ...pass, count: pass.count + count, keys: capped(pass.keys, keys) }
  if (!done) return { passHoles: met }
  return met.replaces
    ? { holes: met.count, holeKeys: met.keys, passHoles: null }
    : { holes: (before.holes ?? 0) + met.count, holeKeys: capped(before.holeKeys ?? [], met.keys), passHoles: null }
}
