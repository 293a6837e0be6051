/**
 * File names inside a dataset folder: `part-<slice>-<seq>.parquet` (one slice's committed part in
 * one partition) and `compact-<id>.parquet` (a compacted file; live only while its dataset's
 * manifest lists it, see Manifest.ts). Nothing else is ever written there.
 */
export const SEQ_DIGITS = 6

export const partFileName = (slice: string, seq: number): string =>
  `part-${slice}-${String(seq).padStart(SEQ_DIGITS, "0")}.parquet`

/** Slice ids are [a-z0-9_-]; the seq is the last dash-separated field. */
export const PART_PATTERN = /^part-([a-z0-9_-]+)-(\d{6,})\.parquet$/

export const COMPACTED_PREFIX = "compact-"
export const COMPACTED_PATTERN = /^compact-[0-9a-f]{16}\.parquet$/

export const compactedFileName = (id: string): string => `${COMPACTED_PREFIX}${id}.parquet`
