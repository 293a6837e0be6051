/**
 * Writes a small part's Parquet file in JavaScript, without DuckDB: a slice of one page and a row
 * or two is the common case of a daily or a backfill's small windows, and DuckDB's table, appender
 * and COPY were most of such a slice's CPU, whatever its rows (docs/performance.md "Cheap
 * slices"). Larger parts go through DuckDB (PartWriter.ts), which compresses them.
 *
 * - **The same file to every reader.** The schema is not written from our types but copied byte for
 *   byte from a file DuckDB wrote for the same table (ParquetTemplate.ts): so the catalog's views,
 *   compaction (which merges files only when their schema bytes are equal: ParquetConcat.ts) and
 *   DuckDB read these files as DuckDB's own. The column chunks are Parquet's simplest: one
 *   uncompressed v1 data page each, PLAIN values, RLE levels, min/max statistics
 *   (SmallParquetFile.ts).
 * - **The same values.** Each value is checked as RowEncoder's slots check it (a JS number in an
 *   int64 or decimal column, a decimal past its precision, a null in a non-nullable field, an
 *   unknown key), with the same EncodeIssue, so a row refused by one path is refused by the other.
 * - **Nested columns** are shredded into definition and repetition levels (the Dremel encoding) by
 *   walking the Arrow field and DuckDB's schema element together: DuckDB writes every field
 *   OPTIONAL and a list as `optional group (LIST) { repeated group list { optional element } }`.
 */
import * as arrow from "../ArrowTypes.ts"
import type { Row } from "../../schemas/common.ts"
import { type Column, Physical, fileOf, newColumn, noteStat } from "./SmallParquetFile.ts"
import { MAX_INT64, MIN_INT64, dayOf, decimalCheck, int64Check } from "./encode/ScalarSlots.ts"
import { EncodeIssue, describe, fail } from "./encode/Slot.ts"
import type { SchemaNode } from "./ParquetTemplate.ts"

const REQUIRED = 0
const REPEATED = 2

/** How a value of a field reaches its columns (the file's, by index). */
type Shred = (cols: ReadonlyArray<Column>, value: unknown, def: number, rep: number, row: number) => void

/** A leaf column's place in the schema, compiled once: each file makes its Column of it. */
interface LeafSpec {
  readonly pathBytes: ReadonlyArray<Uint8Array>
  readonly physical: number
  readonly maxDef: number
  readonly maxRep: number
}

const scratch = new DataView(new ArrayBuffer(16))
const bytesOf = (n: number): Uint8Array => new Uint8Array(scratch.buffer, 0, n)
const TRUE = Uint8Array.of(1)
const FALSE = Uint8Array.of(0)

