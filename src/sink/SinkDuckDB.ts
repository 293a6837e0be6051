/**
 * The DuckDB instance a sink writes its parts through, one per sink, open for the scope of the
 * sink's layer: one in-memory instance (creating one costs far more than a connection), one
 * thread (slices already run concurrently around it, and one thread spends less CPU on the same
 * COPYs: docs/performance.md "Why the code is shaped so"), and how it gives memory back
 * (CHAINETL_SINK_MEMORY: SinkMemory.ts).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { duckdbOptionsOf, sinkMemoryFromEnv } from "./SinkMemory.ts"
import { asSinkError } from "./SinkFailure.ts"

export const openSinkDuckDB = Effect.acquireRelease(
  Effect.flatMap(sinkMemoryFromEnv, (memory) =>
    Effect.tryPromise({
      try: () => DuckDBInstance.create(":memory:", { threads: "1", ...duckdbOptionsOf(memory) }),
      catch: asSinkError("Io", ":memory:")
    })
  ),
  (db) => Effect.sync(() => db.closeSync())
)
