/**
 * How the naive script gets a parquetjs-lite schema: inferred from a sample of records (the first
 * page of every listing), as one would without a schema at hand. Strings stay UTF8 (amounts
 * included: parquetjs-lite has no DECIMAL), integers INT64, objects groups, arrays repeated
 * fields; a value that does not fit its inferred type is written as JSON text, a field the sample
 * did not have is dropped.
 */
type Scalar = "UTF8" | "INT64" | "DOUBLE" | "BOOLEAN"
export type Shape =
  | { readonly kind: "scalar"; type: Scalar }
  | { readonly kind: "group"; readonly fields: Map<string, Shape> }
  | { readonly kind: "list"; element: Shape | undefined }

export interface LiteField {
  type?: string
  optional?: boolean
  repeated?: boolean
  fields?: Record<string, LiteField>
}

const scalarOf = (v: unknown): Scalar =>
  typeof v === "boolean" ? "BOOLEAN" : typeof v === "number" ? (Number.isSafeInteger(v) ? "INT64" : "DOUBLE") : "UTF8"

const shapeOf = (v: unknown): Shape => {
  if (Array.isArray(v)) return v.reduce<Shape>((s, x) => merge(s, x), { kind: "list", element: undefined })
  if (typeof v === "object" && v !== null) return merge({ kind: "group", fields: new Map() }, v)
  return { kind: "scalar", type: scalarOf(v) }
}

/** Widens `shape` to also hold `v`; conflicting kinds fall back to JSON text. */
export const merge = (shape: Shape, v: unknown): Shape => {
  if (v === null || v === undefined) return shape
  if (shape.kind === "group" && typeof v === "object" && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const had = shape.fields.get(k)
      shape.fields.set(k, had === undefined ? shapeOf(x) : merge(had, x))
    }
    return shape
  }
  if (shape.kind === "list" && Array.isArray(v)) {
    for (const x of v) shape.element = shape.element === undefined ? shapeOf(x) : merge(shape.element, x)
    return shape
  }
  if (shape.kind === "scalar" && !Array.isArray(v) && (typeof v !== "object")) {
    const t = scalarOf(v)
    if (t !== shape.type) shape.type = (t === "DOUBLE" && shape.type === "INT64") || (t === "INT64" && shape.type === "DOUBLE") ? "DOUBLE" : "UTF8"
    return shape
  }
  return { kind: "scalar", type: "UTF8" }
}

export const liteSchema = (shape: Extract<Shape, { kind: "group" }>): Record<string, LiteField> =>
  Object.fromEntries([...shape.fields].map(([k, s]) => [k, liteField(s)]))

const liteField = (s: Shape): LiteField => {
  if (s.kind === "scalar") return { type: s.type, optional: true }
  if (s.kind === "group") return { optional: true, fields: liteSchema(s) }
  const element = s.element === undefined || s.element.kind === "list" ? ({ kind: "scalar", type: "UTF8" } as const) : s.element
  return { ...liteField(element), optional: false, repeated: true }
}

/** The record as the schema wants it: undefined for what it cannot hold. */
export const coerce = (s: Shape, v: unknown): unknown => {
  if (v === null || v === undefined) return undefined
  if (s.kind === "group") {
    if (typeof v !== "object" || Array.isArray(v)) return undefined
    const out: Record<string, unknown> = {}
    for (const [k, f] of s.fields) {
      const x = coerce(f, (v as Record<string, unknown>)[k])
      if (x !== undefined) out[k] = x
    }
    return out
  }
  if (s.kind === "list") {
    if (!Array.isArray(v)) return []
    const element = s.element === undefined || s.element.kind === "list" ? ({ kind: "scalar", type: "UTF8" } as const) : s.element
    return v.map((x) => coerce(element, x)).filter((x) => x !== undefined)
  }
  if (s.type === "UTF8") return typeof v === "string" ? v : JSON.stringify(v)
  if (s.type === "INT64") return Number.isSafeInteger(v) ? v : undefined
  if (s.type === "DOUBLE") return typeof v === "number" ? v : undefined
  return typeof v === "boolean" ? v : undefined
}
