/**
 * The CPU a crawl costs, from what is known before it runs: a fixed part (the first commits load
 * DuckDB and the Parquet writer), a part per request (a page read, decoded, mapped and staged)
 * and a part per slice (its plan, part commit, checkpoint writes and catalog work). Measured, not
 * guessed: docs/performance.md "Pace: filling the allowance", "The CPU in the estimate", says how
 * (the per-request part from the throughput bench's full pages, the other two fitted to the
 * crawl's own CPU, the run report's `pace.cpuMs`, over backfills of different windows). Process
 * CPU, all threads; pages of up to a hundred records, as the REST datasets serve them.
 */

/** CPU of the crawl whatever its size, ms. */
export const CPU_START_MS = 1_200
/** CPU per request, ms. */
export const CPU_PER_REQUEST_MS = 4
/** CPU per slice beyond its requests, ms. */
export const CPU_PER_SLICE_MS = 15

/** The crawl's CPU, ms, for `requests` requests over `slices` slices. */
export const crawlCpuMs = (requests: number, slices: number): number =>
  slices === 0 ? 0 : CPU_START_MS + CPU_PER_REQUEST_MS * requests + CPU_PER_SLICE_MS * slices
