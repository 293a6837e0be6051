/**
 * How the sink's DuckDB gives freed memory back to the system (`CHAINETL_SINK_MEMORY`), a trade of
 * CPU for peak RSS.
 *
 * - `fast` (the default): DuckDB's own default. Memory a dropped part's table frees stays with its
 *   allocator and serves the next part.
 * - `lean`: every release of 2 MB or more is given back at once
 *   (`allocator_bulk_deallocation_flush_threshold`). DuckDB then also calls glibc's `malloc_trim`,
 *   which hands back the free memory of the whole process, Node's response buffers included, and
 *   the next pages fault it in again: `lean` costs the nested and many-partition runs clearly more
 *   CPU for a lower peak RSS, the flat ones no difference. With `malloc_trim` made a no-op (an
 *   LD_PRELOAD probe) `lean` kept its RSS and lost most of its CPU cost, so it is the trim that
 *   costs; DuckDB has no setting to purge without it (measured:
 *   docs/performance.md#where-the-cpu-and-the-memory-go).
 */
import { Effect } from "effect"
import { ConfigError } from "../Errors.ts"

export type SinkMemory = "fast" | "lean"

export const SINK_MEMORY_ENV = "CHAINETL_SINK_MEMORY"

export const DEFAULT_SINK_MEMORY: SinkMemory = "fast"

/** The DuckDB options of a sink instance beside its one thread. */
export const duckdbOptionsOf = (memory: SinkMemory): Record<string, string> =>
  memory === "lean" ? { allocator_bulk_deallocation_flush_threshold: "2MB" } : {}

/** `raw` (the variable's value, unset as undefined) as a SinkMemory, or a ConfigError naming the fix. */
export const parseSinkMemory = (raw: string | undefined): SinkMemory | ConfigError => {
  const v = raw?.trim().toLowerCase() ?? ""
  if (v === "") return DEFAULT_SINK_MEMORY
  if (v === "fast" || v === "lean") return v
  return new ConfigError({
    reason: "Invalid",
    field: SINK_MEMORY_ENV,
    detail: `"${raw}" is not fast or lean`,
    fix: `export ${SINK_MEMORY_ENV}=fast (less CPU) or ${SINK_MEMORY_ENV}=lean (less peak memory), or unset it`
  })
}

/** The setting from the environment, read when a sink opens. */
export const sinkMemoryFromEnv: Effect.Effect<SinkMemory, ConfigError> = Effect.suspend(() => {
  const parsed = parseSinkMemory(process.env[SINK_MEMORY_ENV])
  return parsed instanceof ConfigError ? Effect.fail(parsed) : Effect.succeed(parsed)
})
