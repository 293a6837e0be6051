/**
 * Where the world's locator ids meet the ids a node serves (world/primary/servedIds.ts): every id
 * string in a request is resolved to the world's, every id string in an answer is replaced by the
 * served one. Done once here, for every route and method, rather than at each of the dozens of
 * places that read or write an id, so none can be forgotten. A route whose answer is large and
 * names its ids in known fields may name them served itself (`servedIdsFor`, RouteDef.namesServedIds):
 * its answer is then not walked again; test/primary/servedAnswers.test.ts checks that the rewrite
 * would change nothing in it.
 */
import type { PrimaryNetwork, PrimaryWorld } from "../world/primary/index.ts"

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

/** World ids to served ones, by the first network that knows them (ids carry their network in their bytes). */
export const toServed = (primary: PrimaryWorld): ((s: string) => string) => (s) => {
  for (const net of primary.built()) {
    const t = net.served.of(s)
    if (t !== s) return t
  }
  return s
}

/**
 * What toServed gives, for one answer of `own`'s: each distinct string told once, and `own` asked
 * first (its ids are most of the answer's, and no other network changes them: an id carries its
 * network in its bytes), then the others in toServed's order.
 */
export const servedIdsFor = (primary: PrimaryWorld, own: PrimaryNetwork): ((s: string) => string) => {
  const told = new Map<string, string>()
  return (s) => {
    if (!CB58_ID.test(s)) return s
    let t = told.get(s)
    if (t === undefined) {
      t = own.served.of(s)
      if (t === s) for (const net of primary.built()) if (net !== own && (t = net.served.of(s)) !== s) break
      told.set(s, t)
    }
    return t
  }
}

/**
 * Served ids back to the world's. Ids already hashed are found in any network; an id not seen yet
 * makes only the request's own network (its REST path's, or the node's) hash its chains up to now:
 * a mainnet id must not make fuji hash days of blocks, nor an EVM route any.
 */
export const toWorld = (primary: PrimaryWorld, network?: string): ((s: string) => string) => (s) => {
  for (const net of primary.built()) {
    const hit = net.served.known(s)
    if (hit !== undefined) return hit
  }
  const own = network === undefined ? undefined : primary.built().find((n) => n.name === (network === "testnet" ? "fuji" : network))
  return own ? own.served.resolve(s) : s
}

/** Query values resolved to world ids (comma-separated lists item by item). */
export const worldQuery = (query: URLSearchParams, f: (s: string) => string): URLSearchParams => {
  const out = new URLSearchParams()
  for (const [k, v] of query) out.append(k, v.split(",").map((x) => (CB58_ID.test(x) ? f(x) : x)).join(","))
  return out
}
