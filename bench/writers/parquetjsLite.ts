/**
 * parquetjs-lite, the writer of the original design card. It has no DECIMAL (amounts go out as
 * UTF8 strings, the only lossless spelling it has), no ZSTD (SNAPPY here), and writes INT64
 * through parseInt, which the lossless check catches.
 */
import * as arrow from "apache-arrow"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { createRequire } from "node:module"
import type { Row } from "../../schemas/common.ts"
import type { Writer } from "./types.ts"

interface LiteField {
  type?: string
  optional?: boolean
  repeated?: boolean
  fields?: Record<string, LiteField>
  compression?: string
}

interface LiteWriter {
  appendRow(row: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}

const parquet = createRequire(import.meta.url)("parquetjs-lite") as {
  ParquetSchema: new (fields: Record<string, LiteField>) => unknown
  ParquetWriter: { openFile(schema: unknown, file: string): Promise<LiteWriter> }
}

const COMPRESSION = "SNAPPY"

const scalarType = (type: arrow.DataType): string => {
  if (arrow.DataType.isUtf8(type) || arrow.DataType.isDecimal(type)) return "UTF8"
  if (arrow.DataType.isInt(type)) return type.bitWidth === 64 ? "INT64" : "INT32"
  if (arrow.DataType.isFloat(type)) return "DOUBLE"
  if (arrow.DataType.isBool(type)) return "BOOLEAN"
  if (arrow.DataType.isTimestamp(type)) return "TIMESTAMP_MICROS"
  throw new Error(`parquetjs-lite bench: no mapping for ${String(type)}`)
}

const liteField = (f: arrow.Field): LiteField => {
  if (arrow.DataType.isList(f.type)) {
    const child = f.type.children[0]!
    return { ...liteField(child), optional: false, repeated: true }
  }
  if (arrow.DataType.isStruct(f.type)) {
    return { optional: f.nullable, fields: Object.fromEntries(f.type.children.map((c) => [c.name, liteField(c)])) }
  }
  return { type: scalarType(f.type), optional: f.nullable, compression: COMPRESSION }
}

const liteValue = (type: arrow.DataType, value: unknown): unknown => {
  if (value === null || value === undefined) return undefined
  if (arrow.DataType.isDecimal(type)) return (value as bigint).toString()
  if (arrow.DataType.isList(type)) return (value as unknown[]).map((v) => liteValue(type.children[0]!.type, v))
  if (arrow.DataType.isStruct(type)) return liteRow(type.children, value as Row)
  return value
}

const liteRow = (fields: ReadonlyArray<arrow.Field>, row: Row): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const v = liteValue(f.type, row[f.name])
    if (v !== undefined) out[f.name] = v
  }
  return out
}

export const parquetjsLite: Writer = {
  name: "parquetjs-lite (SNAPPY)",
  write: async (schema, rows, dir) => {
    await fs.mkdir(dir, { recursive: true })
    const file = path.join(dir, "part.parquet")
    const liteSchema = new parquet.ParquetSchema(Object.fromEntries(schema.fields.map((f) => [f.name, liteField(f)])))
    const writer = await parquet.ParquetWriter.openFile(liteSchema, file)
    for (const row of rows) await writer.appendRow(liteRow(schema.fields, row))
    await writer.close()
    return [file]
  }
}
