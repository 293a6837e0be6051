/** Calls to the node's JSON-RPC and the network it serves (pipelines/groups/node.ts). */
import { Effect, ParseResult, Schema } from "effect"
import { type Listing, RecordError } from "../../src/crawl/Dataset.ts"
import { type Slice } from "../../src/crawl/Slice.ts"
import { SourceError } from "../../src/Errors.ts"
import type { Job, Network } from "../../src/Job.ts"
import { JsonRpcClient, rpcLabel } from "../../src/source/JsonRpcClient.ts"

/**
 * The node at CHAINETL_NODE_URL serves one network, so the node datasets crawl one network per
 * run: the job's first (`networks[0]`). Slices are made from the job before any request, so they
 * cannot ask the node; instead each listing's first page checks once per run (nodeServes) that the
 * node really is on that network, and fails the slice when it is not, rather than writing one
 * network's data under the other's name. To crawl fuji, put "fuji" first and point at a fuji node.
 */
export const nodeNetwork = (job: Job): Network => job.networks[0] ?? "mainnet"

/** Public constants of the primary networks (reference: network-constants.json). */
export const PRIMARY = {
  mainnet: {
    hrp: "avax",
    avaxAssetId: "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z",
    chainIds: { P: "11111111111111111111111111111111LpoYY", X: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", C: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5" }
  },
  fuji: {
    hrp: "fuji",
    avaxAssetId: "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK",
    chainIds: { P: "11111111111111111111111111111111LpoYY", X: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm", C: "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp" }
  }
} as const satisfies Record<Network, { hrp: string; avaxAssetId: string; chainIds: Record<"P" | "X" | "C", string> }>

/** The primary network's subnet id: platform.* calls about "the primary network" name it. */
export const PRIMARY_SUBNET_ID = "11111111111111111111111111111111LpoYY"

export const primaryOf = (network: string) => PRIMARY[network === "fuji" ? "fuji" : "mainnet"]

/** One JSON-RPC call; the result as the lossless parser gave it. */
export const rpc = (chain: "X" | "P", method: string, params: Record<string, unknown> = {}) =>
  Effect.flatMap(JsonRpcClient, (client) => client.call(chain, method, params))

/** The result as an object, or a Decode failure naming the call (a node bug, not a record's). */
export const rpcObject = (chain: "X" | "P", method: string, params: Record<string, unknown> = {}) =>
  Effect.flatMap(rpc(chain, method, params), (result) =>
    typeof result === "object" && result !== null && !Array.isArray(result)
      ? Effect.succeed(result as Record<string, unknown>)
      : Effect.fail(new SourceError({ reason: "Decode", request: rpcLabel(chain, method), detail: "result is not an object" }))
  )

/**
 * A result the call itself depends on (a tip, a list to fan out over), decoded with `schema`; a
 * malformed one fails the slice as a Decode error naming the call, since no record can carry it.
 */
export const rpcDecoded = <A, I>(chain: "X" | "P", method: string, params: Record<string, unknown>, schema: Schema.Schema<A, I, never>) =>
  Effect.flatMap(rpc(chain, method, params), (result) =>
    Schema.decodeUnknown(schema, { onExcessProperty: "ignore" })(result).pipe(
      Effect.mapError(
        (e) => new SourceError({ reason: "Decode", request: rpcLabel(chain, method), detail: ParseResult.TreeFormatter.formatErrorSync(e).replace(/\s+/g, " ") })
      )
    )
  )

/** A handler failure (-32000): the node understood the call and has no answer for that key. */
export const isHandlerError = (e: unknown): e is SourceError => e instanceof SourceError && e.reason === "Rpc" && e.detail.startsWith("code -32000")

/**
 * A key a fan-out asked the node about and the node had no answer for (-32000, e.g. "not found"):
 * rejected once with the node's words, its key kept in the reject so it is not asked again.
 */
export class NodeMiss {
  readonly _tag = "NodeMiss"
  constructor(
    readonly key: string,
    readonly request: string,
    readonly detail: string
  ) {}
}

export const orNodeMiss = (key: string) => (e: SourceError) =>
  isHandlerError(e) ? Effect.succeed(new NodeMiss(key, e.request, e.detail)) : Effect.fail(e)

/** toRow's first line for fan-out records: a miss becomes its reject, a settled one (no hole: it is not asked again). */
export const throwIfMiss = (raw: unknown): void => {
  if (raw instanceof NodeMiss) throw new RecordError(`node has no answer: ${raw.request}: ${raw.detail}`, true)
}

/** Keys of a dataset's rejects that were misses (a malformed answer is asked again). */
export const missedKeysSql = (dataset: string) =>
  `SELECT json_extract_string(raw, '$.key') AS k FROM _rejects WHERE dataset = '${dataset}' AND json_extract_string(raw, '$._tag') = 'NodeMiss'`

/** Which network the node serves, from the id it gives the AVAX asset; asked once per client. */
const servedByClient = new WeakMap<object, Effect.Effect<Network, SourceError>>()

const askServedNetwork = rpcObject("X", "avm.getAssetDescription", { assetID: "AVAX" }).pipe(
  Effect.flatMap((r) => {
    const id = r["assetID"] ?? r["assetId"]
    const found = (Object.keys(PRIMARY) as Network[]).find((n) => PRIMARY[n].avaxAssetId === id)
    return found !== undefined
      ? Effect.succeed(found)
      : Effect.fail(new SourceError({ reason: "Decode", request: rpcLabel("X", "avm.getAssetDescription"), detail: `AVAX asset id ${String(id)} is neither mainnet's nor fuji's` }))
  })
)

/** Fails unless the node serves `network` (see nodeNetwork). */
export const nodeServes = (network: string) =>
  Effect.gen(function* () {
    const client = yield* JsonRpcClient
    let served = servedByClient.get(client)
    if (served === undefined) {
      served = yield* Effect.cached(Effect.provideService(askServedNetwork, JsonRpcClient, client))
      servedByClient.set(client, served)
    }
    const actual = yield* served
    if (actual !== network) {
      return yield* Effect.fail(
        new SourceError({
          reason: "Decode",
          request: rpcLabel("X", "avm.getAssetDescription"),
          detail: `the node serves ${actual}, but node datasets crawl the job's first network, ${network}: put "${actual}" first in the job's networks or point CHAINETL_NODE_URL at a ${network} node`
        })
      )
    }
  })

/** A node listing whose first page (of every run and restart) checks the node's network first. */
export const onNodeNetwork = <R>(listing: Listing<R>): Listing<R | JsonRpcClient> => ({
  ...listing,
  fetch: (slice, cursor) =>
    cursor === undefined ? Effect.zipRight(nodeServes(slice.params["network"] ?? ""), listing.fetch(slice, cursor)) : listing.fetch(slice, cursor)
})

/** A listing of one page: one snapshot call (fees, supply, validators…). */
export const singlePage = <R>(records: (slice: Slice) => Effect.Effect<ReadonlyArray<unknown>, SourceError, R>): Listing<R | JsonRpcClient> =>
  onNodeNetwork({ fetch: (slice) => Effect.map(records(slice), (rs) => ({ records: rs, next: undefined })) })
