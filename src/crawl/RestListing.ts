/**
 * The page-token pagination shared by every REST list route: first page without `pageToken`,
 * next page with the previous `nextPageToken`, stop when it is absent or empty. A dataset
 * declares only its route, its query and the field that holds the items.
 */
import { Effect } from "effect"
import { SourceError } from "../Errors.ts"
import { RestClient } from "../source/RestClient.ts"
import type { Listing } from "./Dataset.ts"
import type { Slice } from "./Slice.ts"

export interface RestListingSpec {
  readonly service: "data" | "metrics"
  readonly path: (slice: Slice) => string
  readonly query?: (slice: Slice) => Record<string, string | number | boolean | undefined>
  /** Response field holding the page's records, e.g. "transactions". */
  readonly items: string
  /** The route's maximum page size (seed: Limits). */
  readonly pageSize: number
  readonly tokenTtlSeconds?: number
}

export const restListing = (spec: RestListingSpec): Listing<RestClient> => ({
  ...(spec.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: spec.tokenTtlSeconds }),
  fetch: (slice, cursor) =>
    Effect.gen(function* () {
      const client = yield* RestClient
      const path = spec.path(slice)
      const body = yield* client.get(spec.service, path, { ...spec.query?.(slice), pageSize: spec.pageSize, pageToken: cursor })
      const records = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[spec.items] : undefined
      if (!Array.isArray(records)) {
        return yield* Effect.fail(
          new SourceError({ reason: "Decode", request: `GET ${spec.service} ${path}`, detail: `response has no array field "${spec.items}"` })
        )
      }
      const token = (body as Record<string, unknown>)["nextPageToken"]
      return { records, next: typeof token === "string" && token.length > 0 ? token : undefined }
    })
})
