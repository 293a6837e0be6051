/**
 * Listing pieces the EVM datasets share: the latest block, one-lookup slices, fan-outs over keys
 * other datasets found (and keys already answered 404), the job's contracts. Their columns are
 * schemas/_evm.ts.
 */
import { Effect, Schema } from "effect"
import type { Listing } from "../src/crawl/Dataset.ts"
import { keyedListing } from "../src/crawl/KeyedListing.ts"
import { OutputReader, type SqlParam } from "../src/crawl/OutputReader.ts"
import type { Slice } from "../src/crawl/Slice.ts"
import { SourceError } from "../src/Errors.ts"
import type { Job } from "../src/Job.ts"
import { RestClient, type Query } from "../src/source/RestClient.ts"
import { DecimalString } from "../src/transform/Decode.ts"

const BlocksPage = Schema.Struct({ blocks: Schema.NonEmptyArray(Schema.Struct({ blockNumber: DecimalString })) })
const decodeBlocksPage = Schema.decodeUnknownEither(BlocksPage)

/** The chain's latest block: the first item of route 10 (latest first). */
export const latestBlock = (chainId: string): Effect.Effect<bigint, SourceError, RestClient> =>
  Effect.gen(function* () {
    const path = `/v1/chains/${chainId}/blocks`
    const body = yield* (yield* RestClient).get("data", path, { pageSize: 1 })
    const page = decodeBlocksPage(body)
    if (page._tag === "Left") {
      return yield* Effect.fail(new SourceError({ reason: "Decode", request: `GET data ${path}`, detail: "expected a first page with a block to read the latest height from" }))
    }
    return page.right.blocks[0].blockNumber
  })

/**
 * A slice that is one lookup (a chain, a contract, a balance): a keyed listing of one key, so a
 * 404 becomes a reject like in the fan-outs.
 */
export const lookupListing = (spec: {
  readonly key: (slice: Slice) => string
  readonly path: (slice: Slice) => string
  readonly query?: (slice: Slice) => Query
}): Listing<RestClient> =>
  keyedListing({
    nextKeys: (slice, after) => Effect.succeed(after === undefined ? [spec.key(slice)] : []),
    fetch: (slice) =>
      Effect.gen(function* () {
        return [yield* (yield* RestClient).get("data", spec.path(slice), spec.query?.(slice))]
      }),
    batch: 1,
    concurrency: 1
  })

/**
 * Keys a fan-out asked for before on this chain and the service answered 404 (keyed listings write
 * them to `_rejects` as {"key": …}, the reason naming the request): a settled answer, not asked
 * again each run. The same key on another chain is another question.
 */
const notFoundKeysSql = `SELECT k FROM (
    SELECT lower(json_extract_string(raw, '$.key')) AS k FROM _rejects
    WHERE dataset = $dataset AND starts_with(reason, 'not found: GET data /v1/chains/' || $chain || '/')
  ) WHERE k IS NOT NULL`

export interface FanOutSpec {
  readonly dataset: string
  /**
   * Keys (column `k`, lowercase) wanted on `$chain` and not in the dataset yet; `params` may add
   * parameters. Mind NULLs in a NOT IN subquery: one NULL there makes every key look fetched.
   */
  readonly candidatesSql: string
  /** Datasets the query reads (besides `_rejects`). */
  readonly reads: ReadonlyArray<string>
  readonly params?: (slice: Slice) => Readonly<Record<string, SqlParam>>
  /** The chain-data route answering one key. */
  readonly path: (slice: Slice, key: string) => string
}

/**
 * A fan-out per chain (slice param `chain_id`): keys found in other datasets' output, not in this
 * one and not answered 404 before, in text order after the cursor, looked up with one GET each,
 * 100 per page (a checkpoint step), 8 in flight.
 */
export const fanOutListing = (spec: FanOutSpec): Listing<RestClient | OutputReader> =>
  keyedListing<RestClient | OutputReader>({
    excludesCommitted: true,
    batch: 100,
    concurrency: 8,
    nextKeys: (slice, after, limit) =>
      Effect.gen(function* () {
        const found = yield* (yield* OutputReader).query(
          `SELECT DISTINCT k FROM (${spec.candidatesSql})
           WHERE k IS NOT NULL AND k > $after AND k NOT IN (${notFoundKeysSql})
           ORDER BY k LIMIT $limit`,
          { chain: String(slice.params["chain_id"]), after: after ?? "", limit, dataset: spec.dataset, ...spec.params?.(slice) },
          [...spec.reads, "_rejects"]
        )
        return found.map((r) => String(r["k"]))
      }),
    fetch: (slice, key) =>
      Effect.gen(function* () {
        return [yield* (yield* RestClient).get("data", spec.path(slice, key))]
      })
  })

/** Chains whose transactions the fan-outs look up: those of configured token contracts and transaction hashes. */
export const fanOutChains = (job: Job): ReadonlyArray<string> =>
  [...new Set([...job.tokenContracts.map((c) => c.chainId), ...job.transactionHashes.map((t) => t.chainId)])].sort()

/** Contracts of the job, deduplicated by address case, in a stable order. */
export const distinctContracts = (refs: ReadonlyArray<{ readonly chainId: string; readonly address: string }>) => {
  const seen = new Map<string, { readonly chainId: string; readonly address: string }>()
  for (const r of refs) seen.set(`${r.chainId}/${r.address.toLowerCase()}`, r)
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r)
}
