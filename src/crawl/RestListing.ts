/**
 * The page-token pagination shared by every REST list route: first page without `pageToken`,
 * next page with the previous `nextPageToken`, stop when it is absent or empty. A dataset
 * declares only its route, its query and the field that holds the items.
 */
import { Effect } from "effect"
import { SourceError } from "../Errors.ts"
import { RestClient } from "../source/RestClient.ts"
import { type CursorCodec, tokenCursor } from "./Cursor.ts"
import type { Listing, Page } from "./Dataset.ts"
import type { Slice } from "./Slice.ts"

export interface RestListingSpec {
  readonly service: "data" | "metrics"
  readonly path: (slice: Slice) => string
  readonly query?: (slice: Slice) => Record<string, string | number | boolean | undefined>
  /** Response field holding the page's records, e.g. "transactions". */
  readonly items: string
  /** The route's maximum page size (seed: Limits); absent for a route that takes none (route 19). */
  readonly pageSize?: number
  /**
   * Page-level fields every record depends on (route 13's blockHeight, route 19's lastRun, route
   * 18's collection totals): each record then arrives as `{ item, page: { field: value } }`.
   */
  readonly pageFields?: ReadonlyArray<string>
  readonly tokenTtlSeconds?: number
}

/** A list body's records and next token; a body without the items array is a Decode failure. */
export const listPage = (body: unknown, items: string, request: string): Effect.Effect<Page, SourceError> => {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
  const records = fields[items]
  if (!Array.isArray(records)) return Effect.fail(new SourceError({ reason: "Decode", request, detail: `response has no array field "${items}"` }))
  const token = fields["nextPageToken"]
  return Effect.succeed({ records, next: typeof token === "string" && token.length > 0 ? token : undefined })
}

export const restListing = (spec: RestListingSpec): Listing<RestClient> & { readonly cursor: CursorCodec<string> } => ({
  ...(spec.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: spec.tokenTtlSeconds }),
  cursor: tokenCursor,
  // the route lists the slice's whole query from its first page: a rejected record comes again
  revisits: () => true,
  fetch: (slice, cursor) =>
    Effect.gen(function* () {
      const client = yield* RestClient
      const path = spec.path(slice)
      const body = yield* client.get(spec.service, path, { ...spec.query?.(slice), pageSize: spec.pageSize, pageToken: cursor })
      const page = yield* listPage(body, spec.items, `GET ${spec.service} ${path}`)
      if (spec.pageFields === undefined) return page
      const fields = Object.fromEntries(spec.pageFields.map((f) => [f, (body as Record<string, unknown>)[f]]))
      return { records: page.records.map((item) => ({ item, page: fields })), next: page.next }
    })
})
