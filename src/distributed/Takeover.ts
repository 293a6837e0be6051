/**
 * Whether an enqueuer (`run --distributed`, `backfill --distributed`) may take over the output
 * from the distributed run that holds it, or must wait, or be refused: pure, so every case is
 * tested without processes (SliceLocks.ts `holdRun` asks it, with what PostgreSQL and this host
 * say about the holder).
 *
 * The holder is the session holding the output's distributed-run lock, and its row in
 * `chainetl_enqueuers` (run id, pid, host, its last confirmation, which a live enqueuer renews
 * every third of the lease). Its death is proved, and the takeover is **at once**, when:
 *  - the lock is free while the row is still there: the server ended the holder's session (a
 *    process killed, however, on any host: its connection closed), so it no longer holds anything;
 *  - the row names this host and its pid no longer runs here (the session lingers: a pooler, a
 *    half-open connection): the lingering session is ended by the taker.
 * Otherwise the holder's silence decides, **after its lease**: a row not confirmed for a lease is a
 * process that is dead or cut off (a host lost); its session is ended and the output taken. A
 * confirmation seen while waiting proves the holder alive: the second run is refused naming it.
 */

/** The holder's row, as the server and this host see it. */
export interface EnqueuerRow {
  readonly runId: string
  readonly pid: number
  readonly hostname: string
  /** Milliseconds since its last confirmation, on the server's clock. */
  readonly confirmedAgoMs: number
  /** The confirmation itself (server time, ms since the epoch): a later one proves the holder alive. */
  readonly confirmedAtMs: number
}

export interface TakeoverFacts {
  /** Whether some session holds the distributed-run lock. */
  readonly lockHeld: boolean
  /** The row of the last enqueuer that took the lock (undefined: none left one). */
  readonly row: EnqueuerRow | undefined
  /** Whether the row's own session holds the lock (false: a row left behind, the lock someone else's). */
  readonly rowHoldsLock: boolean
  readonly host: string
  /** Whether a pid runs on this host. */
  readonly pidAlive: (pid: number) => boolean
  readonly leaseMs: number
  /** The holder's confirmation when this contender first looked (undefined: first look). */
  readonly firstSeenAtMs: number | undefined
  /** How long this contender has waited so far. */
  readonly waitedMs: number
}

export type TakeoverWhen = "at once" | "after its lease"

export type Verdict =
  /** Nobody held the output: no takeover. */
  | { readonly kind: "free" }
  /** The holder is dead: its run is taken over (its session ended first when `endSession`). */
  | { readonly kind: "take"; readonly when: TakeoverWhen; readonly why: string; readonly endSession: boolean }
  /** Not known yet: look again after `ms`. */
  | { readonly kind: "wait"; readonly ms: number }
  /** The holder is alive: refused. */
  | { readonly kind: "alive"; readonly why: string }

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export const judgeHolder = (f: TakeoverFacts): Verdict => {
  // a row left by an earlier holder says nothing of the session holding the lock now
  const row = f.lockHeld && !f.rowHoldsLock ? undefined : f.row
  if (!f.lockHeld) {
    return row === undefined
      ? { kind: "free" }
      : { kind: "take", when: "at once", why: "its PostgreSQL session had ended (the server freed its lock)", endSession: false }
  }
  // a slice of the lease: how often a live holder confirms, so the wait sees one if it is alive
  const step = Math.max(100, Math.ceil(f.leaseMs / 6))
  if (row === undefined) {
    // a holder that wrote no row yet (just starting) or an older chainetl: only its lock tells
    return f.waitedMs >= f.leaseMs ? { kind: "alive", why: "a distributed run holds this output's lock" } : { kind: "wait", ms: step }
  }
  if (row.hostname === f.host && !f.pidAlive(row.pid)) {
    return { kind: "take", when: "at once", why: `its process (pid ${row.pid}) no longer runs on this host`, endSession: true }
  }
  if (f.firstSeenAtMs !== undefined && row.confirmedAtMs > f.firstSeenAtMs) {
    return { kind: "alive", why: `it confirmed its hold ${seconds(row.confirmedAgoMs)} ago` }
  }
  if (row.confirmedAgoMs >= f.leaseMs) {
    return { kind: "take", when: "after its lease", why: `no sign of life for ${seconds(row.confirmedAgoMs)} (lease ${seconds(f.leaseMs)})`, endSession: true }
  }
  return { kind: "wait", ms: Math.min(step, f.leaseMs - row.confirmedAgoMs + 50) }
}
