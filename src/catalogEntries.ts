/** Every dataset of the registry, plus `_rejects`, as the catalog sees them. */
import { datasets } from "../pipelines/index.ts"
import type { ChildDataset, DatasetDef } from "./crawl/Dataset.ts"
import { type Grain, MONTH_COMMENT, withGrain } from "./crawl/Grain.ts"
import type { CatalogDataset } from "./sink/Catalog.ts"
import { rejectsDataset } from "./transform/Rejects.ts"

type Table = Pick<ChildDataset, "name" | "schema" | "partitionBy">

const entry = (d: Table): CatalogDataset => ({
  name: d.name,
  schema: d.schema,
  partitionKeys: d.partitionBy.map((p) => ({ key: p.key, type: p.type, ...(p.key === "month" ? { comment: MONTH_COMMENT } : {}) }))
})

/** The dataset and its child tables at one grain. */
const tables = (d: DatasetDef<unknown>, grain?: Grain): ReadonlyArray<Table> => {
  const at = withGrain(d, grain)
  return [at, ...(at.children ?? [])]
}

/**
 * Time-partitioned datasets carry their layout at both grains (the catalog reads the one on
 * disk); their default grain's is the entry itself.
 */
export const catalogEntries = (): ReadonlyArray<CatalogDataset> => [
  ...datasets.flatMap((d) => {
    const own = tables(d)
    if (d.timePartition === undefined) return own.map(entry)
    const day = tables(d, "day")
    const month = tables(d, "month")
    return own.map((t, i) => ({ ...entry(t), byGrain: { day: entry(day[i]!), month: entry(month[i]!) } }))
  }),
  entry(rejectsDataset)
]