/** The value's bytes as PLAIN writes them, and its place in the statistics: a check and a store per Arrow type. */
const leafWriter = (path: string, type: arrow.DataType, node: SchemaNode): ((column: Column, v: unknown, row: number) => void) => {
  const want = (expected: number, what: string) => {
    if (node.physical !== expected) throw new EncodeIssue(path, `DuckDB wrote ${what} as physical type ${node.physical}, expected ${expected}`)
  }
  const int32 = (column: Column, v: number) => {
    scratch.setInt32(0, v, true)
    column.values.raw(bytesOf(4))
    noteStat(column, v, bytesOf(4))
  }
  const int64 = (column: Column, v: bigint) => {
    scratch.setBigInt64(0, v, true)
    column.values.raw(bytesOf(8))
    noteStat(column, v, bytesOf(8))
  }
  const text = (column: Column, b: Uint8Array) => {
    scratch.setUint32(0, b.length, true)
    column.values.raw(bytesOf(4))
    column.values.raw(b)
    noteStat(column, b, b)
  }
  switch (type.typeId) {
    case arrow.Type.Bool:
      want(Physical.BOOLEAN, "a boolean")
      return (c, v, row) => {
        if (typeof v !== "boolean") return fail(path, v, "a boolean", row)
        c.bools.push(v)
        noteStat(c, v ? 1 : 0, v ? TRUE : FALSE)
      }
    case arrow.Type.Int:
      if ((type as arrow.Int).bitWidth === 64) {
        want(Physical.INT64, "an int64")
        const check = int64Check(path)
        return (c, v, row) => int64(c, check(v, row))
      }
      want(Physical.INT32, "an int32")
      return (c, v, row) => (typeof v !== "number" || (v | 0) !== v ? fail(path, v, "an integer number within int32", row) : int32(c, v))
    case arrow.Type.Float:
      want(Physical.DOUBLE, "a double")
      return (c, v, row) => {
        if (typeof v !== "number") return fail(path, v, "a number", row)
        scratch.setFloat64(0, v, true)
        c.values.raw(bytesOf(8))
      }
    case arrow.Type.Utf8:
      want(Physical.BYTE_ARRAY, "a string")
      return (c, v, row) => (typeof v !== "string" ? fail(path, v, "a string", row) : text(c, Buffer.from(v, "utf8")))
    case arrow.Type.Binary:
      want(Physical.BYTE_ARRAY, "a blob")
      return (c, v, row) => (!(v instanceof Uint8Array) ? fail(path, v, "a Uint8Array", row) : text(c, v))
    case arrow.Type.Timestamp:
      want(Physical.INT64, "a timestamp")
      return (c, v, row) => {
        if (v instanceof Date) {
          const ms = v.getTime()
          return Number.isNaN(ms) ? fail(path, v, "a valid Date", row) : int64(c, BigInt(ms) * 1000n)
        }
        return typeof v !== "bigint" || v > MAX_INT64 || v < MIN_INT64 ? fail(path, v, "a Date or bigint epoch-microseconds", row) : int64(c, v)
      }
    case arrow.Type.Date:
      want(Physical.INT32, "a date")
      return (c, v, row) => int32(c, dayOf(path, v, row))
    case arrow.Type.Decimal: {
      const check = decimalCheck(path, type as arrow.Decimal)
      if (node.physical === Physical.FIXED_LEN_BYTE_ARRAY) {
        const width = node.typeLength ?? 0
        if (width < 1 || width > 16) throw new EncodeIssue(path, `DuckDB wrote a decimal of ${width} bytes`)
        return (c, v, row) => {
          // big-endian two's complement, as wide as the schema says
          const value = check(v, row)
          let u = BigInt.asUintN(8 * width, value)
          const b = new Uint8Array(width)
          for (let i = width - 1; i >= 0; i--, u >>= 8n) b[i] = Number(u & 0xffn)
          c.values.raw(b)
          noteStat(c, value, b)
        }
      }
      if (node.physical === Physical.INT64) return (c, v, row) => int64(c, check(v, row))
      want(Physical.INT32, "a decimal")
      return (c, v, row) => int32(c, Number(check(v, row)))
    }
    default:
      throw new EncodeIssue(path, `Arrow type ${String(type)} is not supported`)
  }
}

/**
 * The shredder of `field` over its schema element `node`, whose parent reached definition level
 * `def` and repetition level `rep` at most; its leaf columns are appended to `leaves` in schema
 * order, and a file's columns are found by their index there.
 */
const compileField = (
  field: arrow.Field,
  node: SchemaNode,
  path: string,
  names: ReadonlyArray<string>,
  def: number,
  rep: number,
  leaves: LeafSpec[],
  named = true
): Shred => {
  if (named && node.name !== field.name) throw new EncodeIssue(path, `DuckDB's schema names ${node.name} here`)
  const optional = node.repetition !== REQUIRED
  const here = optional ? def + 1 : def
  const first = leaves.length
  const inner = compileInner(field, node, path, names, here, rep, leaves)
  const last = leaves.length
  const nulls = (cols: ReadonlyArray<Column>, d: number, r: number) => {
    for (let i = first; i < last; i++) {
      cols[i]!.defs.push(d)
      cols[i]!.reps.push(r)
    }
  }
  return (cols, value, d, r, row) => {
    if (value === null || value === undefined) {
      if (!field.nullable) throw new EncodeIssue(path, "is null but the field is not nullable", row)
      if (!optional) throw new EncodeIssue(path, "is null but DuckDB wrote the field REQUIRED")
      return nulls(cols, d, r)
    }
    inner(cols, value, optional ? d + 1 : d, r, row, nulls)
  }
}

type Inner = (
  cols: ReadonlyArray<Column>,
  value: unknown,
  def: number,
  rep: number,
  row: number,
  nulls: (cols: ReadonlyArray<Column>, def: number, rep: number) => void
) => void

