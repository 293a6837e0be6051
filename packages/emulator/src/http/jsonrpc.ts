/**
 * The node's JSON-RPC 2.0 endpoints, /ext/bc/X, /ext/bc/P and /ext/bc/<blockchainId>, answering
 * the way avalanchego does: every JSON-RPC outcome, errors included, is HTTP 200; a parse error has
 * id null; a handler failure that is not an RpcError is -32000 with the failure's message.
 * Batches (arrays) are answered element by element, in order. A request without an id is still
 * answered (with id null) rather than treated as a silent notification: nothing here has effects.
 */
import { BLOCKCHAIN_ID, NETWORKS, type NetworkName } from "../world/constants.ts"
import type { World } from "../world/world.ts"
import { RpcError, type Clock, type RpcChain, type RpcContext, type RpcMethodDef } from "./contract.ts"

export const RPC_PATH_PREFIX = "/ext/bc/"

export interface RpcEndpoint {
  readonly chain: RpcChain
  readonly blockchainId: string
  readonly network: NetworkName
}

/**
 * Which chain and network a path addresses: the aliases X and P serve `nodeNetwork`; a blockchain
 * id serves the network it belongs to (the P-chain id is shared, so it serves `nodeNetwork`).
 * undefined for anything else.
 */
export const resolveRpcEndpoint = (path: string, nodeNetwork: NetworkName): RpcEndpoint | undefined => {
  if (!path.startsWith(RPC_PATH_PREFIX)) return undefined
  const id = path.slice(RPC_PATH_PREFIX.length).replace(/\/$/, "")
  if (id === "X" || id === "P") return { chain: id, blockchainId: BLOCKCHAIN_ID[nodeNetwork][id], network: nodeNetwork }
  for (const network of [nodeNetwork, ...NETWORKS.filter((n) => n !== nodeNetwork)]) {
    for (const chain of ["X", "P"] as const) {
      if (BLOCKCHAIN_ID[network][chain] === id) return { chain, blockchainId: id, network }
    }
  }
  return undefined
}

type Id = string | number | null

interface RpcErrorObject {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

export type RpcResponse =
  | { readonly jsonrpc: "2.0"; readonly result: unknown; readonly id: Id }
  | { readonly jsonrpc: "2.0"; readonly error: RpcErrorObject; readonly id: Id }

/** Called on each successful result before it is sent; returns what to send instead (faults hook in here). */
export type ResultHook = (result: unknown, method: string, params: Record<string, unknown>) => unknown

export interface RpcDispatcher {
  /** The response document for a raw request body: one response, or an array for a batch. */
  dispatch(endpoint: RpcEndpoint, rawBody: string, onResult?: ResultHook): Promise<RpcResponse | RpcResponse[]>
}

const failure = (id: Id, code: number, message: string, data?: unknown): RpcResponse => ({
  jsonrpc: "2.0",
  error: data === undefined ? { code, message } : { code, message, data },
  id
})

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** params as the handler wants them: {} when omitted; a one-object array (gorilla's form) unwrapped. */
const normaliseParams = (params: unknown): Record<string, unknown> | undefined => {
  if (params === undefined || params === null) return {}
  if (isPlainObject(params)) return params
  if (Array.isArray(params) && params.length === 0) return {}
  if (Array.isArray(params) && params.length === 1 && isPlainObject(params[0])) return params[0]
  return undefined
}

export const createRpcDispatcher = (
  methods: ReadonlyArray<RpcMethodDef>,
  deps: { readonly world: World; readonly clock: Clock }
): RpcDispatcher => {
  const table = new Map<string, RpcMethodDef>()
  for (const m of methods) {
    const key = `${m.chain} ${m.method}`
    if (table.has(key)) throw new Error(`emulator: JSON-RPC method ${key} is declared twice`)
    table.set(key, m)
  }

  const one = async (endpoint: RpcEndpoint, request: unknown, onResult: ResultHook): Promise<RpcResponse> => {
    if (!isPlainObject(request)) return failure(null, -32600, "invalid request: expected a JSON object")
    const rawId = request.id
    const id: Id = typeof rawId === "string" || typeof rawId === "number" ? rawId : null
    if (rawId !== undefined && rawId !== null && id === null) return failure(null, -32600, "invalid request: id must be a string or a number")
    if (request.jsonrpc !== "2.0") return failure(id, -32600, 'invalid request: jsonrpc must be "2.0"')
    if (typeof request.method !== "string" || request.method === "") return failure(id, -32600, "invalid request: missing method")
    const method = request.method
    const def = table.get(`${endpoint.chain} ${method}`)
    if (!def) return failure(id, -32601, `the method ${method} does not exist/is not available`)
    const params = normaliseParams(request.params)
    if (!params) return failure(id, -32602, "invalid params: expected an object")
    const ctx: RpcContext = { chain: endpoint.chain, blockchainId: endpoint.blockchainId, network: endpoint.network, ...deps }
    try {
      const result = await def.handle(params, ctx)
      return { jsonrpc: "2.0", result: onResult(result ?? null, method, params), id }
    } catch (err) {
      if (err instanceof RpcError) return failure(id, err.code, err.message, err.data)
      return failure(id, -32000, err instanceof Error ? err.message : String(err))
    }
  }

  return {
    async dispatch(endpoint, rawBody, onResult = (result) => result) {
      let request: unknown
      try {
        request = JSON.parse(rawBody)
      } catch (err) {
        return failure(null, -32700, `parse error: ${err instanceof Error ? err.message : String(err)}`)
      }
      if (!Array.isArray(request)) return one(endpoint, request, onResult)
      if (request.length === 0) return failure(null, -32600, "invalid request: empty batch")
      const responses: RpcResponse[] = []
      for (const r of request) responses.push(await one(endpoint, r, onResult))
      return responses
    }
  }
}
