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
import { RateLimiter } from "./RateLimiter.ts"
import { RestClient } from "./RestClient.ts"
import { SourceHttp } from "./SourceHttp.ts"
import { SourceStats } from "./SourceStats.ts"
import { Transport } from "./Transport.ts"

export type Source = RestClient | JsonRpcClient | SourceStats | RateLimiter

/** Everything of the source side given settings and a Transport (tests may bring their own). */
export const sourceLayerWithTransport: Layer.Layer<Source, never, SourceConfig | Transport> = Layer.mergeAll(
  RestClient.layer,
  JsonRpcClient.layer
).pipe(
  Layer.provide(SourceHttp.layer),
  Layer.provideMerge(RateLimiter.layer),
  Layer.provideMerge(SourceStats.layer)
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
