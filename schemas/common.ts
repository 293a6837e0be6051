/**
 * Arrow field helpers: the Arrow type, nullability, comment and range metadata of a column. A
 * dataset declares its columns once in schemas/columns.ts, which makes these fields; the sink,
 * the catalog and the range check read them, and tests of the write path build schemas with them
 * directly. A row's values by Arrow type are the row model of schemas/columns.ts.
 *
 * `null` (or a missing key) is allowed only where the field is nullable; every helper makes a
 * nullable field unless `{ nullable: false }` is passed. Amounts and block numbers are never JS
 * numbers: above 2^53 a number silently rounds, so the writer refuses a number in an int64 or
 * decimal column instead of converting it.
 *
 * ## Ranges
 * A column's declaration is also its range, checked on every row before it is kept
 * (src/transform/ColumnRange.ts): a value outside it makes its record a reject with the column and
 * the reason, never a failed write. `amount` holds at most 38 digits; `amount`, `int32` and
 * `int64` hold no negative value unless declared `{ signed: true }` (amounts, block numbers,
 * heights, counts, indexes and locktimes are never negative); `int32`/`int64` hold what their
 * Arrow type holds; `ts` and `date` hold 2000-01-01 to 2200-01-01 UTC (`FIRST_INSTANT_MS`,
 * `LAST_INSTANT_MS`); `uint256` 0 to 2^256 − 1 (`uint256Values`).
 *
 * `ts` takes both a `Date` and a bigint of epoch-microseconds because sources differ: JSON APIs
 * give seconds or ISO strings (a `Date` holds them exactly, at millisecond precision), while node
 * RPCs can give nanosecond clocks that only a bigint of microseconds keeps.
 *
 * Column names are snake_case (`^[a-z][a-z0-9_]*$`), checked by `defineSchema` down into structs
 * and lists, because they become DuckDB identifiers and Hive path keys that notebooks type by hand.
 */
import * as arrow from "../src/ArrowTypes.ts"

export type Row = Readonly<Record<string, unknown>>

export interface FieldOptions {
  /** Defaults to true: source APIs omit fields often enough that required is the exception. */
  readonly nullable?: boolean
  /**
   * `amount`, `int32` and `int64` only: the column takes negative values (a balance change).
   * Off by default: a negative amount, height, count or index is a reject (see Ranges above).
   */
  readonly signed?: boolean
}

/** The metadata key that carries a column's or a dataset's comment into the catalog. */
export const COMMENT_KEY = "comment"
/**
 * Metadata key naming the semantic kind of a Utf8 or paired column ("hash", "address",
 * "uint256", "uint256_double"), so validators and docs can tell them from free text.
 */
export const KIND_KEY = "chainetl.kind"

/** Metadata key marking an `amount`/`int32`/`int64` column that takes negative values ("true"). */
export const SIGNED_KEY = "chainetl.signed"

/** Whether a numeric column takes negative values (declared `{ signed: true }`). */
export const isSigned = (f: { readonly metadata: Map<string, string> }): boolean => f.metadata.get(SIGNED_KEY) === "true"

/**
 * The instants a `ts` or `date` column holds, inclusive: 2000-01-01 to 2200-01-01 UTC. No chain
 * record is older (Avalanche went live in 2020) and none is due after 2200, so a value outside is
 * a service's mistake (seconds read as milliseconds, a negative or a year-300000 time) and its
 * record a reject. Well inside what TIMESTAMPTZ and the writer's ±2^53 µs wire hold.
 */
export const FIRST_INSTANT_MS = Date.UTC(2000, 0, 1)
export const LAST_INSTANT_MS = Date.UTC(2200, 0, 1)

/**
 * A value its column cannot hold: the record becomes a reject with this message as its reason
 * (the column's dotted path, `outputs[2].amount`, and what is wrong).
 */
export class OutOfRange extends RangeError {
  constructor(
    readonly column: string,
    readonly detail: string
  ) {
    super(`column ${column} out of range: ${detail}`)
  }
}

const signedness = (options: FieldOptions | undefined): ReadonlyArray<readonly [string, string]> =>
  options?.signed === true ? [[SIGNED_KEY, "true"]] : []

export const SNAKE_CASE = /^[a-z][a-z0-9_]*$/

export const isSnakeCase = (name: string): boolean => SNAKE_CASE.test(name)

const field = <T extends arrow.DataType>(
  name: string,
  type: T,
  comment: string,
  options: FieldOptions | undefined,
  extra: ReadonlyArray<readonly [string, string]> = []
): arrow.Field<T> =>
  new arrow.Field(name, type, options?.nullable ?? true, new Map([[COMMENT_KEY, comment], ...extra]))

export const str = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Utf8(), comment, options)

/** A 0x-prefixed hash or a CB58/base58 id, kept as the service spells it. */
export const hash = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Utf8(), comment, options, [[KIND_KEY, "hash"]])

/** An EVM 0x address or a bech32 P-/X-chain address, kept as the service spells it. */
export const address = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Utf8(), comment, options, [[KIND_KEY, "address"]])

export const int32 = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Int32(), comment, options, signedness(options))

/** Values are bigint: block numbers, nonces and gas pass 2^53 on some chains. */
export const int64 = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Int64(), comment, options, signedness(options))

export const float64 = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Float64(), comment, options)

export const bool = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Bool(), comment, options)

/** Widest exact decimal DuckDB and Parquet share: DECIMAL(38,0) holds every uint64 and int128 up to 10^38−1. */
export const AMOUNT_PRECISION = 38

