/**
 * Small pieces several pipeline files use: raw-record building blocks of the primary network
 * (seed: Shared objects) and the partition values derived from rows.
 */
import { Effect, Schema } from "effect"
import type { Listing, PartitionKey, Row } from "../src/crawl/Dataset.ts"
import { listPage } from "../src/crawl/RestListing.ts"
import type { Slice } from "../src/crawl/Slice.ts"
import { type SinkError, SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { DecimalString, IntegerLike, UnixSeconds } from "../src/transform/Decode.ts"

/** UTC calendar day of a timestamp column, the `date` Hive key. */
export const utcDate = (column: string) => (row: Row): string => (row[column] as Date).toISOString().slice(0, 10)

export const AssetAmount = Schema.Struct({
  assetId: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  denomination: Schema.Number.pipe(Schema.int()),
  type: Schema.String,
  amount: DecimalString
})

export const assetAmountRow = (a: typeof AssetAmount.Type) => ({
  asset_id: a.assetId,
  name: a.name,
  symbol: a.symbol,
  denomination: a.denomination,
  type: a.type,
  amount: a.amount
})

const opt = Schema.optional

export const Utxo = Schema.Struct({
  utxoId: Schema.String,
  txHash: Schema.String,
  outputIndex: Schema.Number.pipe(Schema.int()),
  assetId: opt(Schema.String),
  amount: opt(DecimalString),
  asset: AssetAmount,
  addresses: Schema.Array(Schema.String),
  threshold: opt(Schema.Number.pipe(Schema.int())),
  utxoType: Schema.String,
  rewardType: opt(Schema.String),
  staked: opt(Schema.Boolean),
  blockNumber: DecimalString,
  blockTimestamp: UnixSeconds,
  consumingTxHash: opt(Schema.String),
  consumingBlockNumber: opt(DecimalString),
  consumingBlockTimestamp: opt(UnixSeconds),
  createdOnChainId: Schema.String,
  consumedOnChainId: Schema.String,
  platformLocktime: opt(IntegerLike),
  stakeableLocktime: opt(IntegerLike),
  utxoStartTimestamp: opt(UnixSeconds),
  utxoEndTimestamp: opt(UnixSeconds),
  utxoBytes: opt(Schema.String)
})

export const utxoRow = (u: typeof Utxo.Type) => ({
  utxo_id: u.utxoId,
  tx_hash: u.txHash,
  output_index: u.outputIndex,
  // the top-level assetId/amount are deprecated in the official document: the asset object rules
  asset_id: u.asset.assetId,
  amount: u.asset.amount,
  addresses: u.addresses,
  threshold: u.threshold ?? null,
  utxo_type: u.utxoType,
  reward_type: u.rewardType ?? null,
  staked: u.staked ?? null,
  block_number: u.blockNumber,
  block_timestamp: u.blockTimestamp,
  consuming_tx_hash: u.consumingTxHash ?? null,
  consuming_block_number: u.consumingBlockNumber ?? null,
  consuming_block_timestamp: u.consumingBlockTimestamp ?? null,
  created_on_chain_id: u.createdOnChainId,
  consumed_on_chain_id: u.consumedOnChainId,
  platform_locktime: u.platformLocktime ?? null,
  stakeable_locktime: u.stakeableLocktime ?? null,
  utxo_start_timestamp: u.utxoStartTimestamp ?? null,
  utxo_end_timestamp: u.utxoEndTimestamp ?? null,
  utxo_bytes: u.utxoBytes ?? null
})

// — primary-network REST datasets (delegators, validators, l1_validators, utxos, aggregated_signatures) —

/** A Hive key the row carries as a string column (network, blockchain, snapshot_date). */
export const columnKey = (key: string, type: "VARCHAR" | "DATE" = "VARCHAR"): PartitionKey => ({ key, type, value: (row) => String(row[key]) })

/** The Hive keys of a per-network snapshot: network, then the run's UTC day. */
export const snapshotKeys: ReadonlyArray<PartitionKey> = [columnKey("network"), columnKey("snapshot_date", "DATE")]


/**
 * Every item of a GET list route, page after page: for fan-outs where one key is a whole listing
 * (route 7 per node id). The key is small (a node's validations), so its pages are held together.
 */
export const getAllPages = (path: string, query: Record<string, string | number | boolean | undefined>, items: string, pageSize: number) =>
  Effect.gen(function* () {
    const client = yield* RestClient
    const out: unknown[] = []
    let token: string | undefined
    do {
      const body = yield* client.get("data", path, { ...query, pageSize, pageToken: token })
      const page = yield* listPage(body, items, `GET data ${path}`)
      out.push(...page.records)
      token = page.next
    } while (token !== undefined)
    return out
  })


/**
 * A listing that yields each record key at most once per slice, even when the service repeats a
 * record on a later page (paging over a set that changes between pages). Keys seen are kept while
 * the listing runs; a listing resumed from a checkpoint in a new process first reads the keys its
 * slice already committed (`committed`), so a repeat across the crash is dropped as well.
 * Records without a key pass through to toRow, which rejects them.
 */
export const distinctRecords = <R, R2>(
  listing: Listing<R>,
  keyOf: (record: unknown) => string | undefined,
  committed: (slice: Slice) => Effect.Effect<ReadonlyArray<string>, SinkError, R2>
): Listing<R | R2> => {
  // per slice: the cursor this listing handed out last, and the keys seen up to it
  const running = new Map<string, { next: string; seen: Set<string> }>()
  return {
    ...listing,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const mine = running.get(slice.id)
        // the first page starts afresh (the crawler skips committed keys itself on a restart);
        // a cursor this listing did not just hand out is a resume: reload what is on disk
        const seen =
          cursor === undefined ? new Set<string>() : mine !== undefined && mine.next === cursor ? mine.seen : new Set(yield* committed(slice))
        const page = yield* listing.fetch(slice, cursor)
        const records = page.records.filter((r) => {
          const key = keyOf(r)
          if (key === undefined) return true
          if (seen.has(key)) return false
          seen.add(key)
          return true
        })
        if (page.next === undefined) running.delete(slice.id)
        else running.set(slice.id, { next: page.next, seen })
        return { records, next: page.next }
      })
  }
}
