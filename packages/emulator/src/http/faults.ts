/**
 * Reproducible misbehaviour, all driven by faults.seed.
 *
 * Transient faults (5xx, 429 bursts, latency, reset, truncation) are drawn from the request
 * counter: the n-th request always draws the same, and a retry is a new request with a new draw,
 * so retrying eventually succeeds. Persistent faults (a malformed record, extra fields) are drawn
 * from a hash of the page (method, path, sorted query, body): the same page carries the same
 * defect on every fetch, as real bad data would, so a client cannot retry it away.
 */
import { hash32, pick, unit } from "../world/rng.ts"
import { canonicalQuery } from "./canonical.ts"
import type { FaultOptions } from "./options.ts"

export type TransientFault =
  | { readonly kind: "none" }
  | { readonly kind: "5xx"; readonly status: 500 | 502 | 503 }
  | { readonly kind: "429" }
  | { readonly kind: "reset" }
  | { readonly kind: "truncate" }

export interface TransientDraw {
  readonly fault: TransientFault
  readonly delayMs: number
}

export interface TransientFaults {
  /** The draw for the next request; stateful only in that a 429 burst covers the following requests. */
  next(): TransientDraw
}

const SERVER_ERRORS = [500, 502, 503] as const

export const createTransientFaults = (f: FaultOptions): TransientFaults => {
  let n = 0
  let burstLeft = 0
  return {
    next() {
      n++
      const delayMs = f.latencyMs > 0 ? f.latencyMs * (1 + unit(f.seed, "latency", n) / 2) : 0
      if (burstLeft > 0) {
        burstLeft--
        return { fault: { kind: "429" }, delayMs }
      }
      // one uniform draw cut into consecutive shares, one per rate, so the rates do not interact
      let u = unit(f.seed, "transient", n)
      if ((u -= f.rate5xx) < 0) return { fault: { kind: "5xx", status: pick(f.seed, SERVER_ERRORS, "status", n) }, delayMs }
      if ((u -= f.rate429) < 0) {
        burstLeft = f.burst429 - 1
        return { fault: { kind: "429" }, delayMs }
      }
      if ((u -= f.resetRate) < 0) return { fault: { kind: "reset" }, delayMs }
      if ((u -= f.truncateRate) < 0) return { fault: { kind: "truncate" }, delayMs }
      return { fault: { kind: "none" }, delayMs }
    }
  }
}

/** Identifies a page for persistent faults: query order does not matter, the body does. */
export const pageKey = (method: string, path: string, query: URLSearchParams, body: string): string =>
  `${method} ${path}?${canonicalQuery(query)}\n${body}`

type JsonObject = Record<string, unknown>

const isRecord = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v)

/** The page's main array: the first non-empty array of objects, depth first in key order. */
export const mainArray = (v: unknown): JsonObject[] | undefined => {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every(isRecord)) return v
    for (const x of v) {
      const found = mainArray(x)
      if (found) return found
    }
    return undefined
  }
  if (isRecord(v)) {
    for (const x of Object.values(v)) {
      const found = mainArray(x)
      if (found) return found
    }
  }
  return undefined
}

const DECIMAL = /^-?\d+$/

/** How a value of the record is spoiled; the names appear in the x-emulator-fault header. */
type Malformation = "number-as-text" | "decimal-with-letter" | "string-removed"

const malformations = (r: JsonObject): Array<[Malformation, string[]]> => {
  const fields = Object.keys(r)
  const byKind: Array<[Malformation, string[]]> = [
    ["number-as-text", fields.filter((k) => typeof r[k] === "number")],
    ["decimal-with-letter", fields.filter((k) => typeof r[k] === "string" && DECIMAL.test(r[k] as string))],
    ["string-removed", fields.filter((k) => typeof r[k] === "string" && !DECIMAL.test(r[k] as string))]
  ]
  return byKind.filter(([, ks]) => ks.length > 0)
}

/**
 * Spoils one record of the main array in place; returns a note saying which (index, field, how)
 * or undefined when the page has no record with a field to spoil.
 */
const malform = (payload: unknown, seed: number, key: string): string | undefined => {
  const records = mainArray(payload)
  if (!records) return undefined
  const index = hash32(seed, "malformed-index", key) % records.length
  const record = records[index] as JsonObject
  const options = malformations(record)
  if (options.length === 0) return undefined
  const [kind, fields] = pick(seed, options, "malformed-kind", key)
  const field = pick(seed, fields, "malformed-field", key)
  if (kind === "number-as-text") record[field] = "not-a-number"
  else if (kind === "decimal-with-letter") record[field] = "12x"
  else delete record[field]
  return `malformed index=${index} field=${field} kind=${kind}`
}

/** Adds fields no official document lists to every record (or to the payload when it has no records). */
const addExtraFields = (payload: unknown): string | undefined => {
  const targets = mainArray(payload) ?? (isRecord(payload) ? [payload] : [])
  for (const r of targets) r.unexpectedField = "added by the emulator's extraFields fault"
  return targets.length > 0 ? `extra-fields records=${targets.length}` : undefined
}

/** Whether this page carries persistent faults; a pure function of (faults.seed, page key). */
export const persistentFaultsOf = (f: FaultOptions, key: string): { malformed: boolean; extraFields: boolean } => ({
  malformed: f.malformedRate > 0 && unit(f.seed, "malformed", key) < f.malformedRate,
  extraFields: f.extraFieldsRate > 0 && unit(f.seed, "extra-fields", key) < f.extraFieldsRate
})

/**
 * Applies this page's persistent faults in place to a freshly parsed payload (never to an object a
 * route may have cached). Returns one note per fault applied.
 */
export const applyPersistentFaults = (payload: unknown, f: FaultOptions, key: string): string[] => {
  const due = persistentFaultsOf(f, key)
  const notes = [due.malformed ? malform(payload, f.seed, key) : undefined, due.extraFields ? addExtraFields(payload) : undefined]
  return notes.filter((n): n is string => n !== undefined)
}
