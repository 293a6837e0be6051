/**
 * One request, start to finish: admin controls, or else latency → routing → auth → rate limit →
 * transient fault → handler → persistent faults → delivery (whole, reset or truncated).
 * The node's JSON-RPC has no key and no rate limit (its spec shows neither) but meets the same
 * faults. Each fault applied is named in an x-emulator-fault header and counted in the state.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { setTimeout as sleep } from "node:timers/promises"
import type { World } from "../world/world.ts"
import { HttpError, type Clock, type Host, type PageTokenStore, type RequestContext } from "./contract.ts"
import { ADMIN_PREFIX, serveAdmin } from "./admin.ts"
import { API_KEY_HEADER, authorize } from "./auth.ts"
import { asHttpError, badRequest, hostOfPath } from "./errors.ts"
import { applyPersistentFaults, pageKey, persistentFaultsOf, type TransientFault, type TransientFaults } from "./faults.ts"
import { RPC_PATH_PREFIX, resolveRpcEndpoint, type RpcDispatcher } from "./jsonrpc.ts"
import type { EmulatorOptions } from "./options.ts"
import type { RateLimiter } from "./rateLimit.ts"
import { errorOutcome, jsonOutcome, send, type Delivery, type Outcome } from "./respond.ts"
import { mapIdStrings, toServed, toWorld, worldQuery } from "./servedIds.ts"
import type { RouteMatch, Router } from "./router.ts"
import { countFault, type EmulatorStats } from "./stats.ts"

export interface DispatchDeps {
  readonly options: EmulatorOptions
  readonly clock: Clock
  readonly world: World
  readonly router: Router
  readonly rpc: RpcDispatcher
  readonly limiter: RateLimiter
  readonly transient: TransientFaults
  readonly pageTokens: PageTokenStore
  readonly stats: EmulatorStats
}

const MAX_BODY_BYTES = 1 << 20

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** A JSON-RPC body (one request or a batch) with the ids in its params resolved; unparseable bodies as they came. */
const worldParams = (raw: string, f: (s: string) => string): string => {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return raw
  }
  const one = (r: unknown): unknown => (r !== null && typeof r === "object" && "params" in r ? { ...r, params: mapIdStrings(r.params, f) } : r)
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed))
}

const headerValue = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** The payload as sent: itself, or a spoiled copy when this page carries persistent faults. */
const withPersistentFaults = (deps: DispatchDeps, payload: unknown, key: string, notes: string[]): unknown => {
  const due = persistentFaultsOf(deps.options.faults, key)
  if (!due.malformed && !due.extraFields) return payload
  // a copy: routes may hand out cached objects, which must stay intact for the next request
  const copy: unknown = structuredClone(payload)
  notes.push(...applyPersistentFaults(copy, deps.options.faults, key))
  return copy
}

/**
 * The query that names a page for persistent faults. A UUID token is new on every crawl, so it is
 * replaced by the cursor it names: a restarted listing meets the same defects on the same pages.
 */
const pageQuery = (query: URLSearchParams, store: PageTokenStore): URLSearchParams => {
  const token = query.get("pageToken")
  const found = token ? store.lookup(token) : "unknown"
  if (typeof found !== "object") return query
  const stable = new URLSearchParams(query)
  stable.set("pageToken", found.payload)
  return stable
}

/** A drawn 5xx or 429 answers before the handler runs, as a failing gateway would. */
const failFast = (fault: TransientFault, deps: DispatchDeps, notes: string[]): void => {
  if (fault.kind === "5xx") {
    notes.push(`5xx status=${fault.status}`)
    throw new HttpError(fault.status, "injected fault: the service failed this request, retry it")
  }
  if (fault.kind === "429") {
    notes.push("429")
    const retryAfter = String(deps.options.faults.retryAfterSeconds)
    throw new HttpError(429, "injected fault: too many requests, retry later", { "retry-after": retryAfter })
  }
}

const rateLimit = (deps: DispatchDeps, host: Host, apiKey: string | undefined): void => {
  const r = deps.options.rateLimit
  let bucket = "metrics:anonymous"
  let perSecond = r.metricsPerSecond
  if (host === "data") {
    const caller = authorize(apiKey, deps.options.auth)
    bucket = caller.kind === "keyed" ? `data:key:${caller.key}` : "data:anonymous"
    perSecond = caller.kind === "keyed" ? (r.perKey?.[caller.key] ?? r.keyedPerSecond) : r.keylessPerSecond
    if (caller.kind === "keyed" && deps.options.recordKeyArrivals) {
      const log = deps.stats.keyArrivals.get(caller.key) ?? []
      log.push(performance.now())
      deps.stats.keyArrivals.set(caller.key, log)
    }
  }
  const retryAfter = deps.limiter.take(bucket, perSecond, r.burst)
  if (retryAfter > 0) {
    deps.stats.rateLimited++
    throw new HttpError(429, "rate limit exceeded", { "retry-after": String(retryAfter) })
  }
}

