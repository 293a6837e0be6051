/**
 * A writer's right to write a slice's files, which can lapse while the writer runs: a distributed
 * worker holds it through the slice's PostgreSQL lock (src/distributed/SliceFence.ts). A local run
 * has no fence: its output lock is held for the whole run.
 *
 * Files carry no fencing token a reader could check, so the right is a lease in time: `deadline`
 * answers with a moment (this process's `performance.now()`) before which a write may land, and the
 * writer's successor waits out the lease of its predecessor's last confirmation before it reads or
 * writes anything (a lock delay). The sink checks the deadline before each rename, bounds each
 * upload by it, and once the right is lost touches nothing more: not even its own take-back, since
 * a file of the same name may already be the successor's.
 */
import { SinkError } from "../Errors.ts"

export interface PartFence {
  /**
   * A moment (performance.now() ms) at least `needMs` away before which writes may land,
   * confirming the right again when the last confirmation is too old. Rejects with a SinkError
   * "Locked" (`isFenceLost`) once the right may be someone else's.
   */
  readonly deadline: (needMs: number) => Promise<number>
}

/** How long a rename, an fsync or a delete may take once started: a confirmation older than this is renewed first. */
export const QUICK_WRITE_MS = 1_000

const LOST = "this worker lost the slice's lock"

export const fenceLost = (where: string, why: string): SinkError =>
  new SinkError({ reason: "Locked", path: where, detail: `${LOST} (${why}); it writes nothing more of the slice, whose next holder resumes it from its checkpoint` })

export const isFenceLost = (e: unknown): boolean => e instanceof SinkError && e.reason === "Locked" && e.detail.startsWith(LOST)
