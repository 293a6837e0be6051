/**
 * The decoder of a table's columns read from the record (schemas/columns.ts, `.from`): their
 * paths make one Effect struct of what the record must hold, decoded by `decoder` (so the compiled
 * fast path, Effect's reject reasons and the unknown-field count are those of a hand-written
 * one), and a projector written for the table copies each decoded field into its column, nested
 * structs and lists of structs included. `reads` are fields the dataset's own code needs that are
 * no column (a fan-out's list, a second spelling): decoded in the same pass, handed over by name.
 *
 * The wire type of a column follows its type, with the spellings the services use: a decimal
 * string for DECIMAL (amounts, heights: never a JS number), an integer or the lossless parser's
 * bigint for BIGINT, Unix seconds for TIMESTAMPTZ; `wire` names another. Ranges are not checked
 * here: ColumnRange checks every row against its columns, naming the column.
 */
import { Schema } from "effect"
import type { AnyColumn, ColumnSpec, Columns, Path, PathNull, PathSpec, PathStep, Shape, VariantPaths } from "../../schemas/columns.ts"
import { ALL, parsePath, parsePaths, pathIn } from "../../schemas/columns.ts"
import { uint256Values } from "../../schemas/common.ts"
import { RecordError } from "./RecordError.ts"
import { DecimalString, IntegerLike, NumberLike, UnixSeconds, decoder } from "./Decode.ts"

type AnySchema = Schema.Schema<any, any, never>

/** A field the dataset's code reads that no column holds: a path and its wire type. */
export interface WireRead<T = unknown, Optional extends boolean = boolean> {
  readonly paths: VariantPaths
  readonly schema: AnySchema
  /** Phantom: the decoded value and whether it may be absent. */
  readonly _type?: T
  readonly _optional?: Optional
}

/** A field read for the dataset's code: `read("sourceChain?", Schema.String)` (a path per shape as in `.from`). */
export const read = <const P extends PathSpec, T>(path: P, schema: Schema.Schema<T, any, never>): WireRead<T, PathNull<P>> => ({ paths: parsePaths(path), schema })

export type Reads = Readonly<Record<string, WireRead>>

/** The decoded `reads`: each by its name, undefined where its path was absent. */
export type ReadValues<W extends Reads> = { readonly [K in keyof W]: W[K] extends WireRead<infer T, infer O> ? (true extends O ? T | undefined : T) : never }

const Int = Schema.Number.pipe(Schema.int())

const LEAF_WIRE: Readonly<Record<string, AnySchema | undefined>> = {
  str: Schema.String,
  hash: Schema.String,
  address: Schema.String,
  int32: Int,
  int64: IntegerLike,
  float64: NumberLike,
  bool: Schema.Boolean,
  amount: DecimalString,
  ts: UnixSeconds,
  date: Schema.String
}

/** The wire type of a column's value (its own `wire`, or its type's usual spelling). */
const wireOf = (spec: ColumnSpec, where: string): AnySchema => {
  if (spec.source.tag === "read" && spec.source.wire !== undefined) return spec.source.wire
  return shapeWire(spec.shape, where)
}

const shapeWire = (shape: Shape, where: string): AnySchema => {
  switch (shape.tag) {
    case "uint256":
      return DecimalString
    case "list":
      return Schema.Array(shapeWire(shape.item.spec.shape, `${where}[]`))
    case "struct":
      return levelWire(treeOf(Object.entries(shape.fields), {}, where, ALL)).schema
    case "leaf": {
      const w = LEAF_WIRE[shape.type]
      if (w === undefined) throw new Error(`column ${where}: a ${shape.type} column cannot be read from the record; compute it`)
      return w
    }
  }
}

/** One member of an object level: a column's or a read's field, or a nested object of more. */
interface Member {
  optional: boolean
  orNull: boolean
  leaf?: { readonly schema: AnySchema; readonly name: string }
  nested?: Level
}
type Level = Map<string, Member>

interface Leafish {
  readonly name: string
  readonly path: ReadonlyArray<PathStep>
  readonly schema: () => AnySchema
  readonly orNull: boolean
}

