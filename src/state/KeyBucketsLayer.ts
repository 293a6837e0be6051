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
  url: Option.Option<Redacted.Redacted<string>>,
  budgets: "write" | "keep" = "write"
): Layer.Layer<KeyBuckets, ConfigError | KeyStoreError> =>
  Option.isNone(url) || settings.apiKeys.length === 0
    ? KeyBuckets.local
    : Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./PgKeyBuckets.ts")), (pg) => pg.pgKeyBucketsLayer(url.value, budgets))).pipe(
        Layer.provide(SourceConfig.layerOf(settings))
      )

/**
 * As the environment says (CHAINETL_STATE_URL). `budgets`: "write" puts this process's budgets in
 * the shared rows (a run, the enqueuer of a distributed one); "keep" only fills rows that are
 * missing (a worker, whose budgets come with each job: PgKeyBuckets.ts).
 */
export const keyBucketsLayer = (settings: SourceSettings, budgets: "write" | "keep" = "write"): Layer.Layer<KeyBuckets, ConfigError | KeyStoreError> =>
  Layer.unwrapEffect(Effect.map(loadStateUrl, (url) => keyBucketsLayerOf(settings, url, budgets)))