const compileInner = (field: arrow.Field, node: SchemaNode, path: string, names: ReadonlyArray<string>, def: number, rep: number, leaves: LeafSpec[]): Inner => {
  const type = field.type
  if (arrow.DataType.isList(type)) {
    const list = node.children[0]
    const element = list?.children[0]
    if (node.children.length !== 1 || list === undefined || list.repetition !== REPEATED || list.children.length !== 1 || element === undefined) {
      throw new EncodeIssue(path, "DuckDB's schema holds no repeated group for this list")
    }
    const itemRep = rep + 1
    const item = compileField(type.children[0]!, element, `${path}[]`, [...names, node.name, list.name], def + 1, itemRep, leaves, false)
    return (cols, value, d, r, row, nulls) => {
      if (!Array.isArray(value)) throw new EncodeIssue(path, `expected an array, got ${describe(value)}`, row)
      if (value.length === 0) return nulls(cols, d, r)
      for (let k = 0; k < value.length; k++) item(cols, value[k], d + 1, k === 0 ? r : itemRep, row)
    }
  }
  if (arrow.DataType.isStruct(type)) {
    const fields = type.children
    if (node.children.length !== fields.length) throw new EncodeIssue(path, `DuckDB's schema holds ${node.children.length} fields, the struct ${fields.length}`)
    const known = new Set(fields.map((f) => f.name))
    const shreds = fields.map((f, k) => compileField(f, node.children[k]!, `${path}.${f.name}`, [...names, node.name], def, rep, leaves))
    return (cols, value, d, r, row) => {
      if (typeof value !== "object" || Array.isArray(value)) throw new EncodeIssue(path, `expected an object, got ${describe(value)}`, row)
      const record = value as Record<string, unknown>
      for (const key in record) if (!known.has(key)) throw new EncodeIssue(`${path}.${key}`, "is not a field of the schema", row)
      for (let k = 0; k < fields.length; k++) shreds[k]!(cols, record[fields[k]!.name], d, r, row)
    }
  }
  if (node.physical === undefined) throw new EncodeIssue(path, "DuckDB's schema holds a group where a value belongs")
  const index = leaves.length
  leaves.push({ pathBytes: [...names, node.name].map((n) => Buffer.from(n, "utf8")), physical: node.physical, maxDef: def, maxRep: rep })
  const store = leafWriter(path, type, node)
  return (cols, value, d, r, row) => {
    const column = cols[index]!
    store(column, value, row)
    column.defs.push(d)
    column.reps.push(r)
  }
}

/** One file being filled, row by row: its values are checked and shredded as they come. */
export interface SmallFile {
  /** Adds a row (`index` names it in errors); a row refused may leave the file half-filled: drop it. */
  readonly add: (row: Row, index: number) => void
  readonly bytes: () => Uint8Array
}

/** The compiled writer of a table's rows: the fields (partition keys left out) over DuckDB's schema of them. */
export interface SmallParquetWriter {
  readonly open: () => SmallFile
  /** One file of `rows` (all of them, or those at `indices`); throws EncodeIssue for a value its column refuses. */
  readonly write: (rows: ReadonlyArray<Row>, indices?: ReadonlyArray<number>) => Uint8Array
}

export const smallParquetWriter = (fields: ReadonlyArray<arrow.Field>, root: SchemaNode, schemaBytes: Uint8Array, omit: ReadonlySet<string>): SmallParquetWriter => {
  if (root.children.length !== fields.length) throw new EncodeIssue("(schema)", `DuckDB's schema holds ${root.children.length} columns, the table ${fields.length}`)
  const known = new Set([...fields.map((f) => f.name), ...omit])
  const leaves: LeafSpec[] = []
  const shreds = fields.map((f, k) => compileField(f, root.children[k]!, f.name, [], 0, 0, leaves))
  const open = (): SmallFile => {
    const columns = leaves.map((l) => newColumn(l.pathBytes, l.physical, l.maxDef, l.maxRep))
    let count = 0
    return {
      add: (row, index) => {
        for (const key in row) if (!known.has(key)) throw new EncodeIssue(key, "is not a field of the schema", index)
        for (let k = 0; k < fields.length; k++) shreds[k]!(columns, row[fields[k]!.name], 0, 0, index)
        count++
      },
      bytes: () => fileOf(columns, count, schemaBytes)
    }
  }
  return {
    open,
    write: (rows, indices) => {
      const file = open()
      const count = indices?.length ?? rows.length
      for (let i = 0; i < count; i++) {
        const r = indices === undefined ? i : indices[i]!
        file.add(rows[r]!, r)
      }
      return file.bytes()
    }
  }
}
