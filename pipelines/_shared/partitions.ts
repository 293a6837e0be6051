/** Partition values derived from rows: the `date` Hive key and keys the row carries as columns. */
import { type PartitionKey, type Row } from "../../src/crawl/Dataset.ts"

const DAY_MS = 86_400_000

/**
 * The UTC day of a row's timestamp column, YYYY-MM-DD. Listings come in time order, so the day of
 * the previous row is remembered: one string per day, not one per row (this runs for every row).
 */
export const utcDate = (column: string) => {
  let lastDay = Number.NaN
  let lastText = ""
  return (row: Row): string => {
    const day = Math.floor((row[column] as Date).getTime() / DAY_MS)
    if (day !== lastDay) {
      lastText = new Date(day * DAY_MS).toISOString().slice(0, 10)
      lastDay = day
    }
    return lastText
  }
}

/** A Hive key the row carries as a string column (network, blockchain, snapshot_date). */
export const columnKey = (key: string, type: "VARCHAR" | "DATE" = "VARCHAR"): PartitionKey => ({ key, type, value: (row) => String(row[key]) })

/** The Hive keys of a per-network snapshot: network, then the run's UTC day. */
export const snapshotKeys: ReadonlyArray<PartitionKey> = [columnKey("network"), columnKey("snapshot_date", "DATE")]

/**
 * The `date` key of node rows: the UTC day of the block's time; a block whose json has no time
 * (the seed's P-chain block lists none; pre-Banff blocks have none) goes under the day chainetl
 * ingested it, the best bound available without it.
 */
export const blockDay = (column: string) => (row: Row): string => ((row[column] as Date | null) ?? (row["ingested_at"] as Date)).toISOString().slice(0, 10)
