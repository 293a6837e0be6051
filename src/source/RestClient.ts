/**
 * The chain-data and metrics REST services. An API key goes only to the chain-data service (the
 * metrics service takes none) and only when one is configured: SourceHttp picks the key per
 * request (KeyLimiter.ts), so a request here is only marked `keyed`.
 */
import { Context, Effect, Layer } from "effect"
import { SourceConfig, type SourceSettings } from "../Config.ts"
import type { SourceError } from "../Errors.ts"
import { SourceHttp } from "./SourceHttp.ts"

export type RestService = "data" | "metrics"

export type Query = Readonly<Record<string, string | number | boolean | undefined>>

export interface RestClientService {
  readonly get: (service: RestService, path: string, query?: Query) => Effect.Effect<unknown, SourceError>
  readonly post: (service: RestService, path: string, query: Query | undefined, body: unknown) => Effect.Effect<unknown, SourceError>
}

/** `?a=1&b=x` with undefined values left out, or "" when nothing remains. */
export const queryString = (query: Query | undefined): string => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v))
  const s = params.toString()
  return s === "" ? "" : `?${s}`
}

/** `GET data /v1/networks/mainnet/delegators?pageSize=100`: what errors and logs call the request. */
export const restLabel = (method: "GET" | "POST", service: RestService, path: string, query?: Query): string =>
  `${method} ${service} ${path}${queryString(query)}`

export const makeRestClient = (settings: SourceSettings, http: SourceHttp["Type"]): RestClientService => {
  const root = (service: RestService) => (service === "data" ? settings.baseUrl : settings.metricsUrl)

  const send = (method: "GET" | "POST", service: RestService, rawPath: string, query: Query | undefined, body?: unknown) => {
    const path = rawPath.startsWith("/") ? rawPath : `/${rawPath}`
    const url = `${root(service)}${path}${queryString(query)}`
    const headers: Record<string, string> = { accept: "application/json" }
    const request = method === "POST" ? { method, url, headers, body: JSON.stringify(body) } : { method, url, headers }
    return http.execute({ label: restLabel(method, service, path, query), request, keyed: service === "data" })
  }

  return {
    get: (service, path, query) => send("GET", service, path, query),
    post: (service, path, query, body) => send("POST", service, path, query, body)
  }
}

export class RestClient extends Context.Tag("chainetl/RestClient")<RestClient, RestClientService>() {
  static readonly layer: Layer.Layer<RestClient, never, SourceConfig | SourceHttp> = Layer.effect(
    RestClient,
    Effect.zipWith(SourceConfig, SourceHttp, makeRestClient)
  )

  /** For crawler tests: answers every request with `handler`, no HTTP involved. */
  static readonly layerTest = (
    handler: (request: {
      readonly method: "GET" | "POST"
      readonly service: RestService
      readonly path: string
      readonly query: Query
      readonly body?: unknown
    }) => Effect.Effect<unknown, SourceError>
  ): Layer.Layer<RestClient> =>
    Layer.succeed(RestClient, {
      get: (service, path, query) => handler({ method: "GET", service, path, query: query ?? {} }),
      post: (service, path, query, body) => handler({ method: "POST", service, path, query: query ?? {}, body })
    })
}