/** The object levels `variant`'s records hold, from the paths of the columns and reads. */
const treeOf = (columns: ReadonlyArray<readonly [string, AnyColumn]>, reads: Reads, where: string, variant: string): Level => {
  const leaves: Leafish[] = []
  for (const [name, c] of columns) {
    const s = c.spec.source
    if (s.tag !== "read") continue
    const at = where === "" ? name : `${where}.${name}`
    for (const path of pathIn(s.paths, variant) ?? []) leaves.push({ name: at, path, schema: () => wireOf(c.spec, at), orNull: s.orNull })
  }
  for (const [name, r] of Object.entries(reads)) {
    for (const path of pathIn(r.paths, variant) ?? []) leaves.push({ name: `read ${name}`, path, schema: () => r.schema, orNull: false })
  }
  const root: Level = new Map()
  for (const l of leaves) {
    let level = root
    l.path.forEach((step, i) => {
      const last = i === l.path.length - 1
      const field = l.path.slice(0, i + 1).map((s) => s.key).join(".")
      let member = level.get(step.key)
      if (member === undefined) {
        member = { optional: step.optional, orNull: last && l.orNull }
        level.set(step.key, member)
      } else if (member.optional !== step.optional) {
        throw new Error(`${l.name}: field ${field} is optional for one column and required for another`)
      }
      if (last ? member.leaf !== undefined || member.nested !== undefined : member.leaf !== undefined) {
        throw new Error(`${l.name}: field ${field} is read by another column too`)
      }
      if (last) member.leaf = { schema: l.schema(), name: l.name }
      else level = member.nested ??= new Map()
    })
  }
  return root
}

const levelWire = (level: Level): { readonly schema: AnySchema } => {
  const fields: Record<string, Schema.Schema.All | Schema.PropertySignature.All> = {}
  for (const [key, m] of level) {
    const inner = m.leaf !== undefined ? m.leaf.schema : levelWire(m.nested!).schema
    const value = m.orNull ? Schema.NullOr(inner) : inner
    fields[key] = m.optional ? Schema.optional(value) : value
  }
  return { schema: Schema.Struct(fields) as unknown as AnySchema }
}

// — the projector: code written once per table, so each record costs what a hand-written mapping would —

/** What the generated code calls: struct projectors, defaults, the uint256 expansion. */
interface Helpers {
  readonly fns: Array<(v: unknown) => unknown>
  readonly defaults: unknown[]
  /** The shape of record the code reads. */
  readonly variant: string
}

const key = (k: string) => JSON.stringify(k)

/** `base["a"]?.["b"]` for a path under an object every step of which is decoded (absent: undefined). */
const access = (base: string, path: Path): string => path.map((s, i) => `${i === 0 ? "" : "?."}[${key(s.key)}]`).reduce((e, s) => `${e}${s}`, base)

/** The first of the alternatives the record holds: `a ?? b`; undefined when a shape has none. */
const accessAny = (base: string, paths: ReadonlyArray<Path> | undefined): string =>
  paths === undefined || paths.length === 0 ? "undefined" : paths.map((p) => access(base, p)).join(" ?? ")

const listOf = (v: unknown, f: (x: unknown) => unknown): unknown => {
  if (v === undefined || v === null) return null
  const a = v as ReadonlyArray<unknown>
  const out = new Array<unknown>(a.length)
  for (let i = 0; i < a.length; i++) out[i] = f(a[i])
  return out
}

const structOf = (v: unknown, f: (x: unknown) => unknown): unknown => (v === undefined || v === null ? null : f(v))

/** The expression of a read column's value over `base`, the decoded object its path starts from. */
const valueExpr = (spec: ColumnSpec, base: string, h: Helpers): string => {
  const s = spec.source
  if (s.tag !== "read") throw new Error("only read columns are projected")
  // a shape without the field: its default, or null
  const raw = `(${accessAny(base, pathIn(s.paths, h.variant))})`
  const shaped = s.wire !== undefined ? raw : shapeExpr(spec.shape, raw, h)
  if ("orElse" in s) {
    h.defaults.push(s.orElse)
    return `(${shaped} ?? D[${h.defaults.length - 1}])`
  }
  return `(${shaped} ?? null)`
}

/** A struct's or a list of structs' decoded value mapped to its columns; any other value as it is. */
const shapeExpr = (shape: Shape, raw: string, h: Helpers): string => {
  if (shape.tag === "struct") return `structOf(${raw}, F[${projectorOf(shape.fields, h)}])`
  if (shape.tag === "list" && shape.item.spec.shape.tag === "struct") return `listOf(${raw}, F[${projectorOf(shape.item.spec.shape.fields, h)}])`
  return raw
}

/** Statements writing the read columns of `entries` from `base` into `target`. */
const assignments = (entries: ReadonlyArray<readonly [string, AnyColumn]>, base: string, target: string, h: Helpers): ReadonlyArray<string> =>
  entries
    .filter(([, c]) => c.spec.source.tag === "read")
    .map(([name, c]) => (c.spec.shape.tag === "uint256" ? `u256(${target}, ${key(name)}, ${valueExpr(c.spec, base, h)})` : `${target}[${key(name)}] = ${valueExpr(c.spec, base, h)}`))

