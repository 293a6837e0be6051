/**
 * The decoder of the columns a schema declares `from` a record field (schemas/common.ts, "Wire"):
 * one declaration per column gives its Arrow type, its catalog comment and how it is read, so a
 * pipeline's `toRow` no longer restates every field as a wire schema and again as a row key.
 *
 * The wire type follows the column's type, with the spellings the services use: a decimal string
 * for DECIMAL (amounts, heights: never a JS number), an integer or the lossless parser's bigint for
 * BIGINT, Unix seconds for TIMESTAMPTZ; a column whose service spells it the other way says so
 * (`wire: "integer"`: a P-chain block's accrued L1 fees are a JSON integer, its supply a string;
 * `wire: "decimal-string-or-integer"`: the node's uint64s, a string unless small). Ranges are not checked here: ColumnRange checks every row
 * against its columns, naming the column. The struct is decoded by `decoder`, so the compiled fast
 * path, Effect's reject reasons and the unknown-field count are the same as for a hand-written one.
 */
import * as arrow from "../ArrowTypes.ts"
import { Schema } from "effect"
import { FROM_KEY, OPTIONAL_KEY, WIRE_KEY } from "../../schemas/common.ts"
import { DecimalString, DecimalStringOrInteger, IntegerLike, NumberLike, UnixSeconds, decoder } from "./Decode.ts"

type AnySchema = Schema.Schema<any, any, never>

const wireType = (type: arrow.DataType, column: string, spelling: string | undefined): AnySchema => {
  if (spelling !== undefined) {
    const numeric = arrow.DataType.isDecimal(type) || (arrow.DataType.isInt(type) && type.bitWidth === 64)
    if (!numeric) throw new Error(`column ${column}: \`wire\` applies to amount and int64 columns, not ${type}`)
    if (spelling === "integer") return IntegerLike
    if (spelling === "decimal-string") return DecimalString
    if (spelling === "decimal-string-or-integer") return DecimalStringOrInteger
    throw new Error(`column ${column}: wire "${spelling}" is none of "decimal-string", "integer", "decimal-string-or-integer"`)
  }
  if (arrow.DataType.isDecimal(type)) return DecimalString
  if (arrow.DataType.isTimestamp(type)) return UnixSeconds
  if (arrow.DataType.isUtf8(type)) return Schema.String
  if (arrow.DataType.isBool(type)) return Schema.Boolean
  if (arrow.DataType.isFloat(type)) return NumberLike
  if (arrow.DataType.isInt(type)) return type.bitWidth === 64 ? IntegerLike : Schema.Number.pipe(Schema.int())
  if (arrow.DataType.isList(type)) return Schema.Array(wireType(type.children[0]!.type, column, undefined))
  // a struct, binary or uint256 pair is shaped by code: its pipeline maps it in toRow
  throw new Error(`column ${column}: a ${type} column cannot be read with \`from\`; map it in toRow`)
}

interface WireColumn {
  readonly name: string
  readonly path: ReadonlyArray<string>
  readonly optional: boolean
  readonly type: AnySchema
}

/** Members of one object level: a column's field, or a nested object holding more of them. */
type Level = Map<string, { column?: WireColumn; nested?: Level }>

const structOf = (level: Level): { readonly schema: AnySchema; readonly optional: boolean } => {
  const fields: Record<string, Schema.Schema.All | Schema.PropertySignature.All> = {}
  let allOptional = true
  for (const [key, member] of level) {
    const { schema, optional } = member.column !== undefined ? { schema: member.column.type, optional: member.column.optional } : structOf(member.nested!)
    fields[key] = optional ? Schema.optional(schema) : schema
    allOptional &&= optional
  }
  return { schema: Schema.Struct(fields) as unknown as AnySchema, optional: allOptional }
}

const columnsOf = (schema: arrow.Schema): ReadonlyArray<WireColumn> =>
  schema.fields.flatMap((f) => {
    const from = f.metadata.get(FROM_KEY)
    if (from === undefined) return []
    return [{ name: f.name, path: from.split("."), optional: f.metadata.get(OPTIONAL_KEY) === "true", type: wireType(f.type, f.name, f.metadata.get(WIRE_KEY)) }]
  })

/**
 * The function from a record to the row values of its `from` columns (absent optional fields are
 * null), written into `row` (the slice keys a pipeline sets first) and returned; a record that does
 * not decode throws RecordError with Effect's reason, as `decoder`. Built once per dataset: it
 * throws at load on a `from` path given twice or a column type it cannot read.
 */
export const wireDecoder = (schema: arrow.Schema): ((raw: unknown, row?: Record<string, unknown>) => Record<string, unknown>) => {
  const columns = columnsOf(schema)
  const root: Level = new Map()
  for (const c of columns) {
    let level = root
    c.path.forEach((key, i) => {
      const last = i === c.path.length - 1
      const member = level.get(key) ?? {}
      if (last ? member.column !== undefined || member.nested !== undefined : member.column !== undefined) {
        throw new Error(`column ${c.name}: field ${c.path.slice(0, i + 1).join(".")} is read by another column too`)
      }
      if (last) member.column = c
      else member.nested ??= new Map()
      level.set(key, member)
      if (!last) level = member.nested!
    })
  }
  // the struct is built with the decoder, on the first record (Decode.ts): the checks above stay at load
  let decode: ((raw: unknown) => unknown) | undefined
  // this runs per record: indexed arrays, not an iterator of pairs, and a top-level field (the
  // usual column) read in place, not through a closure
  const names = columns.map((c) => c.name)
  const firsts = columns.map((c) => c.path[0]!)
  const rests = columns.map((c) => (c.path.length > 1 ? c.path.slice(1) : undefined))
  return (raw, row = {}) => {
    const decoded = (decode ??= decoder(structOf(root).schema))(raw) as Record<string, unknown>
    for (let k = 0; k < names.length; k++) {
      let v = decoded[firsts[k]!]
      const rest = rests[k]
      if (rest !== undefined) for (const key of rest) v = v === undefined || v === null ? undefined : (v as Record<string, unknown>)[key]
      row[names[k]!] = v ?? null
    }
    return row
  }
}
