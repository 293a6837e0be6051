/** What the compaction tests share: a finished slice's checkpoint and a DuckDB connection to read with. */
import { DuckDBInstance } from "@duckdb/node-api"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"

/** A done slice of `blocks` whose parts up to seq 1 are committed (override what a test needs). */
export const checkpoint = (slice: string, over: Partial<CheckpointState> = {}): CheckpointState => ({
  dataset: "blocks",
  slice,
  params: {},
  cursor: null,
  cursorIssuedAt: null,
  pagesCommitted: 1,
  rowsCommitted: 1,
  rejectsCommitted: 0,
  lastSeq: 1,
  keepFromSeq: null,
  finalAfter: null,
  status: "done",
  completedAsOf: 100,
  restarts: 0,
  runId: "r",
  updatedAt: "",
  error: null,
  ...over
})

/** Runs `f` on a connection of a fresh in-memory instance, closed afterwards. */
export const withConn = async <A>(f: (conn: Awaited<ReturnType<DuckDBInstance["connect"]>>) => Promise<A>): Promise<A> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    return await f(conn)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}
