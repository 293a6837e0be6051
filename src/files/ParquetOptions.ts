/**
 * How chainetl's Parquet files are written, parts and compacted files alike: zstd at level 2, not
 * DuckDB's default 3, which on the same rows wrote larger files for more CPU (docs/performance.md
 * "Why the code is shaped so"). The rows read back are the same.
 */
export const PARQUET_OPTIONS = "FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 2"