/** Token and native amounts in base units (wei, nAVAX): exact DECIMAL(38,0), values bigint. */
export const amount = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Decimal(0, AMOUNT_PRECISION, 128), comment, options, signedness(options))

/** The suffix of the lossy companion column of a `uint256` pair. */
export const UINT256_DOUBLE_SUFFIX = "_double"

/**
 * A value that may exceed DECIMAL(38,0) (ERC-20 balances and allowances, total difficulty,
 * `type(uint256).max` approvals) becomes TWO columns:
 * - `<name>`: Utf8, the exact unsigned decimal string (no sign, no leading zeros, no 0x): the
 *   source of truth, and what equality and joins should use;
 * - `<name>_double`: Float64, the same value rounded to a double, for sums, ranges and plots.
 * DuckDB has no exact type wider than HUGEINT/DECIMAL(38), and HUGEINT goes to Parquet as DOUBLE,
 * so a string is the only lossless spelling every Parquet reader understands.
 * Fill both with `uint256Values(name, value)`.
 */
export const uint256 = (
  name: string,
  comment: string,
  options?: FieldOptions
): readonly [arrow.Field<arrow.Utf8>, arrow.Field<arrow.Float64>] => [
  field(name, new arrow.Utf8(), `${comment} (exact decimal string)`, options, [[KIND_KEY, "uint256"]]),
  field(
    `${name}${UINT256_DOUBLE_SUFFIX}`,
    new arrow.Float64(),
    `${comment} (as a double: approximate above 2^53, for aggregates only)`,
    options,
    [[KIND_KEY, "uint256_double"]]
  )
]

const UINT256_MAX = (1n << 256n) - 1n

/** The two row entries of a `uint256` pair; `null` gives null to both. Throws OutOfRange outside [0, 2^256). */
export const uint256Values = (
  name: string,
  value: bigint | null
): Record<string, string | number | null> => {
  if (value === null) return { [name]: null, [`${name}${UINT256_DOUBLE_SUFFIX}`]: null }
  if (value < 0n) throw new OutOfRange(name, `${value} is negative; a uint256 is 0 to 2^256 − 1`)
  if (value > UINT256_MAX) throw new OutOfRange(name, `${value.toString().length} digits, more than a uint256 holds (at most 2^256 − 1, 78 digits)`)
  return { [name]: value.toString(10), [`${name}${UINT256_DOUBLE_SUFFIX}`]: Number(value) }
}

/** An instant, stored as TIMESTAMP WITH TIME ZONE in µs; values `Date` or bigint epoch-µs. */
export const ts = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.TimestampMicrosecond("UTC"), comment, options)

/** A calendar day (UTC), values `Date` or "YYYY-MM-DD". */
export const date = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.DateDay(), comment, options)

export const binary = (name: string, comment: string, options?: FieldOptions) =>
  field(name, new arrow.Binary(), comment, options)

/** The child field's name is kept in the schema (Arrow needs one) but only its type matters. */
export const list = <T extends arrow.DataType>(
  name: string,
  child: arrow.Field<T>,
  comment: string,
  options?: FieldOptions
) => field(name, new arrow.List(child), comment, options)

export const struct = (
  name: string,
  fields: ReadonlyArray<arrow.Field>,
  comment: string,
  options?: FieldOptions
) => field(name, new arrow.Struct([...fields]), comment, options)

/**
 * Appended by `defineSchema` to every dataset so any row can be traced to the run that wrote it.
 * Rows fill them with `lineage(runId, ingestedAt)`.
 */
export const lineageFields: ReadonlyArray<arrow.Field> = [
  str("run_id", "Id of the chainetl run that wrote this row", { nullable: false }),
  ts("ingested_at", "When chainetl fetched this row from the source (UTC)", { nullable: false })
]

export const lineage = (runId: string, ingestedAt: Date): { run_id: string; ingested_at: Date } => ({
  run_id: runId,
  ingested_at: ingestedAt
})

type FieldInput = arrow.Field | ReadonlyArray<arrow.Field>

const checkNames = (fields: ReadonlyArray<arrow.Field>, where: string): void => {
  const seen = new Set<string>()
  for (const f of fields) {
    const path = where === "" ? f.name : `${where}.${f.name}`
    if (!isSnakeCase(f.name)) {
      throw new Error(`column "${path}" is not snake_case (want ${SNAKE_CASE.source})`)
    }
    if (seen.has(f.name)) throw new Error(`column "${path}" is defined twice`)
    seen.add(f.name)
    checkType(f.type, path)
  }
}

const checkType = (type: arrow.DataType, path: string): void => {
  if (arrow.DataType.isStruct(type)) checkNames(type.children, path)
  // a list's child name ("item", "element") is Arrow plumbing, never a column; only its type is
  else if (arrow.DataType.isList(type)) checkType(type.children[0]!.type, path)
}

/**
 * The dataset's schema: `fields` (a `uint256` pair may be passed as is) then `lineageFields`.
 * Throws on a non-snake_case or duplicate name, at any depth.
 */
export const defineSchema = (fields: ReadonlyArray<FieldInput>, comment: string): arrow.Schema => {
  const flat = fields.flatMap((f): ReadonlyArray<arrow.Field> => (f instanceof arrow.Field ? [f] : f))
  const all = [...flat, ...lineageFields.filter((l) => !flat.some((f) => f.name === l.name))]
  checkNames(all, "")
  return new arrow.Schema(all, new Map([[COMMENT_KEY, comment]]))
}

/** A field's comment, "" when it has none. */
export const commentOf = (f: { readonly metadata: Map<string, string> }): string => f.metadata.get(COMMENT_KEY) ?? ""
