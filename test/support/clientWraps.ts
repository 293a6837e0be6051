/**
 * runSpine `wrap`s that put a test's layer over the real source clients: log the calls a run
 * made, or reshape some (change params, fail them, rewrite results). The run already needs the
 * client, so its requirements are unchanged.
 */
import { Effect } from "effect"
import { JsonRpcClient, type JsonRpcClientService } from "../../src/source/JsonRpcClient.ts"
import { RestClient } from "../../src/source/RestClient.ts"

type Rec = Record<string, unknown>

/** JSON-RPC calls a run made, by method, with their params. */
export interface Calls {
  readonly log: Array<{ readonly method: string; readonly params: Rec }>
  count(method: string): number
}

export const newCalls = (): Calls => {
  const log: Array<{ method: string; params: Rec }> = []
  return { log, count: (method) => log.filter((c) => c.method === method).length }
}

/** Logs each JSON-RPC call into `calls`; `around`, when given, makes the call in the real one's place. */
export const overRpc =
  (calls: Calls, around?: (real: JsonRpcClientService["call"], chain: string, method: string, params: Rec) => ReturnType<JsonRpcClientService["call"]>) =>
  <A, E, R>(e: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.updateService(e, JsonRpcClient, (real) => ({
      call: (chain, method, params) => {
        calls.log.push({ method, params: params ?? {} })
        return around === undefined ? real.call(chain, method, params) : around(real.call, chain, method, params ?? {})
      }
    })) as Effect.Effect<A, E, R>

/** Puts `f`'s RestClient over the real one (count, reshape or fail some requests). */
export const overRestClient =
  (f: (real: RestClient["Type"]) => RestClient["Type"]) =>
  <A, E, R>(e: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.updateService(e, RestClient, f) as Effect.Effect<A, E, R>
