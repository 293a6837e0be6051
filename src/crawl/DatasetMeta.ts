/**
 * What `chainetl status` needs of the registry: each dataset's name in run order, whether its
 * slices are time windows, and where its scanned height is read. Derived from the declarations in
 * pipelines/ (one truth), as plain data: the build writes it beside the compiled CLI
 * (scripts/build.mjs), so status reads it without loading the pipelines, their decoders,
 * Arrow schemas and HTTP clients.
 */
import type { DatasetDef, HeightColumns } from "./Dataset.ts"

export interface DatasetMeta {
  readonly name: string
  /** Its slices are time windows (Windows.ts): status reports their watermark. */
  readonly windowed: boolean
  readonly heights?: HeightColumns
}

/** The metadata of registered datasets, in their order; JSON-safe. */
export const metaOf = (datasets: ReadonlyArray<Pick<DatasetDef<unknown>, "name" | "windows" | "heights">>): ReadonlyArray<DatasetMeta> =>
  datasets.map((d) => ({
    name: d.name,
    windowed: d.windows !== undefined,
    ...(d.heights === undefined
      ? {}
      : { heights: { listing: d.heights.listing, column: d.heights.column, ...(d.heights.reach === undefined ? {} : { reach: d.heights.reach }) } })
  }))

/** The file the build writes next to the compiled CLI's modules. */
export const DATASET_META_FILE = "dataset-meta.json"
