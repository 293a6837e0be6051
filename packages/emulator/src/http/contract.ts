/**
 * The emulator's internal contract: what a route or JSON-RPC method module receives and returns.
 * The HTTP core (server.ts, pagination.ts, faults.ts, …) implements it; the route modules under
 * routes/ and rpc/ only declare handlers. Nothing here is imported by the pipeline, and nothing
 * of the pipeline is imported here: the emulator must be held to the official documents, not to
 * chainetl's own code.
 */
import type { World } from "../world/world.ts"

/** Which documented service a route belongs to; they may share one port. */
export type Host = "data" | "metrics"

/** The network's clock. `now()` is fixed unless advanced, so two runs see the same data. */
export interface Clock {
  /** Network "now" in Unix seconds. */
  now(): number
  /** Moves network time forward; later requests see new blocks, transactions and metric points. */
  advance(seconds: number): void
  /**
   * Milliseconds used to age page tokens: real elapsed time plus every advance, so a short
   * `--token-ttl` expires tokens in real time and an `advance` of a day expires them too.
   */
  tokenTimeMs(): number
}

export interface RequestContext {
  readonly method: "GET" | "POST"
  /** Path without query string, e.g. /v1/networks/mainnet/delegators */
  readonly path: string
  /** Path parameters by the names written in the route template, URI-decoded. */
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** Parsed JSON body for POST (undefined for GET). */
  readonly body: unknown
  readonly apiKey: string | undefined
  readonly world: World
  readonly clock: Clock
  /**
   * Where the metrics service's UUID page tokens live. The core always supplies it; optional so a
   * context built by hand in a unit test still pages (pagination.ts then keeps one per clock).
   */
  readonly pageTokens?: PageTokenStore
}

/** Server-side store of UUID page tokens (seed: Limits, valid 24 hours from issue). */
export interface PageTokenStore {
  /** Keeps the payload and returns a fresh random UUID v4 naming it. */
  issue(payload: string): string
  /** The payload a token names, or why there is none. */
  lookup(token: string): { readonly payload: string } | "expired" | "unknown"
}

/**
 * Thrown by handlers for any documented non-2xx answer. The core turns it into the error body
 * {message, statusCode, error} with the reason phrase of the status as `error`.
 * On the metrics service `message` is an array of strings (seed: Conventions).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {}
  ) {
    super(detail)
  }
}

export interface RouteDef {
  readonly method: "GET" | "POST"
  readonly host: Host
  /** Path template with {name} parameters, exactly as the seed spec writes it, e.g.
   *  "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking" */
  readonly path: string
  /** Seed route number (1–19), for logs and tests. */
  readonly seedRoute: number
  /**
   * The handler names every tx and block by its served id itself (servedIds.ts servedIdsFor), so
   * the HTTP layer does not rewrite its answer's ids.
   */
  readonly namesServedIds?: true
  handle(ctx: RequestContext): unknown | Promise<unknown>
}

/** How a list route pages (seed: Limits). */
export interface PageSpec {
  readonly defaultSize: number
  readonly maxSize: number
  /** "opaque": stateless token; "uuid": UUID-form token stored server-side that expires (metrics service). */
  readonly tokenKind: "opaque" | "uuid"
}

/**
 * A page from a keyset cursor. `cursor` is whatever the route chooses (e.g. the last key
 * returned, serialised to a string); the core wraps it into the page token and checks on the way
 * back that the token was issued for the same route and query (else 400).
 */
export interface CursorPage<T> {
  readonly items: ReadonlyArray<T>
  /** Set only when more data exists. */
  readonly nextCursor?: string
}

/** JSON-RPC: which endpoint a method lives on. "X" also serves /ext/bc/<blockchainId> of AVM chains. */
export type RpcChain = "X" | "P"

export interface RpcContext {
  readonly chain: RpcChain
  /** The blockchain id the request addressed (the X/P chain id of the network for the aliases). */
  readonly blockchainId: string
  readonly network: "mainnet" | "fuji"
  readonly world: World
  readonly clock: Clock
}

/** JSON-RPC 2.0 error; code -32602 invalid params, -32601 unknown method, -32700 parse error. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown
  ) {
    super(message)
  }
}

export interface RpcMethodDef {
  readonly chain: RpcChain
  /** e.g. "avm.getUTXOs" */
  readonly method: string
  /** params is {} when omitted by the caller. */
  handle(params: Record<string, unknown>, ctx: RpcContext): unknown | Promise<unknown>
}
