/**
 * JSON-RPC 2.0 calls to the node at {node}/ext/bc/<chain>, through the same exchange as REST.
 *
 * Error objects: the node answers -32000 for handler failures (unknown id, bad height), which a
 * retry does not fix, and -32600/-32601/-32602/-32700 say our request is wrong; all are final.
 * Only -32603 (internal error) is treated like an HTTP 500 and retried.
 */
import { Context, Effect, Either, Layer } from "effect"
import { SourceConfig, type SourceSettings } from "../Config.ts"
import { SourceError } from "../Errors.ts"
import { type AttemptFailure, attemptFailure } from "./Retry.ts"
import { SourceHttp } from "./SourceHttp.ts"

/** "X", "P" or a blockchain id. */
export type Chain = "X" | "P" | (string & {})

export interface JsonRpcClientService {
  readonly call: (chain: Chain, method: string, params?: Record<string, unknown>) => Effect.Effect<unknown, SourceError>
}

const retriedCodes = new Set([-32603])

export const rpcLabel = (chain: Chain, method: string): string => `POST node /ext/bc/${chain} ${method}`

/** The `result` of a response to request `id`, or the failure it stands for. */
export const readRpcResponse =
  (label: string, id: number) =>
  (body: unknown): Either.Either<unknown, AttemptFailure> => {
    const malformed = (why: string) =>
      Either.left(attemptFailure(new SourceError({ reason: "Decode", request: label, status: 200, detail: why }), "never"))
    if (typeof body !== "object" || body === null || Array.isArray(body)) return malformed("response is not a JSON-RPC object")
    const r = body as { id?: unknown; result?: unknown; error?: unknown }
    if (r.error !== undefined && r.error !== null) {
      const e = r.error as { code?: unknown; message?: unknown; data?: unknown }
      const code = typeof e.code === "number" ? e.code : undefined
      const data = e.data === undefined ? "" : ` (data: ${JSON.stringify(e.data).slice(0, 200)})`
      return Either.left(
        attemptFailure(
          new SourceError({
            reason: "Rpc",
            request: label,
            status: 200,
            detail: `code ${code ?? "?"}: ${String(e.message ?? "no message")}${data}`
          }),
          code !== undefined && retriedCodes.has(code) ? "transient" : "never"
        )
      )
    }
    // A server may answer a number id as a string; any other id is someone else's answer.
    if (r.id !== id && r.id !== String(id)) return malformed(`response id ${JSON.stringify(r.id)} is not request id ${id}`)
    if (!("result" in r)) return malformed("response has neither result nor error")
    return Either.right(r.result)
  }

export const makeJsonRpcClient = (settings: SourceSettings, http: SourceHttp["Type"]): JsonRpcClientService => {
  let nextId = 1
  return {
    call: (chain, method, params) =>
      Effect.suspend(() => {
        const id = nextId++
        const label = rpcLabel(chain, method)
        const request = {
          method: "POST" as const,
          url: `${settings.nodeUrl}/ext/bc/${encodeURIComponent(chain)}`,
          headers: { accept: "application/json" },
          // The spec allows params omitted or {}; {} is the form every server accepts.
          body: JSON.stringify({ jsonrpc: "2.0", id, method, params: params ?? {} })
        }
        return http.execute({ label, request, check: readRpcResponse(label, id) })
      })
  }
}

export class JsonRpcClient extends Context.Tag("chainetl/JsonRpcClient")<JsonRpcClient, JsonRpcClientService>() {
  static readonly layer: Layer.Layer<JsonRpcClient, never, SourceConfig | SourceHttp> = Layer.effect(
    JsonRpcClient,
    Effect.zipWith(SourceConfig, SourceHttp, makeJsonRpcClient)
  )

  /** For crawler tests: answers every call with `handler`, no HTTP involved. */
  static readonly layerTest = (
    handler: (call: { readonly chain: Chain; readonly method: string; readonly params: Record<string, unknown> }) => Effect.Effect<unknown, SourceError>
  ): Layer.Layer<JsonRpcClient> =>
    Layer.succeed(JsonRpcClient, { call: (chain, method, params) => handler({ chain, method, params: params ?? {} }) })
}
