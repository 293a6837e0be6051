/**
 * The registry as `chainetl status` sees it (src/crawl/DatasetMeta.ts): compiled, from the
 * metadata the build wrote beside the CLI's modules out of the same declarations (loading the
 * pipelines themselves, their decoders, Arrow and the HTTP stack, was most of status's start-up);
 * from source (tsx, tests), derived from pipelines/ directly. bin/chainetl.mjs runs the compiled
 * CLI only when it is newer than every source, so the file never describes other pipelines.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import { DATASET_META_FILE, type DatasetMeta, metaOf } from "../crawl/DatasetMeta.ts"

export const datasetMeta: Effect.Effect<ReadonlyArray<DatasetMeta>> = Effect.promise(async () => {
  const built = await fs.readFile(new URL(`./${DATASET_META_FILE}`, import.meta.url), "utf8").catch(() => undefined)
  if (built !== undefined) return JSON.parse(built) as ReadonlyArray<DatasetMeta>
  const { datasets } = await import("../../pipelines/index.ts")
  return metaOf(datasets)
})
