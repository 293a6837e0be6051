/**
 * A decoded P-chain tx and avalanchejs' parse of the same bytes, each flattened to the sequence of
 * values read off the wire ("n:<integer>", "b:<hex>", "s:<text>"), so the two decoders can be
 * compared value for value and in wire order without either's field names.
 */
import * as avalanchejs from "@avalabs/avalanchejs"
import bs58 from "bs58"

const { utils } = avalanchejs as unknown as { utils: { parseBech32(s: string): [string, Uint8Array] } }

const hex = (b: Uint8Array): string => `b:${Buffer.from(b).toString("hex")}`

/** avalanchejs serializables: every primitive holds one value under one key besides `_type`. */
export const avalanchejsLeaves = (value: unknown, out: string[] = []): string[] => {
  if (Array.isArray(value)) {
    for (const v of value) avalanchejsLeaves(v, out)
    return out
  }
  if (value instanceof Uint8Array) {
    out.push(hex(value))
    return out
  }
  if (typeof value === "bigint" || typeof value === "number") {
    out.push(`n:${value}`)
    return out
  }
  if (typeof value === "string") {
    out.push(`s:${value}`)
    return out
  }
  if (value !== null && typeof value === "object") {
    const o = value as { _type?: unknown; byte?: Uint8Array; toBytes?: () => Uint8Array }
    // a byte is held as a one-byte array, a BLS signature as a curve point: their numeric and byte forms
    if (o._type === "primitives.Byte" && o.byte !== undefined) out.push(`n:${o.byte[0]}`)
    else if (o._type === "common.BlsSignature" && o.toBytes !== undefined) out.push(hex(o.toBytes()))
    else for (const [k, v] of Object.entries(value)) if (k !== "_type" && k !== "vm") avalanchejsLeaves(v, out)
  }
  return out
}

const cb58Bytes = (s: string): Uint8Array => bs58.decode(s).subarray(0, -4)

const textLeaf = (key: string, s: string): string => {
  if (key === "chainName") return `s:${s}`
  if (key === "genesisData") return hex(Buffer.from(s, "base64"))
  if (s.startsWith("0x")) return hex(Buffer.from(s.slice(2), "hex"))
  if (s.startsWith("NodeID-")) return hex(cb58Bytes(s.slice("NodeID-".length)))
  const dash = s.indexOf("-")
  if (dash > 0) return hex(utils.parseBech32(s.slice(dash + 1))[1])
  return hex(cb58Bytes(s))
}

// OutputOwners and TransferOutput: Go's MarshalJSON sorts their keys; on the wire amount, locktime, threshold come before the addresses
const WIRE_ORDER = ["amount", "locktime", "threshold", "addresses"]

/** Our decoded value (its JSON shape), skipping fxID, which is not on the wire. */
export const decodedLeaves = (value: unknown, out: string[] = [], key = ""): string[] => {
  if (Array.isArray(value)) {
    if (key === "proofOfPossession") out.push(hex(Uint8Array.from(value as number[])))
    else for (const v of value) decodedLeaves(v, out, key)
    return out
  }
  if (typeof value === "bigint" || typeof value === "number") out.push(`n:${value}`)
  else if (typeof value === "string") out.push(textLeaf(key, value))
  else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
    const owners = "addresses" in value && "locktime" in value
    const ordered = owners ? entries.sort(([a], [b]) => WIRE_ORDER.indexOf(a) - WIRE_ORDER.indexOf(b)) : entries
    for (const [k, v] of ordered) if (k !== "fxID") decodedLeaves(v, out, k)
  }
  return out
}
