/**
 * The state of an output in PostgreSQL: checkpoints and the writer lock over one database client.
 * Its own module so that StateLayer loads @effect/sql and the pg driver only when
 * CHAINETL_STATE_URL is set (status and the other commands start without them).
 */
import { Layer, type Redacted } from "effect"
import { pgCheckpointStoreLayer } from "./PgCheckpointStore.ts"
import { pgDatabase } from "./PgDatabase.ts"
import { pgWriterLockLayer } from "./PgWriterLock.ts"

export const pgStateLayer = (out: string, url: Redacted.Redacted<string>) =>
  Layer.merge(pgCheckpointStoreLayer(out), pgWriterLockLayer).pipe(Layer.provide(pgDatabase(url)))
