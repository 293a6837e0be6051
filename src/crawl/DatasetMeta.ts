/**
 * What the CLI needs of the registry before it loads it: each dataset's name in run order, the
 * services it calls, whether `chainetl backfill` takes it, whether its slices are time windows,
 * and where its scanned height is read. Derived from the declarations in pipelines/ (one truth),
 * as plain data: the build writes it beside the compiled CLI (scripts/build.mjs), so `--help`,
 * the settings check and status read it without loading the pipelines, their decoders, Arrow
 * schemas and HTTP clients.
 */
import type { Service } from "../Config.ts"
import type { DatasetDef, HeightColumns } from "./Dataset.ts"

export interface DatasetMeta {
  readonly name: string
  /** The services its listing calls (all three when its definition does not say). */
  readonly services: ReadonlyArray<Service>
  /** `chainetl backfill` takes it: time windows of its own, or a range it cuts itself (DatasetDef.backfill). */
  readonly backfillable: boolean
  /** Its slices are time windows (Windows.ts): status reports their watermark. */
  readonly windowed: boolean
  readonly heights?: HeightColumns
}

const ALL_SERVICES: ReadonlyArray<Service> = ["data", "metrics", "node"]

/** The metadata of registered datasets, in their order; JSON-safe. */
export const metaOf = (
  datasets: ReadonlyArray<Pick<DatasetDef<unknown>, "name" | "services" | "backfill" | "windows" | "heights">>
): ReadonlyArray<DatasetMeta> =>
  datasets.map((d) => ({
    name: d.name,
    services: d.services ?? ALL_SERVICES,
    backfillable: d.windows !== undefined || d.backfill !== undefined,
    windowed: d.windows !== undefined,
    ...(d.heights === undefined
      ? {}
      : { heights: { listing: d.heights.listing, column: d.heights.column, ...(d.heights.reach === undefined ? {} : { reach: d.heights.reach }) } })
  }))

/** The file the build writes next to the compiled CLI's modules. */
export const DATASET_META_FILE = "dataset-meta.json"
