/**
 * What the distributed commands run on, built from CHAINETL_STATE_URL: the job queue of the
 * output (pg-boss, PgBossQueue.ts) and a PostgreSQL client for the slice and output locks. Loaded
 * only by `run --distributed`, `backfill --distributed` and `worker` (the CLI imports it on demand).
 */
import { Effect, Layer, type Redacted } from "effect"
import { ensureOutputId } from "../state/OutputId.ts"
import { pgDatabase } from "../state/PgDatabase.ts"
import { pgBossQueueLayer } from "./PgBossQueue.ts"
import type { DistributedSettings } from "./Settings.ts"

export const distributedLayer = (out: string, url: Redacted.Redacted<string>, settings: DistributedSettings) =>
  Layer.merge(
    Layer.unwrapEffect(Effect.map(ensureOutputId(out), (id) => pgBossQueueLayer(url, id, settings))),
    pgDatabase(url)
  )
