/**
 * A worker's right to write a slice, held through the slice's PostgreSQL lock (SliceLocks.ts).
 *
 * The lock alone does not fence the files: PostgreSQL frees it the moment it drops the worker's
 * session (a network cut it noticed, a backend terminated), while the worker, which may not have
 * noticed, goes on crawling and could rename or upload a part beside its successor. So each
 * confirmation is a lease in time:
 *  1. `confirm` runs an UPDATE on the lock's own session, stamping `confirmed_at` with the server's
 *     clock; it answers only while the session, and so the lock, is alive. It must answer within
 *     half the fence, or the right is lost.
 *  2. A write may land until the confirmation's start (this process's monotonic clock) plus
 *     `fenceMs`; the sink checks that before each rename and bounds each upload by it, and asks
 *     for a fresh confirmation when too little is left (PartFence.ts).
 *  3. The slice's next holder, having the lock, waits until the predecessor's last `confirmed_at`
 *     plus the fence (and a quarter more, for clocks that run at slightly different rates) has
 *     passed on the server's clock before it pulls, reads or writes anything (`lockDelayMs`).
 * A predecessor that stopped cleanly deleted its row, and one killed or stalled past its lease
 * confirmed long before: the delay is then nil, so takeover time is unchanged.
 * What stays outside the fence: a process paused between a deadline check and the rename it
 * guards (the check is the last step before each rename).
 */
import type { Connection } from "@effect/sql/SqlConnection"
import { Effect } from "effect"
import { type PartFence, fenceLost } from "../sink/PartFence.ts"

const CONFIRM = `UPDATE chainetl_slice_holders SET confirmed_at = clock_timestamp()
  WHERE output_id = $1 AND dataset = $2 AND slice = $3 AND backend_pid = pg_backend_pid() RETURNING 1 AS ok`

/** How long a successor waits after a predecessor's last confirmation: the fence and a quarter. */
export const LOCK_DELAY = 1.25

/** What remains, on the server's clock, of the lock delay after the slice's last holder's last confirmation (0: none). */
export const LOCK_DELAY_SQL = `SELECT GREATEST(0, EXTRACT(EPOCH FROM (confirmed_at - clock_timestamp())) * 1000 + $4 * ${LOCK_DELAY})::float8 AS wait_ms
  FROM chainetl_slice_holders WHERE output_id = $1 AND dataset = $2 AND slice = $3 AND confirmed_at IS NOT NULL`

export interface SliceFence extends PartFence {
  /** A fresh confirmation: false once the right is lost (the lease renewals ask this). */
  readonly confirm: Effect.Effect<boolean>
}

/** `confirmedFrom`: when (performance.now()) the statement that took the slice and stamped `confirmed_at` was sent. */
export const makeSliceFence = (conn: Connection, keys: readonly [string, string, string], fenceMs: number, where: string, confirmedFrom: number): SliceFence => {
  let until = confirmedFrom + fenceMs
  let lost: unknown
  let pending: Promise<number> | undefined
  const confirmOnce = async (): Promise<number> => {
    const started = performance.now()
    const answer = await Effect.runPromise(
      conn.execute(CONFIRM, keys, undefined).pipe(Effect.timeout(fenceMs / 2), Effect.either)
    )
    if (answer._tag === "Left") {
      lost = fenceLost(where, answer.left._tag === "TimeoutException" ? `PostgreSQL did not confirm it within ${fenceMs / 2000} s` : `its PostgreSQL session failed: ${answer.left.message}`)
    } else if (answer.right.length === 0) {
      lost = fenceLost(where, "its row in chainetl_slice_holders is another worker's")
    }
    if (lost !== undefined) throw lost
    until = Math.max(until, started + fenceMs)
    return until
  }
  const deadline = (needMs: number): Promise<number> => {
    if (lost !== undefined) return Promise.reject(lost)
    if (performance.now() + needMs <= until) return Promise.resolve(until)
    // one confirmation at a time serves every write waiting for one
    pending ??= confirmOnce().finally(() => void (pending = undefined))
    return pending
  }
  return {
    deadline,
    confirm: Effect.promise(() => deadline(fenceMs).then(() => true, () => false))
  }
}
