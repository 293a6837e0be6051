/** Every dataset of the registry, plus `_rejects`, as the catalog sees them. */
import { datasets } from "../pipelines/index.ts"
import type { ChildDataset, DatasetDef } from "./crawl/Dataset.ts"
import { type Grain, MONTH_COMMENT, withGrain } from "./crawl/Grain.ts"
import type { CatalogDataset, LatestSpec } from "./sink/CatalogSql.ts"
import { rejectsDataset } from "./transform/Rejects.ts"

type Table = Pick<ChildDataset, "name" | "schema" | "partitionBy">

/**
 * Columns that, besides the Hive keys, name the listing a slice crawls (its slice params that are
 * columns): a dataset's `key` is unique only within its slice, so these join it in the entity key
 * of the `_latest` view, and a snapshot's "latest snapshot_date" is taken per listing. A new
 * dataset whose slices are split by a column that is not a Hive key adds it here.
 */
const SLICE_COLUMNS: Readonly<Record<string, ReadonlyArray<string>>> = {
  utxos: ["address_set"],
  avm_utxos: ["address_set", "source_chain"],
  token_holders: ["contract_address"],
  nft_holders: ["contract_address"],
  current_validators: ["subnet_id"]
}

/** Child tables have no `key` of their own: a transfer is a log of its transaction, an internal transaction a trace. */
const CHILD_KEYS: Readonly<Record<string, ReadonlyArray<string>>> = {
  evm_erc20_transfers: ["tx_hash", "log_index"],
  evm_erc721_transfers: ["tx_hash", "log_index"],
  evm_erc1155_transfers: ["tx_hash", "log_index"],
  evm_internal_transactions: ["tx_hash", "trace_index"]
}

const TIME_KEYS = new Set(["date", "month", "snapshot_date"])

/**
 * The `_latest` view of a table: the entity key is the table's Hive keys but the time ones, its
 * slice columns and its own key. A snapshot dataset (a `snapshot_date` Hive key on a slice that
 * is final once done) keeps each listing's latest snapshot; `assets`, whose `snapshot_date` is the
 * day a key was first seen, is keyed like an appending dataset.
 */
const latestOf = (t: Table, ownKey: ReadonlyArray<string> | undefined, rerun: DatasetDef<unknown>["rerun"]): LatestSpec | undefined => {
  if (ownKey === undefined || ownKey.length === 0) return undefined
  const scope = [...new Set([...t.partitionBy.map((p) => p.key).filter((k) => !TIME_KEYS.has(k)), ...(SLICE_COLUMNS[t.name] ?? [])])]
  const key = [...new Set([...scope, ...ownKey])]
  const snapshot = t.partitionBy.some((p) => p.key === "snapshot_date") && rerun !== "always"
  return snapshot ? { key, snapshotScope: scope } : { key }
}

const entry = (d: Table, latest?: LatestSpec): CatalogDataset => ({
  name: d.name,
  schema: d.schema,
  partitionKeys: d.partitionBy.map((p) => ({ key: p.key, type: p.type, ...(p.key === "month" ? { comment: MONTH_COMMENT } : {}) })),
  ...(latest === undefined ? {} : { latest })
})

/** The dataset and its child tables at one grain, each with its `_latest` spec. */
const tables = (d: DatasetDef<unknown>, grain?: Grain): ReadonlyArray<CatalogDataset> => {
  const at = withGrain(d, grain)
  return [
    entry(at, latestOf(at, at.key, at.rerun)),
    ...(at.children ?? []).map((c) => entry(c, latestOf(c, CHILD_KEYS[c.name], at.rerun)))
  ]
}

/**
 * Time-partitioned datasets carry their layout at both grains (the catalog reads the one on
 * disk); their default grain's is the entry itself.
 */
export const catalogEntries = (): ReadonlyArray<CatalogDataset> => [
  ...datasets.flatMap((d) => {
    const own = tables(d)
    if (d.timePartition === undefined) return own
    const day = tables(d, "day")
    const month = tables(d, "month")
    return own.map((t, i) => ({ ...t, byGrain: { day: day[i]!, month: month[i]! } }))
  }),
  entry(rejectsDataset)
]
