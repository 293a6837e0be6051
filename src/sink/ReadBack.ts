/**
 * Canonical forms for comparing what was written with what DuckDB reads back, value for value:
 * the JS converters of @duckdb/node-api turn DECIMAL into a double, which would hide exactly the
 * losses a round-trip check exists to catch. Canonical values: integers and decimals bigint (the
 * scaled integer), timestamps bigint epoch-µs, dates "YYYY-MM-DD", blobs Uint8Array, nested values
 * as arrays and plain objects.
 */
import {
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBValue
} from "@duckdb/node-api"
import * as arrow from "../ArrowTypes.ts"
import type { Row } from "../../schemas/common.ts"

const MS_PER_DAY = 86_400_000

const dayText = (days: number): string => new Date(days * MS_PER_DAY).toISOString().slice(0, 10)

/** A value read from DuckDB, in canonical form. */
export const canonicalFromDuck = (value: DuckDBValue): unknown => {
  if (value instanceof DuckDBDecimalValue) return value.value
  if (value instanceof DuckDBTimestampTZValue || value instanceof DuckDBTimestampValue) return value.micros
  if (value instanceof DuckDBDateValue) return dayText(value.days)
  if (value instanceof DuckDBBlobValue) return new Uint8Array(value.bytes)
  if (value instanceof DuckDBListValue) return value.items.map(canonicalFromDuck)
  if (value instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, canonicalFromDuck(v)]))
  }
  return value
}

const canonicalValue = (type: arrow.DataType, value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (arrow.DataType.isTimestamp(type)) return value instanceof Date ? BigInt(value.getTime()) * 1000n : value
  if (arrow.DataType.isDate(type)) return value instanceof Date ? value.toISOString().slice(0, 10) : value
  if (arrow.DataType.isInt(type) && type.bitWidth === 64) return value
  if (arrow.DataType.isBinary(type)) return new Uint8Array(value as Uint8Array)
  if (arrow.DataType.isList(type)) return (value as unknown[]).map((v) => canonicalValue(type.children[0]!.type, v))
  if (arrow.DataType.isStruct(type)) return canonicalFields(type.children, value as Row)
  return value
}

const canonicalFields = (fields: ReadonlyArray<arrow.Field>, row: Row): Record<string, unknown> =>
  Object.fromEntries(fields.map((f) => [f.name, canonicalValue(f.type, row[f.name])]))

/** A row as written, in canonical form, limited to `fields` (missing keys become null). */
export const canonicalRow = (fields: ReadonlyArray<arrow.Field>, row: Row): Record<string, unknown> =>
  canonicalFields(fields, row)
