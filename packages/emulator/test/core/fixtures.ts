/**
 * Tiny routes and methods that exercise the HTTP core without the real world: a list of 25
 * records (every malformation kind has a field to spoil), a UUID-paged metrics list, an echo,
 * the seed's colon templates, and handlers that fail in each way a route can.
 */
import { afterEach } from "vitest"
import { HttpError, RpcError, type RouteDef, type RpcMethodDef } from "../../src/http/contract.ts"
import { PAGE_SPECS, pageOf } from "../../src/http/pagination.ts"
import { startEmulator, type EmulatorOptionsInput, type RunningEmulator } from "../../src/index.ts"

export interface Item {
  readonly blockNumber: string
  readonly txCount: number
  readonly txHash: string
}

export const ITEMS: ReadonlyArray<Item> = Array.from({ length: 25 }, (_, i) => ({
  blockNumber: String(1000 + i),
  txCount: i,
  txHash: `0x${i.toString(16).padStart(4, "0")}`
}))

/** Keyset paging over ITEMS: the cursor is the last index returned. */
const itemsAfter = (cursor: string | undefined, limit: number) => {
  const start = cursor === undefined ? 0 : Number(cursor) + 1
  const items = ITEMS.slice(start, start + limit)
  const last = start + items.length - 1
  return last < ITEMS.length - 1 ? { items, nextCursor: String(last) } : { items }
}

/**
 * Stand-ins at real paths, for the pure router tests only: served by an emulator they would clash
 * with the real routes, so `serverRoutes` below carries them under a /v1/test prefix instead.
 */
export const testRoutes: ReadonlyArray<RouteDef> = [
  {
    method: "GET",
    host: "data",
    path: "/v1/test/items",
    seedRoute: 0,
    handle: (ctx) => {
      const page = pageOf(ctx, PAGE_SPECS.standard, itemsAfter)
      return { items: page.items, nextPageToken: page.nextPageToken }
    }
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/test/others",
    seedRoute: 0,
    handle: (ctx) => pageOf(ctx, PAGE_SPECS.standard, itemsAfter)
  },
  {
    method: "GET",
    host: "metrics",
    path: "/v2/test/points",
    seedRoute: 0,
    handle: (ctx) => {
      const page = pageOf(ctx, PAGE_SPECS.metrics, itemsAfter)
      return { results: page.items.map((it) => ({ value: it.txCount, timestamp: 1_735_689_600 + it.txCount * 3600 })), nextPageToken: page.nextPageToken }
    }
  },
  { method: "POST", host: "data", path: "/v1/test/echo", seedRoute: 0, handle: (ctx) => ({ body: ctx.body }) },
  { method: "GET", host: "data", path: "/v1/test/boom", seedRoute: 0, handle: () => { throw new Error("kaput") } },
  { method: "GET", host: "data", path: "/v1/test/missing", seedRoute: 0, handle: () => { throw new HttpError(404, "no such thing") } },
  { method: "GET", host: "metrics", path: "/v2/test/missing", seedRoute: 0, handle: () => { throw new HttpError(404, "no such metric") } },
  { method: "GET", host: "data", path: "/v1/chains/{chainId}/addresses/{address}", seedRoute: 16, handle: (ctx) => ({ route: 16, ...ctx.params }) },
  {
    method: "GET",
    host: "data",
    path: "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
    seedRoute: 9,
    handle: (ctx) => ({ route: 9, ...ctx.params })
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking",
    seedRoute: 4,
    handle: (ctx) => ({ route: 4, ...ctx.params })
  },
  {
    method: "GET",
    host: "data",
    path: "/v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}",
    seedRoute: 0,
    handle: (ctx) => ({ route: "tx", ...ctx.params })
  }
]

/** The same templates under /v1/test, so the colon-segment cases run through the server too. */
export const serverRoutes: ReadonlyArray<RouteDef> = testRoutes.map((r) =>
  r.seedRoute === 0 && !r.path.includes("{") ? r : { ...r, path: r.path.replace(/^\/v1\//, "/v1/test/") }
)

export const testMethods: ReadonlyArray<RpcMethodDef> = [
  { chain: "X", method: "test.echo", handle: (params, ctx) => ({ params, chain: ctx.chain, network: ctx.network, blockchainId: ctx.blockchainId }) },
  { chain: "X", method: "test.records", handle: () => ({ utxos: ITEMS.slice(0, 3), numFetched: "3" }) },
  { chain: "P", method: "test.fail", handle: () => { throw new Error("node is sad") } },
  { chain: "P", method: "test.badParams", handle: () => { throw new RpcError(-32602, "missing subnetID", { field: "subnetID" }) } }
]

/** Starts an emulator with the test routes for one test and closes it afterwards. */
export const useEmulator = () => {
  const running: RunningEmulator[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()))
  })
  return async (options: EmulatorOptionsInput = {}): Promise<RunningEmulator> => {
    const e = await startEmulator(options, { routes: serverRoutes, methods: testMethods })
    running.push(e)
    return e
  }
}

export const getJson = async (url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }> => {
  const res = await fetch(url, init)
  return { status: res.status, headers: res.headers, body: await res.json() }
}

export const rpc = (url: string, body: unknown): Promise<{ status: number; headers: Headers; body: any }> =>
  getJson(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) })
