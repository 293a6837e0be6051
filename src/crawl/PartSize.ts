/**
 * How big a part grows before it is written: whichever of its rows (`--part-rows`) or its staged
 * bytes (`--part-mb`) reaches its bound first. A part's rows wait in a DuckDB table until then, and
 * the COPY that writes them needs about as much again, so a slice's memory follows the part's
 * bytes, not its rows: a `staking_transactions` row holds ~5.5 KB there (its UTXOs' lists), a
 * `primary_blocks` row ~1.2 KB, an `evm_blocks` row less. Rows alone let the nested dataset's
 * parts (and the peak RSS) grow ~5× what a flat one's do for the same count; the byte bound
 * caps them, and the flat datasets keep their row-bound parts.
 */

/** Rows (and rejects) a part holds at most: a row group's worth of a flat dataset. */
export const DEFAULT_PART_ROWS = 10_000

/**
 * Megabytes a part's rows may take in DuckDB before it is written, counted as the row encoder hands
 * them over (RowEncoder's `fill`; DuckDB's table of them is ~1.7× that, with its segments and
 * string heaps). 12 sits above a flat dataset's 10,000-row part (`primary_blocks` ~9 MB,
 * `evm_blocks` ~3 MB), so only wider rows are cut: `staking_transactions` parts of ~3,600 rows.
 * Measured on the bench's replays, 2026-11-27, runs alternated with the bound lifted: the 100k case
 * peaked at 447–466 MB instead of 606–650, the 20k case at a median 397 instead of 420 (six runs
 * each), CPU within the spread (20k medians 7.8 against 8.0 CPU-s); 8 MB took the 100k peak to
 * 424–435 but cost the 20k case CPU in four runs of six.
 */
export const DEFAULT_PART_MB = 12

export const MB = 1024 * 1024
