/**
 * Writes rows of the chainetl row model (schemas/common.ts) into a DuckDB data chunk, column by
 * column, straight into the chunk's vectors: numbers into their typed memory, strings inline (the
 * short ASCII ones), as entries into one text DuckDB is handed per vector (the long ASCII ones) or
 * by DuckDB's own assignment (the rest), lists and structs through their child
 * vectors. Each column's writer is compiled once per schema, so the per-value work is a type
 * check and a store. Writers refuse rather than coerce: a JS number in an int64 or decimal
 * column, a decimal beyond its precision, an unknown key (a mapper typo would otherwise write
 * NULLs).
 *
 * Values are stored little-endian, as DuckDB holds them on every platform it is built for here
 * (x64, arm64).
 *
 * Why not @duckdb/node-api's values (`setColumns` with a DuckDBListValue / DuckDBStructValue /
 * DuckDBDecimalValue per cell): it builds a value object per cell and per nested item, caches
 * them again per vector and walks them in JavaScript at flush, which on nested rows was much of
 * the main thread's time and garbage (docs/performance.md "Why the code is shaped so"); the
 * stores in encode/ are what it ends with anyway.
 */
import { quotedIdentifier, type DuckDBDataChunk, type DuckDBType } from "@duckdb/node-api"
import duckdb from "@duckdb/node-bindings"
import * as arrow from "../ArrowTypes.ts"
import type { Row } from "../../schemas/common.ts"
import { duckTypeOf } from "./DuckTypes.ts"
import { listSlot, structSlot } from "./encode/NestedSlots.ts"
import { boolSlot, dateSlot, decimalSlot, doubleSlot, int32Slot, int64Slot, timestampSlot } from "./encode/ScalarSlots.ts"
import { EncodeIssue, type Slot } from "./encode/Slot.ts"
import { binarySlot, stringSlot } from "./encode/TextSlots.ts"

export { EncodeIssue }

const slotOf = (f: arrow.Field, path: string): Slot => {
  const type = f.type
  if (arrow.DataType.isList(type)) return listSlot(path, f.nullable, slotOf(type.children[0]!, `${path}[]`))
  if (arrow.DataType.isStruct(type)) {
    return structSlot(
      path,
      f.nullable,
      type.children.map((c) => c.name),
      type.children.map((c) => slotOf(c, `${path}.${c.name}`))
    )
  }
  switch (type.typeId) {
    case arrow.Type.Utf8:
      return stringSlot(path, f.nullable)
    case arrow.Type.Binary:
      return binarySlot(path, f.nullable)
    case arrow.Type.Bool:
      return boolSlot(path, f.nullable)
    case arrow.Type.Int:
      return (type as arrow.Int).bitWidth === 64 ? int64Slot(path, f.nullable) : int32Slot(path, f.nullable)
    case arrow.Type.Float:
      return doubleSlot(path, f.nullable)
    case arrow.Type.Decimal:
      return decimalSlot(path, f.nullable, type as arrow.Decimal)
    case arrow.Type.Timestamp:
      return timestampSlot(path, f.nullable)
    case arrow.Type.Date:
      return dateSlot(path, f.nullable)
    default:
      throw new EncodeIssue(path, `Arrow type ${String(type)} is not supported`)
  }
}

/**
 * How a column travels from JavaScript into the Parquet file: the type of its column in the
 * writer's staging table, and the SQL that turns that column into the file's type. The values
 * are written into the vectors in the file's own types (DECIMAL as its unscaled integer,
 * TIMESTAMPTZ as epoch-microseconds), so both are the file's: no cast in the COPY.
 */
export interface Wire {
  readonly type: DuckDBType
  /** The expression of the file's column over the staging column `column` (already quoted). */
  readonly select: (column: string) => string
}

export interface CompiledRows {
  /** The columns written, in order (the schema's fields minus the partition keys). */
  readonly fields: ReadonlyArray<arrow.Field>
  /** The keys rows may hold without their being written (the partition keys: the path carries them). */
  readonly omitted: ReadonlySet<string>
  /** Per field, how it travels (see Wire). */
  readonly wires: ReadonlyArray<Wire>
  /** The SELECT list that makes the staging table's columns the file's columns, in order. */
  readonly selectList: string
  /**
   * Fills `chunk` (its columns: the fields, then the INTEGER partition group) with rows
   * `[from, to)` (at most a chunk's 2,048), row r's group being `groupOf[r]`; throws EncodeIssue
   * with the row index in its message. The chunk must have been reset, or just created. Returns
   * the bytes the chunk holds: its vectors' values and the strings and lists they point to.
   */
  readonly fill: (chunk: DuckDBDataChunk, rows: ReadonlyArray<Row>, from: number, to: number, groupOf: Int32Array) => number
}

/**
 * Compiles the writer of a schema for the fields not in `omit` (partition keys, which the path
 * carries). Keys of `omit` are accepted in rows without being written.
 */
export const compileRows = (schema: arrow.Schema, omit: ReadonlySet<string>): CompiledRows => {
  const fields = schema.fields.filter((f) => !omit.has(f.name))
  const known = new Set(schema.fields.map((f) => f.name))
  const names = fields.map((f) => f.name)
  const slots = fields.map((f) => slotOf(f, f.name))
  const wires = fields.map((f): Wire => ({ type: duckTypeOf(f.type, f.name), select: (c) => c }))
  return {
    fields,
    omitted: omit,
    wires,
    selectList: fields.map((f) => quotedIdentifier(f.name)).join(", "),
    fill: (chunk, rows, from, to, groupOf) => {
      const n = to - from
      chunk.rowCount = n
      const raw = chunk.chunk
      for (let c = 0; c < slots.length; c++) slots[c]!.begin(duckdb.data_chunk_get_vector(raw, c), n)
      for (let r = from; r < to; r++) {
        const row = rows[r]!
        for (const key in row) {
          if (!known.has(key) && !omit.has(key)) throw new EncodeIssue(key, "is not a field of the schema", r)
        }
        for (let c = 0; c < slots.length; c++) slots[c]!.set(r - from, row[names[c]!], r)
      }
      let held = 4 * n
      for (const slot of slots) held += slot.end()
      const group = groupOf.subarray(from, to)
      duckdb.copy_data_to_vector(duckdb.data_chunk_get_vector(raw, slots.length), 0, group.buffer as ArrayBuffer, group.byteOffset, 4 * n)
      return held
    }
  }
}
