/**
 * How much memory DuckDB may use for a merge: a ladder of limits per kind of merge, the next tried
 * only when a statement runs out of memory, the machine's default last.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { quotedString } from "@duckdb/node-api"
import * as os from "node:os"

/**
 * DuckDB's memory limits for each kind of merge, tried in order, each set before its statement (the
 * limit is the instance's, and each kind needs its own). A sort holds up to a million rows and
 * spills past its limit: at DuckDB's default (80 % of the machine's memory) compacting
 * `primary_blocks` at 1M rows took several times the peak RSS it takes within 192 MB, for the same
 * CPU; under 128 MB its first blocks no longer fit. A concatenation (MergeOrder.ts) holds little
 * beyond the row group being written and the input row group being read, and its probe's window
 * spills: within 64 MB it peaks lower than within 192, same CPU. Wider rows need the next limit: a
 * month of `staking_transactions` read from 10,000-row parts does not concatenate within 64 or 96
 * MB (it fails at once), and within 128 MB it took more CPU than within 192; its sort needs more
 * than 192 MB. Before the ladder such a merge went straight to 80 % of the machine, and a
 * `staking_transactions` compaction peaked far higher (measured:
 * docs/performance.md#compaction-memory).
 */
export interface MergeMemory {
  readonly sort: ReadonlyArray<string>
  readonly concatenation: ReadonlyArray<string>
}

export const MERGE_MEMORY: MergeMemory = { sort: ["192MB", "512MB"], concatenation: ["64MB", "192MB"] }

export const outOfMemory = (e: unknown) => /out of memory/i.test(e instanceof Error ? e.message : String(e))

/**
 * The limit last set through each connection. A `SET memory_limit` costs CPU even when the limit
 * does not change, and DuckDB gives memory back at it that the next statement faults in again: set
 * before every probe and around every COPY, it cost the 1M `primary_blocks` compaction a large
 * share of its CPU in page faults (measured: docs/performance.md#compaction-memory). The limit is
 * the instance's; compaction opens one connection per instance, so the connection stands for it.
 */
const limitSet = new WeakMap<DuckDBConnection, string>()

export const setMemoryLimit = async (conn: DuckDBConnection, limit: string): Promise<void> => {
  if (limitSet.get(conn) === limit) return
  await conn.run(`SET memory_limit = ${quotedString(limit)}`)
  limitSet.set(conn, limit)
}

/** DuckDB's default limit, set explicitly: after RESET, DuckDB 1.5 reports the default but its buffer pool keeps the old limit. */
export const machineLimit = () => `${Math.floor((os.totalmem() * 0.8) / 2 ** 20)}MB`

/**
 * Runs a merge's statement within each of `limits` in turn until one is enough, and then within
 * DuckDB's default (80 % of the machine's memory) rather than failing the compaction; the first
 * limit is set back afterwards. Only running out of memory moves to the next.
 */
export const runWithinMemory = async (conn: DuckDBConnection, sql: string, limits: ReadonlyArray<string>): Promise<void> => {
  const ladder = [...limits, machineLimit()]
  try {
    for (const [i, limit] of ladder.entries()) {
      await setMemoryLimit(conn, limit)
      try {
        await conn.run(sql)
        return
      } catch (e) {
        if (!outOfMemory(e) || i === ladder.length - 1) throw e
      }
    }
  } finally {
    if (limits[0] !== undefined) await setMemoryLimit(conn, limits[0])
  }
}
