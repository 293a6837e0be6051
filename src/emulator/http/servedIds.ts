/**
 * Where the world's locator ids meet the ids a node serves (world/primary/servedIds.ts): every id
 * string in a request is resolved to the world's, every id string in an answer is replaced by the
 * served one. Done once here, for every route and method, rather than at each of the dozens of
 * places that read or write an id, so none can be forgotten.
 */
import type { PrimaryWorld } from "../world/primary/index.ts"

/** What a cb58 32-byte id looks like: base58 of 36 bytes. Anything else is passed by at once. */
const CB58_ID = /^[1-9A-HJ-NP-Za-km-z]{46,50}$/

/** A deep copy of `v` with every string that may be an id passed through `f`. */
export const mapIdStrings = (v: unknown, f: (s: string) => string): unknown => {
  if (typeof v === "string") return CB58_ID.test(v) ? f(v) : v
  if (Array.isArray(v)) return v.map((x) => mapIdStrings(x, f))
  if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = mapIdStrings(x, f)
    return out
  }
  return v
}

/** The first network that translates `s` (ids carry their network inside their bytes). */
const through = (primary: PrimaryWorld, pick: "of" | "resolve") => (s: string): string => {
  for (const net of primary.built()) {
    const t = net.served[pick](s)
    if (t !== s) return t
  }
  return s
}

export const toServed = (primary: PrimaryWorld): ((s: string) => string) => through(primary, "of")
export const toWorld = (primary: PrimaryWorld): ((s: string) => string) => through(primary, "resolve")

/** Query values resolved to world ids. */
export const worldQuery = (query: URLSearchParams, f: (s: string) => string): URLSearchParams => {
  const out = new URLSearchParams()
  for (const [k, v] of query) out.append(k, v.split(",").map((x) => (CB58_ID.test(x) ? f(x) : x)).join(","))
  return out
}
