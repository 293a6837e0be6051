/** Every dataset of the registry, plus `_rejects`, as the catalog sees them. */
import { datasets } from "../pipelines/index.ts"
import type { CatalogDataset } from "./sink/Catalog.ts"
import { rejectsDataset } from "./transform/Rejects.ts"

export const catalogEntries = (): ReadonlyArray<CatalogDataset> =>
  [...datasets.flatMap((d) => [d, ...(d.children ?? [])]), rejectsDataset].map((d) => ({
    name: d.name,
    schema: d.schema,
    partitionKeys: d.partitionBy.map((p) => ({ key: p.key, type: p.type }))
  }))
