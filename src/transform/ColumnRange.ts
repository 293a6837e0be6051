/**
 * Every row against its columns' ranges before it is kept, so a value a column cannot hold makes
 * its record a reject at once instead of failing the whole part (and slice) when it is written.
 * The ranges come from the schema alone (schemas/common.ts, "Ranges"): `amount` is DECIMAL(38,0),
 * unsigned unless declared signed, and so on, so no pipeline declares them again. This is the
 * place because a decoder does not know its column: the same decimal string decoder feeds a
 * DECIMAL(38,0) amount and an exact-text uint256.
 *
 * Compiled once per schema into plain functions that visit only the columns with a range; a
 * valid row costs a type test and two comparisons per such value and allocates nothing. Values
 * of the wrong JS type are not judged here: that is a mapper's bug, and the writer refuses it.
 */
import * as arrow from "../ArrowTypes.ts"
import { FIRST_INSTANT_MS, isSigned, LAST_INSTANT_MS, OutOfRange } from "../../schemas/common.ts"

/** What is wrong, and where below the value checked (filled in on the way out, on failure only). */
interface Miss {
  readonly detail: string
  readonly path: Array<string | number>
}

/** Checks a value that is not null; undefined when it is in range. */
type Check = (value: unknown) => Miss | undefined

const miss = (detail: string): Miss => ({ detail, path: [] })

const FIRST_MICROS = BigInt(FIRST_INSTANT_MS) * 1000n
const LAST_MICROS = BigInt(LAST_INSTANT_MS) * 1000n
const FIRST_DAY = new Date(FIRST_INSTANT_MS).toISOString().slice(0, 10)
const LAST_DAY = new Date(LAST_INSTANT_MS).toISOString().slice(0, 10)
const INSTANTS = `${FIRST_DAY} to ${LAST_DAY} (UTC)`

const digits = (v: bigint): number => (v < 0n ? -v : v).toString().length

const decimalCheck = (type: arrow.Decimal, signed: boolean): Check => {
  const { precision, scale } = type
  const max = 10n ** BigInt(precision) - 1n
  const min = signed ? -max : 0n
  const sql = `DECIMAL(${precision},${scale})`
  return (v) => {
    if (typeof v !== "bigint" || (v >= min && v <= max)) return undefined
    if (v < 0n && !signed) return miss(`${v} is negative; the column holds no negative values`)
    return miss(`${digits(v)} digits, more than the ${precision} of ${sql}`)
  }
}

const intCheck = (type: arrow.Int, signed: boolean): Check => {
  const sql = type.bitWidth === 64 ? "BIGINT" : "INTEGER"
  if (type.bitWidth === 64) {
    const max = 2n ** 63n - 1n
    const min = signed ? -max - 1n : 0n
    return (v) => {
      if (typeof v !== "bigint" || (v >= min && v <= max)) return undefined
      return v < 0n && !signed ? miss(`${v} is negative; the column holds no negative values`) : miss(`${v} is outside ${sql} (${min} to ${max})`)
    }
  }
  const max = 2 ** 31 - 1
  const min = signed ? -max - 1 : 0
  return (v) => {
    if (typeof v !== "number" || (Number.isInteger(v) && v >= min && v <= max)) return undefined
    if (!Number.isInteger(v)) return miss(`${v} is not an integer`)
    return v < 0 && !signed ? miss(`${v} is negative; the column holds no negative values`) : miss(`${v} is outside ${sql} (${min} to ${max})`)
  }
}

const instant = (ms: number): string => (Number.isNaN(ms) ? "an invalid date (beyond what a date holds)" : new Date(ms).toISOString())

const timestampCheck: Check = (v) => {
  if (v instanceof Date) {
    const ms = v.getTime()
    // NaN (an Invalid Date) fails both comparisons
    return ms >= FIRST_INSTANT_MS && ms <= LAST_INSTANT_MS ? undefined : miss(`${instant(ms)} is outside ${INSTANTS}`)
  }
  if (typeof v === "bigint" && (v < FIRST_MICROS || v > LAST_MICROS)) return miss(`${v} µs since 1970 is outside ${INSTANTS}`)
  return undefined
}

const dateCheck: Check = (v) => {
  if (v instanceof Date) return timestampCheck(v)
  // "YYYY-MM-DD" compares as text; a malformed day is the writer's to refuse
  if (typeof v === "string" && (v < FIRST_DAY || v > LAST_DAY)) return miss(`${v} is outside ${INSTANTS}`)
  return undefined
}

/** The check of a field's values, or undefined when its type has no range. */
const fieldCheck = (f: arrow.Field): Check | undefined => {
  const type = f.type
  if (arrow.DataType.isDecimal(type)) return decimalCheck(type, isSigned(f))
  if (arrow.DataType.isInt(type)) return intCheck(type, isSigned(f))
  if (arrow.DataType.isTimestamp(type)) return timestampCheck
  if (arrow.DataType.isDate(type)) return dateCheck
  if (arrow.DataType.isList(type)) {
    const item = fieldCheck(type.children[0]!)
    if (item === undefined) return undefined
    return (v) => {
      if (!Array.isArray(v)) return undefined
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i]
        if (x === null || x === undefined) continue
        const m = item(x)
        if (m !== undefined) {
          m.path.unshift(i)
          return m
        }
      }
      return undefined
    }
  }
  if (arrow.DataType.isStruct(type)) return fieldsCheck(type.children)
  return undefined
}

/** The check of an object with these fields (a row, a struct), or undefined when none has a range. */
const fieldsCheck = (fields: ReadonlyArray<arrow.Field>): Check | undefined => {
  const names: string[] = []
  const checks: Check[] = []
  for (const f of fields) {
    const check = fieldCheck(f)
    if (check === undefined) continue
    names.push(f.name)
    checks.push(check)
  }
  if (names.length === 0) return undefined
  return (v) => {
    if (typeof v !== "object" || v === null) return undefined
    const record = v as Record<string, unknown>
    for (let i = 0; i < names.length; i++) {
      const x = record[names[i]!]
      if (x === null || x === undefined) continue
      const m = checks[i]!(x)
      if (m !== undefined) {
        m.path.unshift(names[i]!)
        return m
      }
    }
    return undefined
  }
}

/** `outputs[2].amount` */
const columnPath = (path: ReadonlyArray<string | number>): string =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("")

/** A row's first value outside its column's range, or undefined when every value fits. */
export type RowCheck = (row: Readonly<Record<string, unknown>>) => OutOfRange | undefined

const compiled = new WeakMap<arrow.Schema, RowCheck>()

const NOTHING_TO_CHECK: RowCheck = () => undefined

/** The row check of a schema, compiled on first use. */
export const rangeCheckOf = (schema: arrow.Schema): RowCheck => {
  let check = compiled.get(schema)
  if (check === undefined) {
    const fields = fieldsCheck(schema.fields)
    check =
      fields === undefined
        ? NOTHING_TO_CHECK
        : (row) => {
            const m = fields(row)
            return m === undefined ? undefined : new OutOfRange(columnPath(m.path), m.detail)
          }
    compiled.set(schema, check)
  }
  return check
}
