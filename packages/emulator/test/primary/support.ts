/**
 * Shared fixtures of the primary-network tests: a world on a fixed clock, and direct calls of the
 * route handlers with a hand-built RequestContext (fast enough to walk every page at size 1).
 */
import { HttpError, type RequestContext, type RouteDef } from "../../src/http/contract.ts"
import { createClock } from "../../src/http/clock.ts"
import { defaultNow } from "../../src/http/options.ts"
import { routes } from "../../src/routes/primary.ts"
import { World } from "../../src/world/world.ts"

export const SEED = 7

export const makeWorld = (seed = SEED, scale = 1, now = defaultNow(seed)): World => {
  const clock = createClock(now)
  return new World({ seed, scale, clock, utxoChurn: false })
}

export const routeOf = (seedRoute: number, method: "GET" | "POST" = "GET"): RouteDef => {
  const r = routes.find((x) => x.seedRoute === seedRoute && x.method === method)
  if (!r) throw new Error(`no route ${seedRoute} ${method}`)
  return r
}

export interface CallResult {
  readonly status: number
  readonly body: any
}

/** Calls a handler as the core would, turning an HttpError into its status and message. */
export const call = async (
  world: World,
  route: RouteDef,
  params: Record<string, string>,
  query: Record<string, string> = {},
  body?: unknown
): Promise<CallResult> => {
  const path = route.path.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? "")
  const ctx: RequestContext = {
    method: route.method,
    path,
    params,
    query: new URLSearchParams(query),
    body,
    apiKey: undefined,
    world,
    clock: world.options.clock
  }
  try {
    return { status: 200, body: await route.handle(ctx) }
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, body: { message: err.detail } }
    throw err
  }
}

/** Every page of a list, following nextPageToken; returns the pages' item arrays. */
export const walkPages = async (
  world: World,
  route: RouteDef,
  params: Record<string, string>,
  query: Record<string, string>,
  key: string,
  body?: unknown
): Promise<any[][]> => {
  const pages: any[][] = []
  let token: string | undefined
  for (let guard = 0; guard < 5000; guard++) {
    const r = await call(world, route, params, token ? { ...query, pageToken: token } : query, body)
    if (r.status !== 200) throw new Error(`page ${pages.length + 1}: ${r.status} ${JSON.stringify(r.body)}`)
    pages.push(r.body[key])
    token = r.body.nextPageToken
    if (token === undefined) return pages
  }
  throw new Error("too many pages")
}
