/**
 * Where a command keeps checkpoints and the writer lock: in the output folder (`<out>/_state`,
 * the embedded default, unchanged) unless CHAINETL_STATE_URL names a PostgreSQL database. Every
 * command that reads or writes checkpoints builds its store here, so `run`, `status`, `report`
 * and `compact` agree on where the state is.
 */
import { Effect, Layer, Option, type Redacted } from "effect"
import type { ConfigError } from "../Errors.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { WriterLock } from "../sink/WriterLock.ts"
import { loadStateUrl } from "./StateConfig.ts"
import { checkStateHome } from "./StateHome.ts"

/** The state of `out` at `url` (PostgreSQL), or in the folder when `url` is none. */
export const stateLayerOf = (
  out: string,
  url: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<CheckpointStore | WriterLock, ConfigError> =>
  Option.match(url, {
    onNone: () => Layer.merge(CheckpointStore.layer(out), WriterLock.file),
    // imported on demand: the driver is not loaded by runs that keep their state in the folder
    onSome: (u) => Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./PgState.ts")), (pg) => pg.pgStateLayer(out, u)))
  }).pipe(Layer.provide(Layer.effectDiscard(checkStateHome(out, Option.isSome(url)))))

/** As the environment says (CHAINETL_STATE_URL). */
export const stateLayer = (out: string): Layer.Layer<CheckpointStore | WriterLock, ConfigError> =>
  Layer.unwrapEffect(Effect.map(loadStateUrl, (url) => stateLayerOf(out, url)))