/** A function from a decoded struct to its columns' object (one object literal); its index in `fns`. */
const projectorOf = (fields: Columns, outer: Helpers): number => {
  // a struct's fields are read from its object, whatever the shape of the record around it
  const h: Helpers = { ...outer, variant: ALL }
  const at = h.fns.length
  h.fns.push(() => undefined)
  const entries = Object.entries(fields)
  const pair = entries.find(([, c]) => c.spec.shape.tag === "uint256")
  if (pair !== undefined) throw new Error(`column ${pair[0]}: a uint256 is two columns, which a struct field cannot be`)
  const body = entries.map(([name, c]) => `${key(name)}: ${valueExpr(c.spec, "v", h)}`).join(",\n    ")
  h.fns[at] = compile(`return (v) => ({\n    ${body}\n  })`, h) as (v: unknown) => unknown
  return at
}

const NONE: Record<string, unknown> = Object.freeze({})

const compile = (body: string, h: Helpers): unknown =>
  new Function("F", "D", "listOf", "structOf", "u256", "NONE", body)(h.fns, h.defaults, listOf, structOf, u256, NONE)

const u256 = (row: Record<string, unknown>, name: string, v: bigint | null): void => void Object.assign(row, uint256Values(name, v))

/** Decodes a record and writes its read columns into a row; returns the decoded `reads`. */
export type ColumnReader = (raw: unknown, row: Record<string, unknown>) => Record<string, unknown>

/** The shapes of record the paths name (ALL when there is one). */
export const variantsOf = (columns: Columns, reads: Reads): ReadonlyArray<string> => {
  const all = new Set<string>()
  for (const c of Object.values(columns)) if (c.spec.source.tag === "read") for (const v of Object.keys(c.spec.source.paths)) all.add(v)
  for (const r of Object.values(reads)) for (const v of Object.keys(r.paths)) all.add(v)
  all.delete(ALL)
  return all.size === 0 ? [ALL] : [...all]
}

/**
 * The reader of `columns` (those read from the record) and `reads` in one shape of record. Its
 * paths are checked now (a field read twice, optional for one column and required for another, a
 * type that cannot be read: an error at load); the decoder and the projector are built on the
 * first record. Undefined when that shape holds nothing to read.
 */
export const columnReader = (columns: Columns, reads: Reads = {}, variant: string = ALL): ColumnReader | undefined => {
  const entries = Object.entries(columns)
  const tree = treeOf(entries, reads, "", variant)
  if (tree.size === 0) return undefined
  let built: ColumnReader | undefined
  return (raw, row) => (built ??= buildReader(entries, reads, tree, variant))(raw, row)
}

const buildReader = (entries: ReadonlyArray<readonly [string, AnyColumn]>, reads: Reads, tree: Level, variant: string): ColumnReader => {
  const decode = decoder(levelWire(tree).schema)
  const h: Helpers = { fns: [], defaults: [], variant }
  const wire = Object.entries(reads).map(([name, r]) => `${key(name)}: ${accessAny("d", pathIn(r.paths, variant))}`)
  // no reads: no object per record
  const returned = wire.length === 0 ? "NONE" : `{${wire.join(", ")}}`
  const project = compile(`return (d, row) => {\n  ${assignments(entries, "d", "row", h).join("\n  ")}\n  return ${returned}\n}`, h) as (
    d: unknown,
    row: Record<string, unknown>
  ) => Record<string, unknown>
  return (raw, row) => project(decode(raw), row)
}

/**
 * The rows a child table cuts from a list of its parent's record: the list at `path` (absent, when
 * a step is optional: none), each item decoded by the child's columns read from it (paths relative
 * to the item) into a fresh row. A list that does not decode is the record's reject, its reason
 * naming the list and the item.
 */
export const itemsReader = (columns: Columns, path: string): ((raw: unknown) => Array<Record<string, unknown>>) => {
  const steps = parsePath(path)
  const entries = Object.entries(columns)
  const tree = treeOf(entries, {}, "", ALL)
  let built: ((items: unknown) => Array<Record<string, unknown>>) | undefined
  const build = () => {
    const decode = decoder(Schema.Array(levelWire(tree).schema))
    const h: Helpers = { fns: [], defaults: [], variant: ALL }
    const one = compile(`return (v) => {\n  const o = {}\n  ${assignments(entries, "v", "o", h).join("\n  ")}\n  return o\n}`, h) as (v: unknown) => Record<string, unknown>
    return (items: unknown) => {
      let decoded: ReadonlyArray<unknown>
      try {
        decoded = decode(items) as ReadonlyArray<unknown>
      } catch (e) {
        if (e instanceof RecordError) throw new RecordError(`${path}: ${e.reason}`)
        throw e
      }
      const out = new Array<Record<string, unknown>>(decoded.length)
      for (let i = 0; i < decoded.length; i++) out[i] = one(decoded[i])
      return out
    }
  }
  return (raw) => {
    let v: unknown = raw
    for (const step of steps) {
      const o = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[step.key] : undefined
      if (o === undefined) {
        if (step.optional) return []
        throw new RecordError(`${path}: ${step.key} is missing`)
      }
      v = o
    }
    return (built ??= build())(v)
  }
}
