/**
 * nft_holders — route 18 per job.nftContracts entry, a snapshot per run day. The response's
 * collection fields (name, symbol, totals) sit beside the page's holders, so the listing copies
 * them onto each holder record and every row carries them.
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { IntegerLike, decoder } from "../src/transform/Decode.ts"
import { schema } from "../schemas/nft_holders.ts"
import { Holder } from "./token_holders.ts"

/** Seed: a string; the official document: an array of strings (kept joined by ", "). */
const Text = Schema.Union(Schema.String, Schema.Array(Schema.String).pipe(Schema.transform(Schema.String, { strict: true, decode: (a) => a.join(", "), encode: (s) => [s] })))

const Collection = Schema.Struct({
  nftCollectionName: Schema.optional(Text),
  nftSymbol: Schema.optional(Text),
  totalHolders: Schema.optional(IntegerLike),
  totalTokens: Schema.optional(IntegerLike)
})
const HolderRecord = Schema.Struct({ holder: Holder, collection: Collection })
const decodeRecord = decoder(HolderRecord)

const Body = Schema.Struct({ addresses: Schema.Array(Schema.Unknown), nextPageToken: Schema.optional(Schema.String) })
const decodeBody = Schema.decodeUnknownEither(Body)

const p = (s: Slice, k: string): string => s.params[k] ?? ""

export const dataset: DatasetDef<RestClient> = {
  name: "nft_holders",
  description: "Holders of an NFT collection with their NFT counts and the collection's name, symbol and totals (metrics route 18)",
  schema,
  partitionBy: [
    { key: "chain_id", type: "VARCHAR", value: (r) => String(r["chain_id"]) },
    { key: "snapshot_date", type: "DATE", value: (r) => String(r["snapshot_date"]) }
  ],
  key: ["holder_address"],
  slices: (job, { runDate }) => {
    const out = new Map<string, Slice>()
    for (const c of job.nftContracts) {
      const s = makeSlice("nft_holders", { chain_id: c.chainId, contract_address: c.address.toLowerCase(), snapshot_date: runDate })
      out.set(s.id, s)
    }
    return [...out.values()]
  },
  listing: {
    tokenTtlSeconds: 86_400,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const client = yield* RestClient
        const path = `/v2/chains/${p(slice, "chain_id")}/contracts/${p(slice, "contract_address")}/nfts:listHolders`
        const raw = yield* client.get("metrics", path, { pageSize: 5000, pageToken: cursor })
        const body = decodeBody(raw)
        if (body._tag === "Left") {
          return yield* Effect.fail(new SourceError({ reason: "Decode", request: `GET metrics ${path}`, detail: "response has no array field \"addresses\"" }))
        }
        const o = raw as { [k: string]: unknown }
        const collection = { nftCollectionName: o["nftCollectionName"], nftSymbol: o["nftSymbol"], totalHolders: o["totalHolders"], totalTokens: o["totalTokens"] }
        const next = body.right.nextPageToken
        return { records: body.right.addresses.map((holder) => ({ holder, collection })), next: next !== undefined && next.length > 0 ? next : undefined }
      })
  },
  toRow: (raw, slice) => {
    const { holder, collection } = decodeRecord(raw)
    return {
      chain_id: p(slice, "chain_id"),
      snapshot_date: p(slice, "snapshot_date"),
      contract_address: p(slice, "contract_address"),
      holder_address: holder.address,
      sort_key: holder.sortKey,
      nft_collection_name: collection.nftCollectionName ?? null,
      nft_symbol: collection.nftSymbol ?? null,
      total_holders: collection.totalHolders ?? null,
      total_tokens: collection.totalTokens ?? null
    }
  }
}
