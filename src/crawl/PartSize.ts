/**
 * How big a part grows before it is written: whichever of its rows (`--part-rows`) or its staged
 * bytes (`--part-mb`) reaches its bound first. A part's rows wait in a DuckDB table until then, and
 * the COPY that writes them needs about as much again, so a slice's memory follows the part's
 * bytes, not its rows: a `staking_transactions` row (its UTXOs' lists) holds several times what a
 * `primary_blocks` row does there, an `evm_blocks` row less. Rows alone let the nested dataset's
 * parts (and the peak RSS) grow several times what a flat one's do for the same count; the byte
 * bound caps them, and the flat datasets keep their row-bound parts (measured:
 * docs/performance.md#crawl-memory-part-size-and-the-listing-guard).
 */

/** Rows (and rejects) a part holds at most: a row group's worth of a flat dataset. */
export const DEFAULT_PART_ROWS = 10_000

/**
 * Megabytes a part's rows may take in DuckDB before it is written, counted as the row encoder hands
 * them over (RowEncoder's `fill`; DuckDB's table of them is larger, with its segments and string
 * heaps). 12 sits above a flat dataset's full 10,000-row part, so only wider rows are cut:
 * `staking_transactions` parts of about a third of that. On the bench's replays, with the bound
 * against without it, the staking cases' peak RSS fell at the same CPU; 8 lowered it further but
 * cost CPU (measured: docs/performance.md#crawl-memory-part-size-and-the-listing-guard).
 */
export const DEFAULT_PART_MB = 12

export const MB = 1024 * 1024
