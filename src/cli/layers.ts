/**
 * The services a run needs, built once from validated settings: the source side (clients,
 * limiter, stats; the API keys' buckets shared in PostgreSQL when CHAINETL_STATE_URL is set), the Parquet sink, the checkpoint store and writer lock (in the folder, or in
 * PostgreSQL when CHAINETL_STATE_URL is set) and the committed-key reader.
 */
import { Layer } from "effect"
import { SourceConfig, type SourceSettings } from "../Config.ts"
import { CommittedKeys } from "../crawl/CommittedKeys.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { sourceLayerWithBuckets } from "../source/SourceLayer.ts"
import { keyBucketsLayer } from "../state/KeyBucketsLayer.ts"
import { stateLayer } from "../state/StateLayer.ts"

/** `settings` are validated before the run touches anything (runCommand). */
export const runLayers = (out: string, settings: SourceSettings) =>
  Layer.mergeAll(
    sourceLayerWithBuckets.pipe(Layer.provide(keyBucketsLayer(settings)), Layer.provideMerge(SourceConfig.layerOf(settings))),
    ParquetSink.layer(out),
    stateLayer(out),
    CommittedKeys.layer(out),
    OutputReader.layer(out, catalogEntries())
  )
