/**
 * What a dataset declares (pipelines/<name>.ts): where its pages come from, how a raw record
 * becomes a row, how rows are partitioned, and which slices a job asks for. Everything else —
 * checkpoints, retries, parts, the catalog — is the spine's job, so adding a dataset is
 * declaring one of these.
 */
import type * as arrow from "../ArrowTypes.ts"
import type { Effect } from "effect"
import type { Service } from "../Config.ts"
import type { SinkError, SourceError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import type { JsonRpcClient } from "../source/JsonRpcClient.ts"
import type { RestClient } from "../source/RestClient.ts"
import type { CheckpointState } from "./Checkpoint.ts"
import type { OutputReader } from "./OutputReader.ts"
import type { Slice } from "./Slice.ts"
import type { Grain, TimePartition } from "../transform/Grain.ts"
import type { WindowSpec } from "./Windows.ts"

// the transform step raises them; every pipeline names them with the rest of its dataset
export { NotFoundRecord, RecordError } from "../transform/RecordError.ts"

/** A row: plain object keyed by column name (see schemas/common.ts for the value model). */
export type Row = Record<string, unknown>

export interface Page {
  readonly records: ReadonlyArray<unknown>
  /** Cursor of the following page; undefined when this was the last one. */
  readonly next: string | undefined
  /**
   * How far the listing has scanned once this page is committed, in its own unit (a block height),
   * when that is more than its records show (transfers are sparse in the blocks scanned for
   * them). Kept in the checkpoint; `chainetl status` reports it.
   */
  readonly reach?: string
  /**
   * Keyed listings (height walks, fan-outs): the key each record was asked for, in the order of
   * `records`. A record that becomes a reject then leaves its key as a hole of the slice
   * (Checkpoint.ts `holeKeys`), which status shows and a later pass asks for again.
   */
  readonly keys?: ReadonlyArray<string>
}

/** The pagination contract (initial / next / stop): cursor undefined asks for the first page. */
export interface Listing<R> {
  readonly fetch: (slice: Slice, cursor: string | undefined) => Effect.Effect<Page, SourceError | SinkError, R>
  /** Cursors older than this are not reused: the listing restarts from its first page. */
  readonly tokenTtlSeconds?: number
  /**
   * True when the listing itself never yields what is already committed (keyed listings ask for
   * keys not fetched before), so a restart needs no skip set.
   */
  readonly excludesCommitted?: boolean
  /**
   * True when a pass of this slice's listing from its first page asks again for every record of
   * the slice not yet written, the rejected ones included (a height walk skips only committed
   * heights, a fan-out only keys written or settled, a window listed whole): the holes are then
   * counted afresh from each such pass. Absent: a pass goes on after what it wrote (a walk from its
   * highest committed block), so a reject is never asked for again and its hole stays counted.
   */
  readonly revisits?: (slice: Slice) => boolean
}

export interface PartitionKey {
  readonly key: string
  /** DuckDB type of the Hive key, declared so the catalog does not guess (chain_id is text). */
  readonly type: "VARCHAR" | "DATE"
  readonly value: (row: Row) => string
  /** The catalog's comment of the key: its column's (src/transform/DefineDataset.ts). */
  readonly comment?: string
}

/** What slices may depend on besides the job. */
export interface SliceContext {
  /** The run's as-of instant in Unix seconds, service time: what "now" means for this run. */
  readonly asOf: number
  /** UTC day of `asOf`, YYYY-MM-DD: the `snapshot_date` of snapshot datasets. */
  readonly runDate: string
  /** This dataset's checkpoints on disk: windowed datasets plan around the windows they hold. */
  readonly checkpoints?: ReadonlyArray<CheckpointState>
  /** Set by `chainetl backfill`: the half-open range [from, to) asked for, and its --window. */
  readonly backfill?: Backfill
}

/**
 * A backfill's half-open range and the size of its new windows: Unix seconds for time-ordered
 * datasets, block heights (decimal strings, exact) for height-ordered ones.
 */
export type Backfill =
  | { readonly unit: "time"; readonly from: number; readonly to: number; readonly window?: number }
  | { readonly unit: "height"; readonly from: string; readonly to: string; readonly window?: string }

/**
 * A table filled from the same records as its parent (e.g. the ERC-20 transfers inside an EVM
 * transaction detail), written in the same commit with the same part numbers.
 */
export interface ChildDataset {
  readonly name: string
  readonly description: string
  readonly schema: arrow.Schema
  readonly partitionBy: ReadonlyArray<PartitionKey>
  /** Identifies a row within its parent's slice (a transfer: its transaction and log index); the `_latest` view's key. */
  readonly key: ReadonlyArray<string>
  /** Natural order of rows inside a compacted file (see DatasetDef.sortBy); the key when absent. */
  readonly sortBy?: ReadonlyArray<string>
  /** The path of the parent record's list whose items are the rows: a field of the record the parent reads too. */
  readonly items?: ReadonlyArray<{ readonly key: string; readonly optional: boolean }>
  /** Rows of this child in one parent record, given the parent's row (throw RecordError to reject the whole record). */
  readonly toRows: (record: unknown, slice: Slice, parent: Row) => ReadonlyArray<Row>
  /** Columns computed from a finished row, lineage included (set by the grain, see Grain.ts). */
  readonly derive?: (row: Row) => void
}

export interface DatasetDef<R = unknown> {
  readonly name: string
  readonly description: string
  /**
   * The services its listing calls, so a run asks only for their settings (the CLI reads them as
   * plain data: DatasetMeta.ts). Every registered dataset declares them (defineDataset requires
   * it); a definition without them is taken to call all three.
   */
  readonly services?: ReadonlyArray<Service>
  readonly schema: arrow.Schema
  /** Hive keys besides the time key of `timePartition`, which the grain adds (see Grain.ts). */
  readonly partitionBy: ReadonlyArray<PartitionKey>
  /**
   * Time-ordered datasets: the UTC day of a row and the default partition grain (day or month),
   * chosen from the dataset's real volume; the job's `partitionGrain` overrides it.
   */
  readonly timePartition?: TimePartition
  /** The grain this definition writes at, once `withGrain` applied it. */
  readonly grain?: Grain
  /** Columns computed from a finished row, lineage included (set by the grain, see Grain.ts). */
  readonly derive?: (row: Row) => void
  /** Columns that identify a row within a slice: a restarted listing skips keys already committed. */
  readonly key: ReadonlyArray<string>
  /**
   * Columns that, besides the Hive keys, name the listing a slice crawls (its slice params that are
   * columns: utxos' address_set): a `key` is unique only within its slice, so these join it in the
   * entity key of the `_latest` view, and a snapshot's latest snapshot_date is taken per listing.
   */
  readonly sliceColumns?: ReadonlyArray<string>
  /**
   * The dataset's natural order (block number, timestamp…): compaction sorts a compacted file's
   * rows by these columns, so each row group covers a narrow range and min/max statistics skip
   * row groups on a filter. The key when absent.
   */
  readonly sortBy?: ReadonlyArray<string>
  readonly slices: (job: Job, ctx: SliceContext) => ReadonlyArray<Slice>
  /**
   * Time-windowed datasets (see Windows.ts): their slices are windows planned around the
   * checkpoints, the job's `incremental.<name>` tunes them, and `chainetl backfill` takes them.
   */
  readonly windows?: WindowSpec
  /**
   * Datasets that take `chainetl backfill` without time windows of their own make their slices
   * from `ctx.backfill`: "fixed" a time range cut their own way (chain_metrics: months; no
   * --window), "height" a block-height range (node blocks: cells of --window heights).
   */
  readonly backfill?: "fixed" | "height"
  /** Height-ordered datasets (walks, latest-first listings): how far they are, for `chainetl status`. */
  readonly heights?: HeightMarks
  /**
   * Block datasets: a chain has a block at every height whose parent is the block below, so
   * `chainetl verify` checks the heights contiguous and each parent equal to the id of the block
   * one height down, per listing.
   */
  readonly chain?: ChainLinks
  readonly listing: Listing<R>
  /**
   * Datasets whose committed output its listing reads (fan-outs over the keys they found; child
   * tables count as their parent's): in a run, its slices start once every slice of those that are
   * selected is over, so that it sees what they committed this run (src/pace/Order.ts runOrder).
   */
  readonly readsOutputOf?: ReadonlyArray<string>
  /**
   * "never" (default): a finished slice is final (closed windows, snapshots of one day).
   * "always": a finished slice runs again each run, continuing its part numbers — fan-outs whose
   * listing yields only keys not fetched before.
   * "replace": a finished slice runs again each run and its new listing supersedes the old rows
   * (an open period whose latest point may still change). Such a slice commits once, when its
   * listing is complete, so readers never see a half-replaced slice; keep these slices small.
   */
  readonly rerun?: "never" | "always" | "replace"
  /** Off by default: legacy datasets run only when the job enables them. */
  readonly legacy?: boolean
  readonly children?: ReadonlyArray<ChildDataset>
  /** Raw record → row (without lineage columns). Throws RecordError for a malformed record. */
  readonly toRow: (record: unknown, slice: Slice) => Row
}

/**
 * Where a height-ordered dataset's scanned height is read (`chainetl status`): plain data, so the
 * build can hand it to `status` without the pipelines (src/crawl/DatasetMeta.ts); read by
 * src/crawl/Heights.ts.
 */
export interface HeightColumns {
  /** Columns naming a listing (`chain_id`…): one height per distinct value. */
  readonly listing: ReadonlyArray<string>
  /** The height column: the highest committed is the height scanned through. */
  readonly column: string
  /**
   * For listings whose checkpoints carry a `reach` (Page.reach) that can be past their last row
   * (transfers are sparse in the blocks scanned for them): the slice param of each listing column,
   * to find a listing's checkpoints. The reach is then the height when it is further.
   */
  readonly reach?: Readonly<Record<string, string>>
}

/** The columns that make a block dataset's rows a chain (DatasetDef.chain): plain data. */
export interface ChainLinks {
  /** Columns naming one chain (`network`, `blockchain`…): heights and links are checked per distinct value. */
  readonly listing: ReadonlyArray<string>
  readonly height: string
  /** The block's own id, and the id of its parent, which the block one height down must have. */
  readonly id: string
  readonly parent: string
  /** The block's time, where the dataset is crawled in time windows: which window to re-crawl for a height. */
  readonly time?: string
}

/** A height-ordered dataset's columns of its scanned height, and the service's tip of a listing. */
export interface HeightMarks extends HeightColumns {
  readonly latest: (listing: Readonly<Record<string, string>>) => Effect.Effect<bigint, SourceError, RestClient | JsonRpcClient>
}

/** What a registered dataset may need: the services' clients and the committed output. */
export type SourceClients = RestClient | JsonRpcClient | OutputReader

export type AnyDataset = DatasetDef<SourceClients>
