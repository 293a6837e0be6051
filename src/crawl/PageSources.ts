/**
 * The bodies a listing's page was made from, so a rejected record's raw text can be cut from the
 * text the service sent (src/transform/RawText.ts). A listing may build its page from several
 * answers (a fan-out's lookups, a walk's blocks, pages of a sub-listing) and wrap or filter what
 * they hold, so the crawler does not ask the listing: it collects every answer the REST and
 * JSON-RPC clients hand to the listing while the page is fetched, concurrent lookups included.
 *
 * The clients are wrapped once each (the same wrapper for every page, so whatever a listing keys
 * by client, such as the node's network check, keeps working); the wrapper adds one step per
 * request, nothing per record.
 */
import { Context, Effect, FiberRef, Option } from "effect"
import { JsonRpcClient, type JsonRpcClientService } from "../source/JsonRpcClient.ts"
import { RestClient, type RestClientService } from "../source/RestClient.ts"

/** The answers of the page being fetched; inherited by the lookups a listing forks. */
const collector = FiberRef.unsafeMake<unknown[] | undefined>(undefined)

const keep = (answer: unknown): Effect.Effect<void> =>
  FiberRef.getWith(collector, (into) => {
    into?.push(answer)
    return Effect.void
  })

const restWrappers = new WeakMap<RestClientService, RestClientService>()
const rpcWrappers = new WeakMap<JsonRpcClientService, JsonRpcClientService>()

const collectingRest = (client: RestClientService): RestClientService => {
  let wrapped = restWrappers.get(client)
  if (wrapped === undefined) {
    wrapped = {
      ...client,
      get: (service, path, query) => Effect.tap(client.get(service, path, query), keep),
      post: (service, path, query, body) => Effect.tap(client.post(service, path, query, body), keep)
    }
    restWrappers.set(client, wrapped)
  }
  return wrapped
}

const collectingRpc = (client: JsonRpcClientService): JsonRpcClientService => {
  let wrapped = rpcWrappers.get(client)
  if (wrapped === undefined) {
    wrapped = { ...client, call: (chain, method, params) => Effect.tap(client.call(chain, method, params), keep) }
    rpcWrappers.set(client, wrapped)
  }
  return wrapped
}

/** The context with each client it holds replaced by its collecting wrapper. */
const collecting = <R>(context: Context.Context<R>): Context.Context<R> => {
  let out = context as Context.Context<unknown>
  const rest = Context.getOption(out as Context.Context<RestClient>, RestClient)
  if (Option.isSome(rest)) out = Context.add(out, RestClient, collectingRest(rest.value))
  const rpc = Context.getOption(out as Context.Context<JsonRpcClient>, JsonRpcClient)
  if (Option.isSome(rpc)) out = Context.add(out, JsonRpcClient, collectingRpc(rpc.value))
  return out as Context.Context<R>
}

/** Runs `fetch` and gives its result with every answer the clients returned meanwhile, in order. */
export const withPageSources = <A, E, R>(fetch: Effect.Effect<A, E, R>): Effect.Effect<readonly [A, ReadonlyArray<unknown>], E, R> =>
  Effect.suspend(() => {
    const sources: unknown[] = []
    return fetch.pipe(
      Effect.mapInputContext((context: Context.Context<R>) => collecting(context)),
      Effect.locally(collector, sources),
      Effect.map((a) => [a, sources] as const)
    )
  })
