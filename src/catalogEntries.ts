/** Every dataset of the registry, plus `_rejects`, as the catalog sees them. */
import { datasets } from "../pipelines/index.ts"
import type { ChildDataset, DatasetDef } from "./crawl/Dataset.ts"
import { type Grain, MONTH_COMMENT, withGrain } from "./transform/Grain.ts"
import type { CatalogDataset, LatestSpec } from "./sink/CatalogSql.ts"
import { rejectsDataset } from "./transform/Rejects.ts"

type Table = Pick<ChildDataset, "name" | "schema" | "partitionBy">

const TIME_KEYS = new Set(["date", "month", "snapshot_date"])

/**
 * The `_latest` view of a table: the entity key is the table's Hive keys but the time ones, its
 * slice columns (DatasetDef.sliceColumns: a `key` is unique only within its slice) and its own
 * key. A snapshot dataset (a `snapshot_date` Hive key on a slice that is final once done) keeps
 * each listing's latest snapshot; `assets`, whose `snapshot_date` is the day a key was first seen,
 * is keyed like an appending dataset.
 */
const latestOf = (t: Table, ownKey: ReadonlyArray<string>, sliceColumns: ReadonlyArray<string>, rerun: DatasetDef<unknown>["rerun"]): LatestSpec | undefined => {
  if (ownKey.length === 0) return undefined
  const scope = [...new Set([...t.partitionBy.map((p) => p.key).filter((k) => !TIME_KEYS.has(k)), ...sliceColumns])]
  const key = [...new Set([...scope, ...ownKey])]
  const snapshot = t.partitionBy.some((p) => p.key === "snapshot_date") && rerun !== "always"
  return snapshot ? { key, snapshotScope: scope } : { key }
}

const entry = (d: Table, latest?: LatestSpec): CatalogDataset => ({
  name: d.name,
  schema: d.schema,
  partitionKeys: d.partitionBy.map((p) => ({ key: p.key, type: p.type, ...(p.key === "month" ? { comment: MONTH_COMMENT } : p.comment === undefined ? {} : { comment: p.comment }) })),
  ...(latest === undefined ? {} : { latest })
})

/** The dataset and its child tables at one grain, each with its `_latest` spec. */
const tables = (d: DatasetDef<unknown>, grain?: Grain): ReadonlyArray<CatalogDataset> => {
  const at = withGrain(d, grain)
  return [
    entry(at, latestOf(at, at.key, at.sliceColumns ?? [], at.rerun)),
    ...(at.children ?? []).map((c) => entry(c, latestOf(c, c.key, [], at.rerun)))
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
