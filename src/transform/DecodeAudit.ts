/**
 * The compiled decoders' audit (CompiledDecode.ts): while enabled, every `decoder` call also runs
 * Effect's parser on the record and on a few damaged copies of it (a field removed, a field of the
 * wrong type), and keeps each case where the two answer differently. Off in production; a test
 * turns it on around a whole crawl so every dataset's schema meets its real records.
 */
import { isDeepStrictEqual } from "node:util"

export interface Mismatch {
  readonly schema: string
  readonly input: unknown
  readonly compiled: unknown
  readonly effect: unknown
}

interface AuditState {
  enabled: boolean
  /** Inputs compared, damaged copies included. */
  compared: number
  /** Schemas (by their printed form) that met at least one record. */
  readonly schemas: Set<string>
  readonly mismatches: Mismatch[]
}

export const decodeAudit: AuditState = { enabled: false, compared: 0, schemas: new Set(), mismatches: [] }

/** Damaged copies are made of the first records a schema meets, not all: Effect's parser is the slow one. */
const DAMAGED_PER_SCHEMA = 25
const WRONG_VALUES: ReadonlyArray<unknown> = [null, "x", -1.5, 10n ** 40n, [], {}]

const damaged = (record: unknown): unknown[] => {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return WRONG_VALUES.slice()
  const out: unknown[] = []
  const keys = Object.keys(record)
  for (const [i, key] of keys.entries()) {
    const { [key]: _removed, ...rest } = record as Record<string, unknown>
    out.push(rest)
    out.push({ ...record, [key]: WRONG_VALUES[i % WRONG_VALUES.length] })
  }
  return out
}

const seen = new Map<string, number>()

/**
 * Compares both decoders on `record` (and, for a schema's first records, on damaged copies).
 * `compiled` and `effect` answer a decoded value, or `undefined` for a failure.
 */
export const auditDecode = (
  schema: string,
  record: unknown,
  compiled: (raw: unknown) => { ok: boolean; value?: unknown },
  effect: (raw: unknown) => { ok: boolean; value?: unknown }
): void => {
  decodeAudit.schemas.add(schema)
  const n = (seen.get(schema) ?? 0) + 1
  seen.set(schema, n)
  const inputs = n <= DAMAGED_PER_SCHEMA ? [record, ...damaged(record)] : [record]
  for (const input of inputs) {
    decodeAudit.compared++
    const a = compiled(input)
    const b = effect(input)
    if (a.ok !== b.ok || (a.ok && !isDeepStrictEqual(a.value, b.value))) {
      decodeAudit.mismatches.push({ schema, input, compiled: a.ok ? a.value : "(failed)", effect: b.ok ? b.value : "(failed)" })
    }
  }
}

export const resetDecodeAudit = (enabled: boolean): void => {
  decodeAudit.enabled = enabled
  decodeAudit.compared = 0
  decodeAudit.schemas.clear()
  decodeAudit.mismatches.length = 0
  seen.clear()
}
