/**
 * The source side assembled once: both clients over one SourceHttp, one RateLimiter and one
 * SourceStats, so every caller of a host shares its limiter and its counters.
 *
 * HTTP runs on node:http (NodeHttpClient), not fetch: a socket reset surfaces as an error with
 * its code (ECONNRESET, ECONNREFUSED) whether it happens before the headers or mid-body, and
 * interrupting the read (our timeout) destroys the socket. FetchHttpClient times out as well,
 * but reports the same failures as "fetch failed"/"terminated" TypeErrors with the code buried a
 * level down, so errors would not say what happened. Sockets are kept alive between requests.
 */
import { NodeHttpClient } from "@effect/platform-node"
import type { HttpClient } from "@effect/platform"
import { Layer } from "effect"
import { loadSourceSettings, SourceConfig, type FieldLabels, type SourceSettingsInput } from "../Config.ts"
import type { ConfigError } from "../Errors.ts"
import { JsonRpcClient } from "./JsonRpcClient.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RestClient } from "./RestClient.ts"
import { SourceHttp } from "./SourceHttp.ts"
import { SourceStats } from "./SourceStats.ts"

export type Source = RestClient | JsonRpcClient | SourceStats | RateLimiter

export const nodeHttpClientLayer: Layer.Layer<HttpClient.HttpClient> = NodeHttpClient.layerWithoutAgent.pipe(
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: true }))
)

/** Everything of the source side given settings and an HttpClient (tests may bring their own). */
export const sourceLayerWithClient: Layer.Layer<Source, never, SourceConfig | HttpClient.HttpClient> = Layer.mergeAll(
  RestClient.layer,
  JsonRpcClient.layer
).pipe(
  Layer.provide(SourceHttp.layer),
  Layer.provideMerge(RateLimiter.layer),
  Layer.provideMerge(SourceStats.layer)
)

/** Everything of the source side given settings. */
export const sourceLayer: Layer.Layer<Source, never, SourceConfig> = sourceLayerWithClient.pipe(
  Layer.provide(nodeHttpClientLayer)
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
