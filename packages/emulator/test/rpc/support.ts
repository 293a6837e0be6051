/**
 * Calling the emulator's node JSON-RPC over real HTTP, and reading the result shapes of the two
 * official JSON-RPC documents (reference/*-jsonrpc.openapi.yaml).
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll } from "vitest"
import { parse } from "yaml"
import { referenceUrl } from "../../../../test/support/reference.ts"
import { startEmulator, type EmulatorOptionsInput, type RunningEmulator } from "../../src/index.ts"
import type { PrimaryNetwork } from "../../src/world/primary/index.ts"

export type Json = Record<string, unknown>

export interface RpcFailure {
  readonly code: number
  readonly message: string
}

export interface Node {
  readonly emu: RunningEmulator
  readonly net: PrimaryNetwork
  /** The raw response document. */
  call(chain: string, method: string, params?: unknown): Promise<Json>
  /** The result; fails the test on an error answer. */
  result(chain: string, method: string, params?: unknown): Promise<Json>
  /** The error object; fails the test on a result. */
  failure(chain: string, method: string, params?: unknown): Promise<RpcFailure>
}

const makeNode = (emu: RunningEmulator): Node => {
  const call = async (chain: string, method: string, params?: unknown): Promise<Json> => {
    const body = { jsonrpc: "2.0", id: 7, method, ...(params === undefined ? {} : { params }) }
    const res = await fetch(`${emu.nodeUrl}/ext/bc/${chain}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    return (await res.json()) as Json
  }
  return {
    emu,
    net: emu.world.primary.network(emu.options.nodeNetwork),
    call,
    async result(chain, method, params) {
      const doc = await call(chain, method, params)
      if (!("result" in doc)) throw new Error(`${method} failed: ${JSON.stringify(doc.error)}`)
      return doc.result as Json
    },
    async failure(chain, method, params) {
      const doc = await call(chain, method, params)
      if (!("error" in doc)) throw new Error(`${method} answered ${JSON.stringify(doc.result).slice(0, 200)} instead of failing`)
      return doc.error as RpcFailure
    }
  }
}

/** One in-process emulator for a test file: started before its tests, closed after. */
export const useNode = (input: EmulatorOptionsInput = {}): { readonly current: Node } => {
  const holder: { current: Node } = { current: undefined as unknown as Node }
  beforeAll(async () => {
    holder.current = makeNode(await startEmulator({ port: 0, ...input }))
  })
  afterAll(async () => {
    await holder.current?.emu.close()
  })
  return holder
}

export const startNode = async (input: EmulatorOptionsInput = {}): Promise<Node> => makeNode(await startEmulator({ port: 0, ...input }))

const DOCS = {
  X: referenceUrl("x-chain-jsonrpc.openapi.yaml"),
  P: referenceUrl("platform-jsonrpc.openapi.yaml")
} as const

const docCache = new Map<string, Json>()
const doc = (chain: "X" | "P"): Json => {
  let d = docCache.get(chain)
  if (!d) {
    d = parse(readFileSync(DOCS[chain], "utf8")) as Json
    docCache.set(chain, d)
  }
  return d
}

const at = (node: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((n, k) => (typeof n === "object" && n !== null ? (n as Json)[k] : undefined), node)

const resolve = (d: Json, node: unknown): Json => {
  const ref = at(node, "$ref")
  if (typeof ref !== "string") return (node ?? {}) as Json
  return resolve(d, at(d, ...ref.replace(/^#\//, "").split("/")))
}

/** The property names the official document gives a method's `result` object. */
export const resultKeys = (chain: "X" | "P", method: string): string[] => {
  const d = doc(chain)
  const op = at(d, "paths", `/ext/bc/${chain}#${method}`, "post")
  if (!op) throw new Error(`${method} is not in the ${chain} document`)
  const response = resolve(d, at(op, "responses", "200", "content", "application/json", "schema"))
  const result = resolve(d, at(response, "properties", "result"))
  return Object.keys((result.properties ?? {}) as Json)
}

/** Quantities on the wire: non-empty runs of decimal digits. */
export const DECIMAL = /^(0|[1-9]\d*)$/
