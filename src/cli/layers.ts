/**
 * The services a run needs, built once from validated settings: the source side (clients,
 * limiter, stats; the API keys' buckets shared in PostgreSQL when CHAINETL_STATE_URL is set), the
 * Parquet sink, the checkpoint store and writer lock (in the folder, or in PostgreSQL when
 * CHAINETL_STATE_URL is set), the committed-key reader and where committed files end up.
 */
import { Layer } from "effect"
import { SourceConfig, type SourceSettings } from "../Config.ts"
import { CommittedKeys } from "../crawl/CommittedKeys.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { sourceLayerWithBuckets } from "../source/SourceLayer.ts"
import { keyBucketsLayer } from "../state/KeyBucketsLayer.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { stateLayer } from "../state/StateLayer.ts"

/**
 * `settings` are validated before the run touches anything (runCommand). `store` is where committed
 * files end up: the folder itself (nothing to do) or, for an s3:// output, the bucket `out` is a
 * working copy of. `keyBudgets`: "write" (a run: its budgets go into the keys' shared rows) or
 * "keep" (a worker: rows that exist keep the budgets a job wrote; its own only fill missing rows).
 * The keys' buckets are in the context too, so that a worker can write a job's budgets into them.
 */
export const runLayers = (
  out: string,
  settings: SourceSettings,
  store: Layer.Layer<OutputStore> = OutputStore.folder(out),
  options: { readonly keyBudgets: "write" | "keep" } = { keyBudgets: "write" }
) =>
  Layer.mergeAll(
    sourceLayerWithBuckets.pipe(Layer.provideMerge(keyBucketsLayer(settings, options.keyBudgets)), Layer.provideMerge(SourceConfig.layerOf(settings))),
    ParquetSink.layer(out).pipe(Layer.provide(store)),
    stateLayer(out),
    CommittedKeys.layer(out),
    OutputReader.layer(out, catalogEntries()),
    store
  )
