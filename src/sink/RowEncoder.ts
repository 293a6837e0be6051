/**
 * Turns rows of the chainetl row model (schemas/common.ts) into DuckDB values, column by column.
 * Each field's encoder is compiled once per schema so the per-value work is a type check and a
 * constructor call. Encoders refuse rather than coerce: a JS number in an int64 or decimal column,
 * a decimal beyond its precision, an unknown key (a mapper typo would otherwise write NULLs).
 */
import {
  DOUBLE,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListType,
  DuckDBListValue,
  DuckDBStructType,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  type DuckDBType,
  type DuckDBValue,
  HUGEINT,
  quotedIdentifier
} from "@duckdb/node-api"
import * as arrow from "apache-arrow"
import type { Row } from "../../schemas/common.ts"
import { duckTypeOf } from "./DuckTypes.ts"

/** A value that does not fit its column; `column` is a dotted path such as `outputs[].amount`. */
export class EncodeIssue extends Error {
  constructor(
    readonly column: string,
    readonly detail: string,
    readonly row?: number
  ) {
    super(`${row === undefined ? "" : `row ${row}, `}column ${column}: ${detail}`)
  }
}

type Encoder = (value: unknown) => DuckDBValue

const MS_PER_DAY = 86_400_000
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/

const describe = (value: unknown): string => {
  if (typeof value === "bigint") return `${value}n`
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? "Invalid" : value.toISOString()})`
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
  if (Array.isArray(value)) return "an array"
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`
}

const scalar = (path: string, type: arrow.DataType): Encoder => {
  const fail = (value: unknown, want: string): never => {
    throw new EncodeIssue(path, `expected ${want}, got ${describe(value)}`)
  }
  switch (type.typeId) {
    case arrow.Type.Utf8:
      return (v) => (typeof v === "string" ? v : fail(v, "a string"))
    case arrow.Type.Bool:
      return (v) => (typeof v === "boolean" ? v : fail(v, "a boolean"))
    case arrow.Type.Binary:
      return (v) => (v instanceof Uint8Array ? new DuckDBBlobValue(v) : fail(v, "a Uint8Array"))
    case arrow.Type.Int:
      if ((type as arrow.Int).bitWidth === 64) {
        return (v) => (typeof v === "bigint" && BigInt.asIntN(64, v) === v ? v : fail(v, "a bigint within int64"))
      }
      return (v) => (typeof v === "number" && (v | 0) === v ? v : fail(v, "an integer number within int32"))
    case arrow.Type.Float:
      return (v) => (typeof v === "number" ? v : fail(v, "a number"))
    case arrow.Type.Decimal: {
      const { precision, scale } = type as arrow.Decimal
      const max = 10n ** BigInt(precision) - 1n
      const want = `a bigint with at most ${precision} digits${scale === 0 ? "" : ` (scaled by 10^${scale})`}`
      // scale 0 travels as HUGEINT, the bigint as it is (see Wire)
      if (scale === 0) return (v) => (typeof v === "bigint" && v <= max && v >= -max ? v : fail(v, want))
      return (v) =>
        typeof v === "bigint" && v <= max && v >= -max ? new DuckDBDecimalValue(v, precision, scale) : fail(v, want)
    }
    case arrow.Type.Timestamp:
      return (v) => {
        if (v instanceof Date) {
          const ms = v.getTime()
          return Number.isNaN(ms) ? fail(v, "a valid Date") : new DuckDBTimestampTZValue(BigInt(ms) * 1000n)
        }
        return typeof v === "bigint" && BigInt.asIntN(64, v) === v
          ? new DuckDBTimestampTZValue(v)
          : fail(v, "a Date or bigint epoch-microseconds")
      }
    case arrow.Type.Date:
      return (v) => {
        if (v instanceof Date) {
          const ms = v.getTime()
          return Number.isNaN(ms) ? fail(v, "a valid Date") : new DuckDBDateValue(Math.floor(ms / MS_PER_DAY))
        }
        const m = typeof v === "string" ? DATE_TEXT.exec(v) : null
        if (m === null) return fail(v, 'a Date or "YYYY-MM-DD"')
        const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
        // Date.UTC rolls 2024-02-30 over to March; a round trip catches it
        return new Date(ms).toISOString().slice(0, 10) === v
          ? new DuckDBDateValue(ms / MS_PER_DAY)
          : fail(v, "an existing calendar day")
      }
    default:
      throw new EncodeIssue(path, `Arrow type ${String(type)} is not supported`)
  }
}

const nullable = (path: string, isNullable: boolean, inner: Encoder): Encoder => (v) => {
  if (v === null || v === undefined) {
    if (isNullable) return null
    throw new EncodeIssue(path, "is null but the field is not nullable")
  }
  return inner(v)
}

const encoderOf = (f: arrow.Field, path: string): Encoder => nullable(path, f.nullable, valueEncoder(f.type, path))

const valueEncoder = (type: arrow.DataType, path: string): Encoder => {
  if (arrow.DataType.isList(type)) {
    const item = encoderOf(type.children[0]!, `${path}[]`)
    return (v) => {
      if (!Array.isArray(v)) throw new EncodeIssue(path, `expected an array, got ${describe(v)}`)
      return new DuckDBListValue(v.map(item))
    }
  }
  if (arrow.DataType.isStruct(type)) return objectEncoder(type.children, `${path}.`, path)
  return scalar(path, type)
}

