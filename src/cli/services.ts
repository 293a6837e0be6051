/**
 * The registry's facts the CLI needs at start-up — which datasets there are, which services each
 * calls (a run of `delegators` alone needs CHAINETL_BASE_URL, not the metrics or node URL), which
 * `chainetl backfill` takes — declared by each dataset (pipelines/<name>.ts) and read here as
 * plain data: the compiled CLI reads the file the build wrote beside it (src/crawl/DatasetMeta.ts,
 * scripts/build.mjs), so `--help` and the settings check load no pipeline, decoder or Arrow
 * schema; from source (tsx, tests) there is no such file and the registry itself is loaded.
 * bin/chainetl.mjs runs the compiled CLI only when it is newer than every source, so the file
 * never describes other pipelines.
 */
import { readFileSync } from "node:fs"
import type { Service } from "../Config.ts"
import { DATASET_META_FILE, type DatasetMeta, metaOf } from "../crawl/DatasetMeta.ts"

const built = ((): string | undefined => {
  try {
    return readFileSync(new URL(`./${DATASET_META_FILE}`, import.meta.url), "utf8")
  } catch {
    return undefined
  }
})()

const meta: ReadonlyArray<DatasetMeta> =
  built !== undefined ? (JSON.parse(built) as ReadonlyArray<DatasetMeta>) : metaOf((await import("../../pipelines/index.ts")).datasets)

/** The services each registered dataset calls. */
export const servicesOf: Readonly<Record<string, ReadonlyArray<Service>>> = Object.fromEntries(meta.map((m) => [m.name, m.services]))

/** The services the named datasets call, in a stable order; all three for an unknown name. */
export const servicesFor = (names: ReadonlyArray<string>): ReadonlyArray<Service> => {
  const used = new Set<Service>()
  for (const n of names) for (const s of servicesOf[n] ?? ["data", "metrics", "node"]) used.add(s)
  return (["data", "metrics", "node"] as const).filter((s) => used.has(s))
}

/** Every registered dataset, in registry order. */
export const datasetNames: ReadonlyArray<string> = meta.map((m) => m.name)

/** The datasets `chainetl backfill` takes. */
export const BACKFILLABLE: ReadonlyArray<string> = meta.filter((m) => m.backfillable).map((m) => m.name)
