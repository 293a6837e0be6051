/**
 * What a dataset declares (pipelines/<name>.ts): where its pages come from, how a raw record
 * becomes a row, how rows are partitioned, and which slices a job asks for. Everything else —
 * checkpoints, retries, parts, the catalog — is the spine's job, so adding a dataset is
 * declaring one of these.
 */
import type * as arrow from "apache-arrow"
import type { Effect } from "effect"
import type { SourceError } from "../Errors.ts"
import type { Job } from "../Job.ts"
import type { JsonRpcClient } from "../source/JsonRpcClient.ts"
import type { RestClient } from "../source/RestClient.ts"
import type { Slice } from "./Slice.ts"

/** A row: plain object keyed by column name (see schemas/common.ts for the value model). */
export type Row = Record<string, unknown>

export interface Page {
  readonly records: ReadonlyArray<unknown>
  /** Cursor of the following page; undefined when this was the last one. */
  readonly next: string | undefined
}

/** The pagination contract (initial / next / stop): cursor undefined asks for the first page. */
export interface Listing<R> {
  readonly fetch: (slice: Slice, cursor: string | undefined) => Effect.Effect<Page, SourceError, R>
  /** Cursors older than this are not reused: the listing restarts from its first page. */
  readonly tokenTtlSeconds?: number
}

export interface PartitionKey {
  readonly key: string
  /** DuckDB type of the Hive key, declared so the catalog does not guess (chain_id is text). */
  readonly type: "VARCHAR" | "DATE"
  readonly value: (row: Row) => string
}

/** A record that cannot become a row: goes to `_rejects` with this reason. */
export class RecordError extends Error {
  readonly _tag = "RecordError"
  constructor(readonly reason: string) {
    super(reason)
  }
}

export interface DatasetDef<R = unknown> {
  readonly name: string
  readonly description: string
  readonly schema: arrow.Schema
  readonly partitionBy: ReadonlyArray<PartitionKey>
  /** Columns that identify a row within a slice: a restarted listing skips keys already committed. */
  readonly key: ReadonlyArray<string>
  readonly slices: (job: Job) => ReadonlyArray<Slice>
  readonly listing: Listing<R>
  /** Raw record → row (without lineage columns). Throws RecordError for a malformed record. */
  readonly toRow: (record: unknown, slice: Slice) => Row
}

/** What a registered dataset may need: the services' clients. */
export type SourceClients = RestClient | JsonRpcClient

export type AnyDataset = DatasetDef<SourceClients>
