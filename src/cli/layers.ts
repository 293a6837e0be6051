/**
 * The services a run needs, built once from validated settings: the source side (clients,
 * limiter, stats), the Parquet sink, the checkpoint store and the committed-key reader.
 */
import { Layer } from "effect"
import type { SourceSettingsInput } from "../Config.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { CommittedKeys } from "../crawl/CommittedKeys.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { ParquetSink } from "../sink/ParquetSink.ts"
import { sourceLayerFromEnv } from "../source/SourceLayer.ts"

export const runLayers = (out: string, overrides: SourceSettingsInput, labels: Record<string, string> = {}) =>
  Layer.mergeAll(
    sourceLayerFromEnv(overrides, labels),
    ParquetSink.layer(out),
    CheckpointStore.layer(out),
    CommittedKeys.layer(out),
    OutputReader.layer(out, catalogEntries())
  )
