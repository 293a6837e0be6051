/**
 * `<out>/_staging/`: where files are written before they are renamed into place (a part's files,
 * a compaction's merged file, DuckDB's spill). Outside every table folder, so no reader's glob
 * meets a half-written file; on the output's filesystem, so the rename is atomic. Nothing in it
 * outlives a run: every run clears it before it writes.
 */
export const STAGING_DIR = "_staging"
