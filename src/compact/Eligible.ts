/**
 * Which parts compaction may merge: those no later step of the crawler needs as files of their
 * own. The crawler touches a slice's part files in three ways (Crawler.ts):
 *  - recovery deletes parts past the checkpoint (`removePartsAfter(lastSeq)`; lastSeq never goes
 *    down), so a part at or below lastSeq is never deleted by it;
 *  - a replacing listing deletes the parts its new version supersedes (`removePartsBefore`), so a
 *    replacing slice is merged only once final (never run again), and never its superseded parts;
 *  - a listing that restarts from its first page reads back the keys in its slice's part files
 *    (CommittedKeys), unless it excludes committed keys by itself; so such a slice is merged only
 *    once final.
 * A part that satisfies none of these dangers can be merged with any other of its folder. Parts of
 * no known slice (no checkpoint) are never merged: recovery owns them.
 */
import { type CheckpointState, completedBy } from "../crawl/Checkpoint.ts"
import { isComplete } from "../crawl/Holes.ts"

export interface Owner {
  readonly rerun: "never" | "always" | "replace"
  /** The listing skips committed keys by itself (it never reads a slice's parts back). */
  readonly excludesCommitted: boolean
}

/**
 * Done and never run again: a "never" slice once done, a rerunning one once completed at or past
 * its finalAfter; either without holes (a slice with holes is listed again, its keys read back).
 */
export const isFinal = (c: CheckpointState, rerun: Owner["rerun"]): boolean =>
  isComplete(c) && (rerun === "never" || (c.finalAfter !== undefined && c.finalAfter !== null && completedBy(c, c.finalAfter)))

export const mergeable = (seq: number, checkpoint: CheckpointState | undefined, owner: Owner): boolean => {
  if (checkpoint === undefined || seq > checkpoint.lastSeq) return false
  if (checkpoint.keepFromSeq !== null && checkpoint.keepFromSeq !== undefined && seq < checkpoint.keepFromSeq) return false
  if (isFinal(checkpoint, owner.rerun)) return true
  // runs again, but only appends parts past lastSeq and never reads its parts back
  return owner.rerun === "always" && owner.excludesCommitted
}
