/**
 * Reading JSON-RPC params the way avalanchego's gorilla codec does. A param whose JSON does not
 * unmarshal into its Go type (a malformed id, a string for a list, an unknown encoding) fails
 * before the method runs: -32600 with the unmarshal error. A param that unmarshals but makes no
 * sense to the method (an unknown id, a bad address string) fails inside it: -32000.
 */
import { RpcError } from "../http/contract.ts"
import { fromCb58, nodeIdBytes } from "../world/primary/ids.ts"

export const INVALID_REQUEST = -32600
export const SERVER_ERROR = -32000

export const invalidRequest = (message: string): RpcError => new RpcError(INVALID_REQUEST, message)
export const serverError = (message: string): RpcError => new RpcError(SERVER_ERROR, message)

/** The id an omitted ids.ID field holds. */
export const EMPTY_ID = "11111111111111111111111111111111LpoYY"

type Params = Record<string, unknown>

/** A string field; absent or null reads as "" (Go's zero value). */
export const stringParam = (params: Params, name: string): string => {
  const v = params[name]
  if (v === undefined || v === null) return ""
  if (typeof v !== "string") throw invalidRequest(`json: cannot unmarshal ${typeName(v)} into Go struct field .${name} of type string`)
  return v
}

/** A cb58 ids.ID field; absent reads as the empty id. */
export const idParam = (params: Params, name: string): string => {
  const s = stringParam(params, name)
  if (s === "") return EMPTY_ID
  const bytes = fromCb58(s)
  if (!bytes || bytes.length !== 32) throw invalidRequest(`couldn't decode ${name} "${s}": not a cb58-encoded 32-byte id`)
  return s
}

/** An avajson.Uint64/Uint32 field: a JSON number or a decimal string; absent reads as 0. */
export const uintParam = (params: Params, name: string, max: bigint): bigint => {
  const v = params[name]
  if (v === undefined || v === null) return 0n
  const text = typeof v === "number" ? String(v) : typeof v === "string" ? v : undefined
  if (text === undefined || !/^\d+$/.test(text) || BigInt(text) > max) {
    throw invalidRequest(`couldn't unmarshal ${name} ${JSON.stringify(v)}: expected an unsigned integer up to ${max}`)
  }
  return BigInt(text)
}

export const U32_MAX = 0xffff_ffffn
export const U64_MAX = 0xffff_ffff_ffff_ffffn

export const boolParam = (params: Params, name: string): boolean => {
  const v = params[name]
  if (v === undefined || v === null) return false
  if (typeof v !== "boolean") throw invalidRequest(`json: cannot unmarshal ${typeName(v)} into Go struct field .${name} of type bool`)
  return v
}

/** A []string field; absent reads as []. */
export const stringListParam = (params: Params, name: string): string[] => {
  const v = params[name]
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    throw invalidRequest(`json: cannot unmarshal ${typeName(v)} into Go struct field .${name} of type []string`)
  }
  return v as string[]
}

/** A []ids.NodeID field: every entry must be "NodeID-" + cb58 of 20 bytes. */
export const nodeIdListParam = (params: Params, name: string): string[] =>
  stringListParam(params, name).map((s) => {
    const b = nodeIdBytes(s)
    if (!b || b.length !== 20) throw invalidRequest(`couldn't unmarshal ${name}: "${s}" is not a NodeID`)
    return s
  })

export type Encoding = "hex" | "json"

/** The encoding field: hex when absent; json only where the method offers it. */
export const encodingParam = (params: Params, offered: ReadonlyArray<Encoding>): Encoding => {
  const v = stringParam(params, "encoding")
  if (v === "") return "hex"
  if (v === "hex" || v === "json") {
    if (offered.includes(v)) return v
    throw serverError(`encoding "${v}" is not supported by this method: only ${offered.join(", ")}`)
  }
  throw invalidRequest(`invalid encoding "${v}": expected hex or json`)
}

const typeName = (v: unknown): string => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "object" ? "object" : typeof v)
