/**
 * Where the API keys' buckets live for a command: with CHAINETL_STATE_URL set and keys to share,
 * in PostgreSQL (every process using a key shares its budget); otherwise in this process. Like
 * StateLayer, the driver is imported only when it is used.
 */
import { Effect, Layer, Option, type Redacted } from "effect"
import type { SourceSettings } from "../Config.ts"
import type { ConfigError } from "../Errors.ts"
import { KeyBuckets, type KeyStoreError } from "../source/KeyBuckets.ts"
import { SourceConfig } from "../Config.ts"
import { loadStateUrl } from "./StateConfig.ts"

export const keyBucketsLayerOf = (
  settings: SourceSettings,
  url: Option.Option<Redacted.Redacted<string>>
): Layer.Layer<KeyBuckets, ConfigError | KeyStoreError> =>
  Option.isNone(url) || settings.apiKeys.length === 0
    ? KeyBuckets.local
    : Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./PgKeyBuckets.ts")), (pg) => pg.pgKeyBucketsLayer(url.value))).pipe(
        Layer.provide(SourceConfig.layerOf(settings))
      )

/** As the environment says (CHAINETL_STATE_URL). */
export const keyBucketsLayer = (settings: SourceSettings): Layer.Layer<KeyBuckets, ConfigError | KeyStoreError> =>
  Layer.unwrapEffect(Effect.map(loadStateUrl, (url) => keyBucketsLayerOf(settings, url)))
