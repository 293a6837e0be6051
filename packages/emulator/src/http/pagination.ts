/**
 * Page sizes and page tokens for every list route (seed: Limits).
 *
 * A token carries the route's keyset cursor plus a fingerprint of the request that produced it
 * (method, path, body and every query parameter except pageToken and pageSize), so a token
 * replayed against another route or another filter is refused with 400 instead of silently
 * paging the wrong listing. Chain-data tokens are stateless (base64url JSON); metrics tokens are
 * UUIDs whose payload is kept server-side and expires.
 */
import { createHash } from "node:crypto"
import type { Clock, CursorPage, PageSpec, PageTokenStore, RequestContext } from "./contract.ts"
import { canonicalQuery } from "./canonical.ts"
import { badRequest } from "./errors.ts"
import { createPageTokenStore } from "./pageTokens.ts"

/** The page specs the seed names (Limits); routes pick theirs from here. */
export const PAGE_SPECS = {
  /** all other list routes */
  standard: { defaultSize: 10, maxSize: 100, tokenKind: "opaque" },
  /** route 2, the UTXO v2 POST route */
  utxosV2: { defaultSize: 10, maxSize: 1024, tokenKind: "opaque" },
  /** route 5 */
  metrics: { defaultSize: 100, maxSize: 2160, tokenKind: "uuid" },
  /** routes 14 and 18 */
  holders: { defaultSize: 1000, maxSize: 5000, tokenKind: "uuid" }
} as const satisfies Record<string, PageSpec>

export interface Page<T> {
  readonly items: T[]
  readonly nextPageToken?: string
}

/** pageSize from the query: default when absent, else an integer in [1, maxSize] or 400. */
export const readPageSize = (ctx: RequestContext, spec: PageSpec): number => {
  const raw = ctx.query.get("pageSize")
  if (raw === null) return spec.defaultSize
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!(n >= 1 && n <= spec.maxSize)) {
    throw badRequest(`pageSize must be an integer between 1 and ${spec.maxSize} (got "${raw}")`)
  }
  return n
}

/** What a token must have been issued for: this route, this query, this body. */
export const requestFingerprint = (ctx: RequestContext): string => {
  const query = canonicalQuery(ctx.query, ["pageToken", "pageSize"])
  const body = ctx.body === undefined ? "" : JSON.stringify(ctx.body)
  return createHash("sha256")
    .update(`${ctx.method} ${ctx.path}\n${query}\n${body}`)
    .digest("base64url")
    .slice(0, 22)
}

interface TokenPayload {
  readonly f: string
  readonly c: string
}

const encodePayload = (p: TokenPayload): string => JSON.stringify(p)

const decodePayload = (s: string): TokenPayload | undefined => {
  try {
    const p: unknown = JSON.parse(s)
    if (typeof p === "object" && p !== null && typeof (p as TokenPayload).f === "string" && typeof (p as TokenPayload).c === "string") {
      return p as TokenPayload
    }
  } catch {
    // falls through to undefined: garbage is reported by the caller with the route's wording
  }
  return undefined
}

const invalidToken = (why: string): never => {
  throw badRequest(`invalid page token: ${why}`)
}

/** Stores for contexts built without one (unit tests): one per clock, default TTL. */
const fallbackStores = new WeakMap<Clock, PageTokenStore>()

const storeOf = (ctx: RequestContext): PageTokenStore => {
  if (ctx.pageTokens) return ctx.pageTokens
  let store = fallbackStores.get(ctx.clock)
  if (!store) {
    store = createPageTokenStore(ctx.clock, 86_400)
    fallbackStores.set(ctx.clock, store)
  }
  return store
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** A token for the next page of this request, wrapping the route's cursor. */
export const issuePageToken = (ctx: RequestContext, spec: PageSpec, cursor: string): string => {
  const payload = encodePayload({ f: requestFingerprint(ctx), c: cursor })
  return spec.tokenKind === "uuid" ? storeOf(ctx).issue(payload) : Buffer.from(payload).toString("base64url")
}

/**
 * The cursor inside the request's pageToken, or undefined for a first page (no token, or an
 * empty one). 400 for garbage, a token issued for another request, or an expired UUID token.
 */
export const readPageCursor = (ctx: RequestContext, spec: PageSpec): string | undefined => {
  const token = ctx.query.get("pageToken")
  if (token === null || token === "") return undefined
  let payload: TokenPayload | undefined
  if (spec.tokenKind === "uuid") {
    if (!UUID.test(token)) return invalidToken("not a token this service issued")
    const found = storeOf(ctx).lookup(token.toLowerCase())
    if (found === "expired") {
      throw badRequest("page token expired: tokens are valid for a limited time after issue; restart the listing from the first page")
    }
    if (found === "unknown") return invalidToken("unknown token")
    payload = decodePayload(found.payload)
  } else {
    if (!BASE64URL.test(token)) return invalidToken("not a token this service issued")
    payload = decodePayload(Buffer.from(token, "base64url").toString("utf8"))
  }
  if (!payload) return invalidToken("not a token this service issued")
  if (payload.f !== requestFingerprint(ctx)) return invalidToken("it was issued for another route or other query parameters")
  return payload.c
}

/**
 * One page of a list route: reads pageSize and pageToken, asks the route for `limit` items after
 * the cursor, and wraps the route's next cursor into nextPageToken (absent when there is no more).
 */
export const pageOf = <T>(
  ctx: RequestContext,
  spec: PageSpec,
  fetch: (cursor: string | undefined, limit: number) => CursorPage<T>
): Page<T> => {
  const limit = readPageSize(ctx, spec)
  const page = fetch(readPageCursor(ctx, spec), limit)
  const items = [...page.items]
  return page.nextCursor === undefined ? { items } : { items, nextPageToken: issuePageToken(ctx, spec, page.nextCursor) }
}

/** The `nextPageToken` field of a list body: present only when more data exists (seed: Conventions). */
export const tokenField = (token: string | undefined): { nextPageToken?: string } => (token === undefined ? {} : { nextPageToken: token })
