/**
 * avg_tps — route 19, the older daily average-TPS series, one slice per chain of the job.
 *
 * The route takes only `pageToken` (seed; the older document's startKey/from/to do not apply), so
 * the listing sends no pageSize, and it keeps the page's `lastRun` on each row. Its latest point
 * changes like route 5's (rule 1) and the route has no time window: the whole series is fetched
 * each run and replaces the previous one (`rerun: "replace"`).
 */
import { Effect, Schema } from "effect"
import type { DatasetDef } from "../src/crawl/Dataset.ts"
import { makeSlice, type Slice } from "../src/crawl/Slice.ts"
import { SourceError } from "../src/Errors.ts"
import { RestClient } from "../src/source/RestClient.ts"
import { UnixSeconds, decoder, NumberLike } from "../src/transform/Decode.ts"
import { schema } from "../schemas/avg_tps.ts"

const Body = Schema.Struct({
  results: Schema.Array(Schema.Unknown),
  lastRun: Schema.optional(Schema.Unknown),
  nextPageToken: Schema.optional(Schema.String)
})
const decodeBody = Schema.decodeUnknownEither(Body)

const Point = Schema.Struct({ timestamp: UnixSeconds, value: NumberLike, lastRun: Schema.optional(UnixSeconds) })
const decodePoint = decoder(Point)

const chainOf = (s: Slice): string => s.params["chain_id"] ?? ""

export const dataset: DatasetDef<RestClient> = {
  name: "avg_tps",
  description: "Daily average TPS per EVM chain (metrics route 19)",
  schema,
  partitionBy: [{ key: "chain_id", type: "VARCHAR", value: (r) => String(r["chain_id"]) }],
  key: ["period_start"],
  slices: (job) => [...new Set(job.evmChains)].map((chain_id) => makeSlice("avg_tps", { chain_id })),
  listing: {
    tokenTtlSeconds: 86_400,
    fetch: (slice, cursor) =>
      Effect.gen(function* () {
        const client = yield* RestClient
        const path = `/v1/avg_tps/${chainOf(slice)}`
        const raw = yield* client.get("metrics", path, { pageToken: cursor })
        const body = decodeBody(raw)
        if (body._tag === "Left") {
          return yield* Effect.fail(new SourceError({ reason: "Decode", request: `GET metrics ${path}`, detail: "response has no array field \"results\"" }))
        }
        const { results, lastRun, nextPageToken } = body.right
        // lastRun is page-level: each point carries it so a row says how fresh its series was
        const records = results.map((r) => (typeof r === "object" && r !== null ? { ...r, lastRun } : r))
        return { records, next: nextPageToken !== undefined && nextPageToken.length > 0 ? nextPageToken : undefined }
      })
  },
  rerun: "replace",
  toRow: (raw, slice) => {
    const p = decodePoint(raw)
    return { chain_id: chainOf(slice), period_start: p.timestamp, value: p.value, last_run: p.lastRun ?? null }
  }
}