/** Encodes a plain object with exactly these fields (missing keys are null) into a STRUCT value. */
const objectEncoder = (fields: ReadonlyArray<arrow.Field>, prefix: string, path: string): Encoder => {
  const names = fields.map((f) => f.name)
  const known = new Set(names)
  const encoders = fields.map((f) => encoderOf(f, `${prefix}${f.name}`))
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new EncodeIssue(path, `expected an object, got ${describe(v)}`)
    }
    const record = v as Record<string, unknown>
    for (const key in record) {
      if (!known.has(key)) throw new EncodeIssue(`${prefix}${key}`, "is not a field of the schema")
    }
    const entries: Record<string, DuckDBValue> = {}
    for (let i = 0; i < names.length; i++) entries[names[i]!] = encoders[i]!(record[names[i]!])
    return new DuckDBStructValue(entries)
  }
}

/**
 * How a column travels from JavaScript into the Parquet file: the type of its column in the
 * writer's staging table, and the SQL that turns that column into the file's type. DECIMAL(p,0)
 * values travel as HUGEINT (a bigint as it is), at any depth, and top-level TIMESTAMPTZ columns
 * as DOUBLE epoch-microseconds (a JS number as it is), so the appender needs no value object per cell
 * (measured: ~20 % of the writer's CPU on EVM blocks); DuckDB's casts make them exact types again.
 */
export interface Wire {
  readonly type: DuckDBType
  /** The expression of the file's column over the staging column `column` (already quoted). */
  readonly select: (column: string) => string
}

/** 2^53 µs is the year 2255: a timestamp past it is no timestamp of a chain. */
const MAX_EXACT_MICROS = 2n ** 53n

const micros = (path: string): Encoder => (v) => {
  if (v instanceof Date) {
    const ms = v.getTime()
    if (Number.isNaN(ms)) throw new EncodeIssue(path, `expected a valid Date, got ${describe(v)}`)
    return ms * 1000
  }
  if (typeof v === "bigint" && v <= MAX_EXACT_MICROS && v >= -MAX_EXACT_MICROS) return Number(v)
  throw new EncodeIssue(path, `expected a Date or bigint epoch-microseconds within ±2^53, got ${describe(v)}`)
}

/** The staging table's type of an Arrow type: DECIMAL(p,0) as HUGEINT, at any depth. */
const wireTypeOf = (type: arrow.DataType, where: string): DuckDBType => {
  if (type.typeId === arrow.Type.Decimal && (type as arrow.Decimal).scale === 0) {
    duckTypeOf(type, where)
    return HUGEINT
  }
  if (arrow.DataType.isList(type)) return new DuckDBListType(wireTypeOf(type.children[0]!.type, `${where}[]`))
  if (arrow.DataType.isStruct(type)) {
    return new DuckDBStructType(
      type.children.map((c) => c.name),
      type.children.map((c) => wireTypeOf(c.type, `${where}.${c.name}`))
    )
  }
  return duckTypeOf(type, where)
}

/** A top-level column's wire and encoder (see Wire). */
const wireOf = (f: arrow.Field): { readonly wire: Wire; readonly encode: Encoder } => {
  const type = f.type
  if (type.typeId === arrow.Type.Timestamp) {
    // the file's type is checked as for any column (UTC microseconds only)
    duckTypeOf(type, f.name)
    return { wire: { type: DOUBLE, select: (c) => `make_timestamptz(CAST(${c} AS BIGINT))` }, encode: nullable(f.name, f.nullable, micros(f.name)) }
  }
  const wire = wireTypeOf(type, f.name)
  const file = duckTypeOf(type, f.name).toString()
  // a struct cast matches fields by name, a list cast element by element: the values stay exact
  const select = wire.toString() === file ? (c: string) => c : (c: string) => `CAST(${c} AS ${file})`
  return { wire: { type: wire, select }, encode: encoderOf(f, f.name) }
}

export interface CompiledRows {
  /** The columns written, in order (the schema's fields minus the partition keys). */
  readonly fields: ReadonlyArray<arrow.Field>
  /** Per field, how it travels (see Wire). */
  readonly wires: ReadonlyArray<Wire>
  /** The SELECT list that makes the staging table's columns the file's columns, in order. */
  readonly selectList: string
  /**
   * Fills `columns` (one array per written field) with rows `[from, to)`; throws EncodeIssue
   * with the row index in its message.
   */
  readonly encode: (rows: ReadonlyArray<Row>, from: number, to: number, columns: DuckDBValue[][]) => void
}

/**
 * Compiles the encoder of a schema for the fields not in `omit` (partition keys, which the path
 * carries). Keys of `omit` are accepted in rows without being written.
 */
export const compileRows = (schema: arrow.Schema, omit: ReadonlySet<string>): CompiledRows => {
  const fields = schema.fields.filter((f) => !omit.has(f.name))
  const known = new Set(schema.fields.map((f) => f.name))
  const names = fields.map((f) => f.name)
  const wired = fields.map(wireOf)
  const encoders = wired.map((w) => w.encode)
  const wires = wired.map((w) => w.wire)
  return {
    fields,
    wires,
    selectList: fields.map((f, i) => `${wires[i]!.select(quotedIdentifier(f.name))} AS ${quotedIdentifier(f.name)}`).join(", "),
    encode: (rows, from, to, columns) => {
      for (let r = from; r < to; r++) {
        const row = rows[r]!
        try {
          for (const key in row) {
            if (!known.has(key) && !omit.has(key)) throw new EncodeIssue(key, "is not a field of the schema")
          }
          for (let c = 0; c < names.length; c++) columns[c]![r - from] = encoders[c]!(row[names[c]!])
        } catch (e) {
          if (e instanceof EncodeIssue) throw new EncodeIssue(e.column, e.detail, r)
          throw e
        }
      }
    }
  }
}
