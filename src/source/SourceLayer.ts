/**
 * The source side assembled once: both clients over one SourceHttp, one RateLimiter and one
 * SourceStats, so every caller of a host shares its limiter and its counters.
 *
 * HTTP runs on node:http (Transport.ts), not fetch: a socket reset surfaces as an error with
 * its code (ECONNRESET, ECONNREFUSED) whether it happens before the headers or mid-body, and
 * interrupting the read (our timeout) destroys the socket. fetch reports the same failures as
 * "fetch failed"/"terminated" TypeErrors with the code buried a level down, so errors would not
 * say what happened. Sockets are kept alive between requests.
 */
import { Layer } from "effect"
import { loadSourceSettings, SourceConfig, type FieldLabels, type SourceSettingsInput } from "../Config.ts"
import type { ConfigError } from "../Errors.ts"
import { JsonRpcClient } from "./JsonRpcClient.ts"
import { KeyBuckets } from "./KeyBuckets.ts"
import { KeyLimiter } from "./KeyLimiter.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RestClient } from "./RestClient.ts"
import { SourceHttp } from "./SourceHttp.ts"
import { SourceStats } from "./SourceStats.ts"
import { Transport } from "./Transport.ts"

export type Source = RestClient | JsonRpcClient | SourceStats | RateLimiter | KeyLimiter

/**
 * Everything of the source side given settings, a Transport (tests may bring their own) and the
 * keys' buckets: KeyBuckets.local in one process, PostgreSQL's (state/PgKeyBuckets.ts) to share
 * each key's budget with every process using it.
 */
export const sourceLayerOver: Layer.Layer<Source, never, SourceConfig | Transport | KeyBuckets> = Layer.mergeAll(
  RestClient.layer,
  JsonRpcClient.layer
).pipe(
  Layer.provide(SourceHttp.layer),
  Layer.provideMerge(Layer.merge(RateLimiter.layer, KeyLimiter.layer)),
  Layer.provideMerge(SourceStats.layer)
)

/** Everything of the source side given settings and a Transport, the keys' buckets in this process. */
export const sourceLayerWithTransport: Layer.Layer<Source, never, SourceConfig | Transport> = sourceLayerOver.pipe(
  Layer.provide(KeyBuckets.local)
)

/** Everything of the source side given settings and the keys' buckets. */
export const sourceLayerWithBuckets: Layer.Layer<Source, never, SourceConfig | KeyBuckets> = sourceLayerOver.pipe(
  Layer.provide(Transport.layer)
)

/** Everything of the source side given settings. */
export const sourceLayer: Layer.Layer<Source, never, SourceConfig> = sourceLayerWithTransport.pipe(
  Layer.provide(Transport.layer)
)

/** From explicit values (tests with a fake server's URLs). */
export const sourceLayerWith = (input: SourceSettingsInput): Layer.Layer<Source | SourceConfig, ConfigError> =>
  sourceLayer.pipe(Layer.provideMerge(SourceConfig.layerWith(input)))

/** From the environment, with CLI flags (named by `labels` in errors) winning over it. */
export const sourceLayerFromEnv = (
  overrides: SourceSettingsInput = {},
  labels: FieldLabels = {}
): Layer.Layer<Source | SourceConfig, ConfigError> =>
  sourceLayer.pipe(Layer.provideMerge(Layer.effect(SourceConfig, loadSourceSettings(overrides, labels))))
