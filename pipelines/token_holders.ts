/**
 * token_holders — route 14 per job.tokenHolders entry (contract + threshold), a snapshot per run
 * day. No startTimestamp/endTimestamp: the period is the whole history up to the run, so a row is
 * "held more than the threshold at some time" with its latest balance.
 */
import { Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { restListing } from "../src/crawl/RestListing.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import type { RestClient } from "../src/source/RestClient.ts"
import { decoder } from "../src/transform/Decode.ts"
import { uint256Values } from "../schemas/common.ts"
import { schema } from "../schemas/token_holders.ts"
import { columnKey } from "./_shared/partitions.ts"

/**
 * Seed: sortKey integer; the official document says string: both read as the exact whole number
 * they spell. Balances pass 2^53 (wei), and the lossless parser delivers such integers as bigint.
 */
const nonNegative = Schema.BigIntFromSelf.pipe(Schema.filter((n) => n >= 0n, { message: () => "expected a non-negative integer" }))
export const SortKey = Schema.Union(
  nonNegative,
  // a JSON number: an integer literal below 2^53, or a double the service wrote in exponent form (its exact value)
  Schema.transform(Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n), { message: () => "expected an integer" })), nonNegative, {
    strict: true,
    decode: (n) => BigInt(n),
    encode: (n) => Number(n)
  }),
  Schema.compose(Schema.BigInt, nonNegative)
)
export const Holder = Schema.Struct({ address: Schema.String, sortKey: SortKey })
const decodeHolder = decoder(Holder)

const p = (s: Slice, k: string): string => s.params[k] ?? ""

export const dataset: DatasetDef<RestClient> = {
  name: "token_holders",
  description: "Addresses that held more than a threshold of a token, with their latest balance (metrics route 14)",
  schema,
  partitionBy: [
    columnKey("chain_id"),
    columnKey("snapshot_date", "DATE")
  ],
  key: ["holder_address"],
  slices: (job, { runDate }) => {
    const out = new Map<string, Slice>()
    for (const h of job.tokenHolders) {
      const s = makeSlice("token_holders", { chain_id: h.chainId, contract_address: h.address.toLowerCase(), threshold: h.threshold, snapshot_date: runDate })
      out.set(s.id, s)
    }
    return [...out.values()]
  },
  listing: restListing({
    service: "metrics",
    path: (s) => `/v2/chains/${p(s, "chain_id")}/contracts/${p(s, "contract_address")}/balances`,
    query: (s) => ({ threshold: p(s, "threshold") }),
    items: "addresses",
    pageSize: 5000,
    tokenTtlSeconds: 86_400
  }),
  toRow: (raw, slice) => {
    const h = decodeHolder(raw)
    return {
      chain_id: p(slice, "chain_id"),
      snapshot_date: p(slice, "snapshot_date"),
      contract_address: p(slice, "contract_address"),
      threshold: p(slice, "threshold"),
      holder_address: h.address,
      ...uint256Values("sort_key", h.sortKey)
    }
  }
}