const serveRest = async (
  req: IncomingMessage,
  url: URL,
  fault: TransientFault,
  deps: DispatchDeps,
  notes: string[]
): Promise<Outcome> => {
  const method = req.method ?? "GET"
  const match = method === "GET" || method === "POST" ? deps.router.match(method, url.pathname) : undefined
  if (!match) throw new HttpError(404, `Cannot ${method} ${url.pathname}`)
  try {
    return await serveRoute(match, req, url, fault, deps, notes)
  } catch (err) {
    // the route's declared host decides the error body's shape (array message on metrics)
    return errorOutcome(match.route.host, asHttpError(err))
  }
}

const serveRoute = async (
  match: RouteMatch,
  req: IncomingMessage,
  url: URL,
  fault: TransientFault,
  deps: DispatchDeps,
  notes: string[]
): Promise<Outcome> => {
  const method = match.route.method
  const path = url.pathname
  const apiKey = headerValue(req, API_KEY_HEADER)
  rateLimit(deps, match.route.host, apiKey)
  failFast(fault, deps, notes)
  const raw = method === "POST" ? await readBody(req) : ""
  let body: unknown
  if (raw.trim() !== "") {
    try {
      body = JSON.parse(raw)
    } catch (err) {
      throw badRequest(`malformed JSON body: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  // the client names txs and blocks by the ids a node serves; routes read the world's
  const toWorldId = toWorld(deps.world.primary, match.params["network"])
  const ctx: RequestContext = {
    method,
    path,
    params: mapIdStrings(match.params, toWorldId) as Record<string, string>,
    query: worldQuery(url.searchParams, toWorldId),
    body: mapIdStrings(body, toWorldId),
    apiKey,
    world: deps.world,
    clock: deps.clock,
    pageTokens: deps.pageTokens
  }
  const answer = await match.route.handle(ctx)
  if (answer === undefined) throw new Error(`route ${match.route.path} returned no body`)
  const payload = match.route.host === "data" && match.route.namesServedIds !== true ? mapIdStrings(answer, toServed(deps.world.primary)) : answer
  const key = pageKey(method, path, pageQuery(url.searchParams, deps.pageTokens), raw)
  return jsonOutcome(200, withPersistentFaults(deps, payload, key, notes))
}

const serveRpc = async (
  req: IncomingMessage,
  url: URL,
  fault: TransientFault,
  deps: DispatchDeps,
  notes: string[]
): Promise<Outcome> => {
  const endpoint = resolveRpcEndpoint(url.pathname, deps.options.nodeNetwork)
  if (!endpoint || req.method !== "POST") throw new HttpError(404, `Cannot ${req.method ?? "GET"} ${url.pathname}`)
  failFast(fault, deps, notes)
  const response = await deps.rpc.dispatch(endpoint, worldParams(await readBody(req), toWorld(deps.world.primary, endpoint.network)), (result, method, params) => {
    // the page key leaves out the request id, which clients change on every retry
    const key = pageKey("POST", url.pathname, new URLSearchParams(), `${method} ${JSON.stringify(params)}`)
    return withPersistentFaults(deps, mapIdStrings(result, toServed(deps.world.primary)), key, notes)
  })
  return jsonOutcome(200, response)
}

const deliveryOf = (fault: TransientFault, status: number): Delivery =>
  status >= 200 && status < 300 && (fault.kind === "reset" || fault.kind === "truncate") ? fault.kind : "whole"

export const createRequestHandler = (deps: DispatchDeps) => {
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://emulator.invalid")
    const method = req.method ?? "GET"
    if (url.pathname.startsWith(ADMIN_PREFIX)) {
      try {
        return send(res, serveAdmin(method, url.pathname, url.searchParams, deps))
      } catch (err) {
        return send(res, errorOutcome("data", asHttpError(err)))
      }
    }
    const isRpc = url.pathname.startsWith(RPC_PATH_PREFIX)
    const host: Host = isRpc ? "data" : hostOfPath(url.pathname)
    const { stats } = deps
    stats.total++
    stats.byHost[isRpc ? "node" : host]++
    const { fault, delayMs } = deps.transient.next()
    if (delayMs > 0) await sleep(delayMs)
    const notes: string[] = []
    let outcome: Outcome
    try {
      outcome = isRpc ? await serveRpc(req, url, fault, deps, notes) : await serveRest(req, url, fault, deps, notes)
    } catch (err) {
      outcome = errorOutcome(host, asHttpError(err))
    }
    const delivery = deliveryOf(fault, outcome.status)
    if (delivery !== "whole") notes.push(delivery)
    for (const note of notes) countFault(stats, `${method} ${url.pathname}${url.search}`, note)
    stats.byStatus[outcome.status] = (stats.byStatus[outcome.status] ?? 0) + 1
    if (notes.length > 0) outcome = { ...outcome, headers: { ...outcome.headers, "x-emulator-fault": notes.join(", ") } }
    send(res, outcome, delivery)
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    serve(req, res).catch((err: unknown) => {
      // only a failure of the response itself lands here (e.g. the client went away)
      if (!res.headersSent) send(res, errorOutcome("data", asHttpError(err)))
      else res.destroy()
    })
  }
}
