/**
 * What is fixed for one slice's crawl (Crawler.ts): the dataset, the services, the bounds of a
 * part, the listing's guard; and the pages as the steps hand them on. What changes as the crawl
 * goes is one value of its own, SliceState.ts.
 */
import type * as arrow from "../ArrowTypes.ts"
import { Effect } from "effect"
import { ParquetSink, type ParquetSinkService } from "../sink/ParquetSink.ts"
import { rejectsDataset } from "../transform/Rejects.ts"
import type { Mapped } from "../transform/ToRows.ts"
import { CheckpointStore, type CursorCheck } from "./Checkpoint.ts"
import { CommittedKeys } from "./CommittedKeys.ts"
import { cursorCodecOf, cursorProblem } from "./Cursor.ts"
import type { DatasetDef, PartitionKey, Row } from "./Dataset.ts"
import { withGrain } from "../transform/Grain.ts"
import { DEFAULT_PART_MB, MB } from "./PartSize.ts"
import { DEFAULT_GUARD_LIMITS, type GuardLimits, ListingGuard } from "./ListingGuard.ts"
import type { ProbedPages } from "./ProbedPages.ts"
import type { Slice } from "./Slice.ts"

export interface CrawlOptions {
  readonly runId: string
  /** The run's as-of instant (Unix seconds, service time): decides when a rerunning slice is final. */
  readonly asOf: number
  readonly ingestedAt: Date
  /** Rows buffered before a part is written (a row group's worth in production). */
  readonly partRows: number
  /** Staged bytes before a part is written, whichever bound comes first (default: PartSize.ts). */
  readonly partBytes?: number
  /** The ListingGuard's bounds (tests shrink them). */
  readonly guard?: Partial<GuardLimits>
  /** First pages a backfill's probes asked before the crawl, each its slice's to take (ProbedPages.ts). */
  readonly probed?: ProbedPages
}

/** A table whose rows are staged in the sink as pages arrive: the dataset's and each child's. */
export interface StagedTable {
  readonly dataset: string
  readonly schema: arrow.Schema
  readonly partitionBy: ReadonlyArray<PartitionKey>
}

export interface SliceCrawl<R> {
  readonly dataset: DatasetDef<R>
  readonly slice: Slice
  readonly options: CrawlOptions
  readonly sink: ParquetSinkService
  readonly store: CheckpointStore["Type"]
  readonly committedKeys: CommittedKeys["Type"]
  readonly guard: ListingGuard
  readonly rerun: "never" | "always" | "replace"
  /** Rows (and rejects) buffered before a commit; a replacing listing commits once, at its end. */
  readonly partRows: number
  /** Bytes staged (all tables of the slice) before a commit; the same exception. */
  readonly partBytes: number
  /** Every table a part may write: the dataset's, its children's, `_rejects`. */
  readonly tables: ReadonlyArray<string>
  /** The tables staged as pages arrive (not `_rejects`: few, kept in the buffer whole). */
  readonly stagedTables: ReadonlyArray<StagedTable>
  /** A cursor older than this is not reused (undefined: tokens do not expire). */
  readonly ttlMs: number | undefined
  /** How the store judges the checkpoint's cursor: the listing's codec (Cursor.ts), when it declares one. */
  readonly cursorCheck: CursorCheck | undefined
}

/** A page as fetched and mapped: rows, rejects, and where the listing goes next. */
export interface FetchedPage {
  readonly rows: ReadonlyArray<Mapped>
  readonly rejects: ReadonlyArray<Row>
  /** Of the page's records, those rejected that leave a hole (Holes.ts), before the guard drops any as already seen. */
  readonly holes: number
  /** Their keys, where the listing names them (Page.keys). */
  readonly holeKeys: ReadonlyArray<string>
  readonly unknownFields: ReadonlyMap<string, number>
  readonly next: string | undefined
  readonly reach?: string | undefined
  readonly receivedAt: number
}

/** A page whose rows are staged in the sink: only their counts are kept (rejects are few, kept whole). */
export interface BufferedPage extends Omit<FetchedPage, "rows"> {
  /** Staged rows per table, in `stagedTables` order. */
  readonly staged: ReadonlyArray<number>
  /** Bytes the slice's staged parts hold with this page, all tables together. */
  readonly partBytes: number
}

export const makeSliceCrawl = <R>(
  declared: DatasetDef<R>,
  slice: Slice,
  options: CrawlOptions
): Effect.Effect<SliceCrawl<R>, never, ParquetSink | CheckpointStore | CommittedKeys> =>
  Effect.gen(function* () {
    // a definition straight from the registry writes at its own grain (the runner applies the job's)
    const dataset = declared.grain === undefined ? withGrain(declared) : declared
    const rerun = dataset.rerun ?? "never"
    const own = [dataset, ...(dataset.children ?? [])]
    const codec = cursorCodecOf(dataset.listing)
    return {
      dataset,
      slice,
      options,
      sink: yield* ParquetSink,
      store: yield* CheckpointStore,
      committedKeys: yield* CommittedKeys,
      guard: new ListingGuard(`${dataset.name} ${slice.id}`, { ...DEFAULT_GUARD_LIMITS, ...options.guard }),
      rerun,
      // a replacing listing is written in one commit, so old and new rows never show together
      partRows: rerun === "replace" ? Number.POSITIVE_INFINITY : options.partRows,
      partBytes: rerun === "replace" ? Number.POSITIVE_INFINITY : (options.partBytes ?? DEFAULT_PART_MB * MB),
      tables: [...own.map((t) => t.name), rejectsDataset.name],
      stagedTables: own.map((t) => ({ dataset: t.name, schema: t.schema, partitionBy: t.partitionBy })),
      ttlMs: dataset.listing.tokenTtlSeconds === undefined ? undefined : dataset.listing.tokenTtlSeconds * 1000,
      cursorCheck: codec === undefined ? undefined : cursorProblem(codec)
    }
  })
