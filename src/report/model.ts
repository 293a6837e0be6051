/**
 * What `chainetl report` shows, as data: every figure of the page, read from the catalog's views,
 * the Parquet footers of the files those views read, the checkpoints and the run reports. Counts,
 * sizes and heights are decimal strings as DuckDB returns them (exact whatever their size); the
 * charts convert them for drawing only.
 */
import type { DatasetStatus, ListingStatus, RunLine } from "../status/model.ts"
import type { CoveredRange, DayRange } from "./gaps.ts"

/** Which day a dataset's rows are counted by. */
export type DayColumn = "date" | "snapshot_date" | "ingested_at"

export interface DayCount {
  /** The listing: the dataset's Hive keys but the time ones, values joined by "/" ("" when none). */
  readonly listing: string
  readonly day: string
  readonly rows: string
}

/** A listing's days without rows between its first and last day with rows. */
export interface DayGaps {
  readonly listing: string
  /** Split by window coverage for windowed datasets (see gaps.ts), plain ranges otherwise. */
  readonly ranges: ReadonlyArray<DayRange | CoveredRange>
}

export interface HeightGap {
  readonly listing: string
  readonly from: string
  readonly to: string
  readonly count: string
}

export interface Partition {
  /** The folder below the dataset's, as on disk: `network=mainnet/month=2025-01`. */
  readonly path: string
  /** The listing part of the path (Hive keys but the time ones), "/"-joined decoded values. */
  readonly listing: string
  /** The value of its time key (`date`, `month`, `snapshot_date`), when it has one. */
  readonly time: string | null
  readonly files: number
  readonly rows: string
  readonly bytes: string
}

export interface DatasetFigures {
  readonly dataset: string
  /** The Hive keys a listing is named by ("network", "blockchain"): what a `listing` value's parts are. */
  readonly listingKeys: ReadonlyArray<string>
  /** `SELECT count(*)` of its view: the rows a reader gets (what `status` counts). */
  readonly rows: string
  readonly dayColumn: DayColumn
  readonly rowsPerDay: ReadonlyArray<DayCount>
  readonly firstDay: string | null
  readonly lastDay: string | null
  /** When the newest row was ingested (ISO instant, UTC), null without rows. */
  readonly newestIngest: string | null
  /** Null where days without rows are not looked for (the day is when a row was ingested). */
  readonly dayGaps: ReadonlyArray<DayGaps> | null
  /** Null for datasets that are not keyed by block height. */
  readonly heightGaps: ReadonlyArray<HeightGap> | null
  readonly heightColumn: string | null
  readonly partitions: ReadonlyArray<Partition>
  /** Whether the dataset's time-ordered slices are windows (their gaps say crawled or not). */
  readonly windowed: boolean
}

/** A failed slice of one run, from its report. */
export interface RunFailure {
  readonly runId: string
  readonly dataset: string
  readonly slice: string
  readonly error: string
}

export interface RunFigures extends RunLine {
  /** Slices per outcome: done, failed, skipped, not_run. */
  readonly outcomes: Readonly<Record<string, number>>
  readonly failures: ReadonlyArray<RunFailure>
}

export interface HeightMark {
  readonly dataset: string
  readonly listing: string
  readonly height: string
  /** Every height from the listing's lowest up to here is written, none below is a hole; null when none is (`chainetl status`'s figure). */
  readonly completeThrough: string | null
  /** Rejected blocks not written since, which the next run asks for again; null when an older checkpoint did not count them. */
  readonly holes: number | null
  /** Their heights, ascending, where known. */
  readonly holeKeys: ReadonlyArray<string>
}

export interface ExampleResult {
  /** The file's name without `.sql`. */
  readonly name: string
  /** Its first comment line: what it answers. */
  readonly title: string
  readonly columns: ReadonlyArray<string>
  /** Values as DuckDB's JSON conversion gives them: exact decimals as strings, doubles as numbers. */
  readonly rows: ReadonlyArray<ReadonlyArray<unknown>>
  readonly error: string | null
}

export interface Report {
  readonly out: string
  /** When the page was made (ISO instant): the clock ages are measured against. */
  readonly generatedAt: string
  /** Unix seconds of `generatedAt`. */
  readonly now: number
  /** When catalog.duckdb was last built (its modification time). */
  readonly catalogBuiltAt: string
  readonly datasets: ReadonlyArray<DatasetFigures>
  /** Datasets of the catalog with no row: named, not drawn. */
  readonly empty: ReadonlyArray<string>
  /** `chainetl status`'s figures: watermarks per windowed listing, slices per other dataset. */
  readonly listings: ReadonlyArray<ListingStatus>
  readonly slices: ReadonlyArray<DatasetStatus>
  readonly heights: ReadonlyArray<HeightMark>
  readonly runs: ReadonlyArray<RunFigures>
  /** Slices whose checkpoint says failed now (rerunning resumes them). */
  readonly failing: ReadonlyArray<{ readonly dataset: string; readonly slice: string; readonly runId: string; readonly error: string }>
  readonly examples: ReadonlyArray<ExampleResult>
}
