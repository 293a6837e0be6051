/**
 * One declaration per column. A dataset's table is an object whose keys are its column names and
 * whose values say, once, everything about the column:
 *
 * ```ts
 * export const table = defineTable("EVM blocks …", {
 *   chain_id: col.str("EVM chain id").fromSlice(),                        // a slice param (a Hive key here)
 *   block_number: col.amount("Block height").from("blockNumber"),         // a record field, required
 *   base_fee: col.amount("Base fee per gas in wei").from("baseFee?"),     // one the service may leave out: nullable
 *   proposer_id: col.str("Proposer block id").from("proposerDetails?.proposerId"),
 *   value: col.list(col.struct({ asset_id: col.hash("Asset id").from("assetId") }, "Asset amount"), "Value per asset").from("value"),
 *   genesis: col.str("Genesis as JSON text").from("blockchainInfo?.genesisData?", { wire: JsonText }),
 *   tx_count: col.int32("Transactions in the block")                      // computed by the dataset's code
 * })
 * ```
 *
 * From it are derived: the Arrow field (so the DuckDB type and the catalog comment), the range
 * check (src/transform/ColumnRange.ts reads the field), the wire decoder of the columns read from
 * the record (src/transform/ColumnDecoder.ts), and the static type of the row
 * (`ReadRow`, `Computed`): a dataset's code that computes a misspelt or missing column, or a value
 * of the wrong type, fails `tsc`.
 *
 * ## Where a column comes from
 * - `.from(path)`: a field of the record. `path` is dotted into nested objects; a segment ending in
 *   `?` may be absent (the column is then null). The wire type follows the column's type (a
 *   decimal string for `amount`, a JSON integer or the lossless parser's bigint for `int64`, Unix
 *   seconds for `ts`, …); `wire` names another spelling, any Effect schema decoding to the
 *   column's value (a named derivation: `NodeTime`, `JsonText`). `orElse` gives the value of an
 *   absent field instead of null (a list the service leaves out when empty), so the column stays
 *   non-null; `orNull` accepts a JSON null as absent. Several paths: the first the record holds
 *   (a token under one of three keys); a path per shape of record, `{ p: "blockTimestamp", chain:
 *   "timestamp" }`, for a dataset whose slices list records of different shapes (its `variant`).
 * - `.fromSlice(param?)`: the slice's param of that name (the column's own by default).
 * - `.fromParent()`: a child table's copy of its parent row's column of the same name.
 * - nothing: the dataset's `compute` gives it (decoded bytes, fan-outs, a value chosen between
 *   fields). `.nullable()` when it may be null.
 *
 * A column is nullable exactly when its source may be absent: a `?` in every path of a shape, a
 * shape without it, or `.nullable()`.
 * Structs and lists are columns too; the fields of a struct read from the record name their
 * paths relative to the struct's object, a list's item relative to the element.
 *
 * ## Row model
 * | column             | Arrow type                 | JS value                               |
 * | ------------------ | -------------------------- | -------------------------------------- |
 * | `str` `hash` `address` | Utf8                   | `string`                               |
 * | `int32`            | Int32                      | `number` (integer)                     |
 * | `int64`            | Int64                      | `bigint`                               |
 * | `float64`          | Float64                    | `number`                               |
 * | `bool`             | Bool                       | `boolean`                              |
 * | `amount`           | Decimal(38, 0)             | `bigint`                               |
 * | `uint256`          | Utf8 + Float64 (two columns) | `bigint` in, `string` + `number` out |
 * | `ts`               | Timestamp(µs, "UTC")       | `Date`                                 |
 * | `date`             | Date32                     | `"YYYY-MM-DD"`                         |
 * | `binary`           | Binary                     | `Uint8Array`                           |
 * | `list`             | List                       | array of the item's values             |
 * | `struct`           | Struct                     | object keyed by field name             |
 *
 * Ranges are the Arrow fields' (schemas/common.ts "Ranges"): `signed` lets an `amount`, `int32` or
 * `int64` hold negative values.
 */
import * as arrow from "../src/ArrowTypes.ts"
import type { Schema } from "effect"
import * as field from "./common.ts"

/** Where a column's value comes from. */
export type Source =
  | {
      readonly tag: "read"
      /**
       * The path in each shape of record (`ALL`: every shape); null or no entry: a shape without
       * the field (the column is null there).
       */
      readonly paths: VariantPaths
      /** The wire type when not the column type's usual one. */
      readonly wire?: Schema.Schema<any, any, never>
      /** An absent field's value (the column is then non-null). */
      readonly orElse?: unknown
      /** A JSON null is read as absent. */
      readonly orNull: boolean
    }
  | { readonly tag: "slice"; readonly param: string | undefined }
  | { readonly tag: "parent" }
  | { readonly tag: "computed" }

/** The key of the path every shape of record shares. */
export const ALL = "*"

/** A path: the steps into the record. */
export type Path = ReadonlyArray<PathStep>

/** Per shape of record, the paths to try in order (the first one sent gives the value); null: none. */
export type VariantPaths = Readonly<Record<string, ReadonlyArray<Path> | null>>

/** A read column's paths in one shape of record; undefined where that shape has no such field. */
export const pathIn = (paths: VariantPaths, variant: string): ReadonlyArray<Path> | undefined => (variant in paths ? paths[variant] : paths[ALL]) ?? undefined

/** The parsed form of a path spec (see `from`). */
export const parsePaths = (path: PathSpec): VariantPaths => {
  const alternatives = (p: Alternatives) => (typeof p === "string" ? [parsePath(p)] : p.map(parsePath))
  if (typeof path === "string" || Array.isArray(path)) return { [ALL]: alternatives(path as Alternatives) }
  const out: Record<string, ReadonlyArray<Path> | null> = {}
  for (const [variant, p] of Object.entries(path as Readonly<Record<string, Alternatives | null>>)) out[variant] = p === null ? null : alternatives(p)
  return out
}

/** One key of a dotted path: `optional` when the field may be absent. */
export interface PathStep {
  readonly key: string
  readonly optional: boolean
}

/** What a column is, at run time (the phantom types below say it to the compiler). */
export type Shape =
  | { readonly tag: "leaf"; readonly type: "str" | "hash" | "address" | "int32" | "int64" | "float64" | "bool" | "amount" | "ts" | "date" | "binary" }
  | { readonly tag: "uint256" }
  | { readonly tag: "list"; readonly item: AnyColumn }
  | { readonly tag: "struct"; readonly fields: Columns }

export interface ColumnSpec {
  readonly shape: Shape
  readonly comment: string
  readonly signed: boolean
  readonly nullable: boolean
  readonly source: Source
}

type Kind = Source["tag"]

/**
 * A declared column: `V` its JS value, `N` whether it may be null, `K` where it comes from. The
 * three are phantom (never set), so `Column<bigint, false, "read">` and `Column<string, …>` are
 * different types to the compiler.
 */
export class Column<V, N extends boolean = boolean, K extends Kind = Kind> {
  declare readonly _value?: V
  declare readonly _null?: N
  declare readonly _kind?: K
  constructor(readonly spec: ColumnSpec) {}

  /**
   * Read from the record at `path` (see "Where a column comes from"). Several paths: the first
   * one the record holds (a value sent under one of two names, a token under one of three keys).
   * A dataset whose records come in several shapes (DatasetSpec.variant) gives a path per shape,
   * null where a shape has none.
   */
  from<const P extends PathSpec>(path: P): Column<V, PathNull<P>, "read">
  from<const P extends PathSpec, const O extends ReadOptions<V>>(path: P, options: O): Column<V, O extends { orElse: unknown } ? false : O extends { orNull: true } ? true : PathNull<P>, "read">
  from(path: PathSpec, options: ReadOptions<V> = {}): Column<V, boolean, "read"> {
    const paths = parsePaths(path)
    // absent when some shape has no path, or every path of a shape may be absent
    const absent = Object.values(paths).some((alts) => alts === null || alts.every((steps) => steps.some((s) => s.optional)))
    const hasDefault = "orElse" in options
    if (hasDefault && !absent) throw new Error(`path ${JSON.stringify(path)}: orElse without an optional step is never used`)
    return new Column({
      ...this.spec,
      nullable: !hasDefault && (options.orNull === true || absent),
      source: { tag: "read", paths, ...(options.wire === undefined ? {} : { wire: options.wire }), ...(hasDefault ? { orElse: options.orElse } : {}), orNull: options.orNull === true }
    })
  }

  /** The slice's param `param` (the column's own name by default): never null. */
  fromSlice(param?: string): Column<V, false, "slice"> {
    return new Column({ ...this.spec, nullable: false, source: { tag: "slice", param } })
  }

  /** A child table's copy of its parent row's column of the same name. */
  fromParent(): Column<V, N, "parent"> {
    return new Column({ ...this.spec, source: { tag: "parent" } })
  }

  /** A computed column the dataset's code may leave null. */
  nullable(): Column<V, true, K> {
    return new Column({ ...this.spec, nullable: true })
  }
}

export interface ReadOptions<V> {
  readonly wire?: Schema.Schema<V, any, never>
  readonly orElse?: V
  readonly orNull?: boolean
}

export type AnyColumn = Column<any, boolean, Kind>
export type Columns = Readonly<Record<string, AnyColumn>>

/** A path, or the paths to try in order. */
type Alternatives = string | ReadonlyArray<string>

/** Alternatives, or alternatives per shape of record (null: a shape without the field). */
export type PathSpec = Alternatives | Readonly<Record<string, Alternatives | null>>

type Optional<P> = P extends `${string}?${string}` ? true : false

/** Alternatives may be absent when each may be. */
type AltNull<A> = A extends string ? Optional<A> : A extends ReadonlyArray<infer Q> ? (false extends Optional<Q> ? false : true) : false

/** A path with an optional segment may be absent, and so may a field some shape lacks. */
export type PathNull<P extends PathSpec> = P extends Alternatives
  ? AltNull<P>
  : null extends P[keyof P]
    ? true
    : true extends AltNull<P[keyof P]>
      ? true
      : false

const SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$]*\??$/

export const parsePath = (path: string): ReadonlyArray<PathStep> =>
  path.split(".").map((segment) => {
    if (!SEGMENT.test(segment)) throw new Error(`path "${path}": "${segment}" is not a field name (optionally ending in ?)`)
    return segment.endsWith("?") ? { key: segment.slice(0, -1), optional: true } : { key: segment, optional: false }
  })

// — the value types —

/** The JS value of a column, null included when it may be. */
export type ValueOf<C> = C extends Column<infer V, infer N, Kind> ? (N extends true ? V | null : V) : never

/** The row of these columns: each column's value. */
export type RowOf<Cs extends Columns> = { -readonly [K in keyof Cs]: ValueOf<Cs[K]> }

type KeysOfKind<Cs extends Columns, K extends Kind> = { [k in keyof Cs]: Cs[k] extends Column<any, boolean, K> ? k : never }[keyof Cs]

/** What the framework fills before the dataset's code runs: the record's and the slice's columns. */
export type ReadRow<Cs extends Columns> = RowOf<Pick<Cs, KeysOfKind<Cs, "read" | "slice" | "parent">>>

/** What the dataset's code computes: exactly its computed columns. */
export type Computed<Cs extends Columns> = RowOf<Pick<Cs, KeysOfKind<Cs, "computed">>>

/** Names of the columns whose values are never null: what a key may be made of. */
export type NonNullColumn<Cs extends Columns> = { [k in keyof Cs]: Cs[k] extends Column<any, false, Kind> ? k : never }[keyof Cs] & string

export type ColumnName<Cs extends Columns> = keyof Cs & string

/** Columns read from the slice: what a Hive key may be. */
export type SliceColumn<Cs extends Columns> = KeysOfKind<Cs, "slice"> & string

// — the builders —

type Leaf = Extract<Shape, { tag: "leaf" }>["type"]

const leaf = <V>(type: Leaf, comment: string, signed = false) =>
  new Column<V, false, "computed">({ shape: { tag: "leaf", type }, comment, signed, nullable: false, source: { tag: "computed" } })

interface Signed {
  /** The column takes negative values (a balance change); off, a negative value is a reject. */
  readonly signed?: boolean
}

export const col = {
  str: (comment: string) => leaf<string>("str", comment),
  /** A 0x-prefixed hash or a CB58/base58 id, kept as the service spells it. */
  hash: (comment: string) => leaf<string>("hash", comment),
  /** An EVM 0x address or a bech32 P-/X-chain address, kept as the service spells it. */
  address: (comment: string) => leaf<string>("address", comment),
  int32: (comment: string, options?: Signed) => leaf<number>("int32", comment, options?.signed),
  /** Values are bigint: block numbers, nonces and gas pass 2^53 on some chains. */
  int64: (comment: string, options?: Signed) => leaf<bigint>("int64", comment, options?.signed),
  float64: (comment: string) => leaf<number>("float64", comment),
  bool: (comment: string) => leaf<boolean>("bool", comment),
  /** Token and native amounts in base units (wei, nAVAX): exact DECIMAL(38,0). */
  amount: (comment: string, options?: Signed) => leaf<bigint>("amount", comment, options?.signed),
  /** A value that may pass DECIMAL(38,0): two columns, `<name>` exact text and `<name>_double` (schemas/common.ts `uint256`). */
  uint256: (comment: string) => new Column<bigint, false, "computed">({ shape: { tag: "uint256" }, comment, signed: false, nullable: false, source: { tag: "computed" } }),
  /** An instant, TIMESTAMP WITH TIME ZONE. */
  ts: (comment: string) => leaf<Date>("ts", comment),
  /** A calendar day (UTC), "YYYY-MM-DD". */
  date: (comment: string) => leaf<string>("date", comment),
  binary: (comment: string) => leaf<Uint8Array>("binary", comment),
  list: <I extends AnyColumn>(item: I, comment: string) =>
    new Column<ReadonlyArray<ValueOf<I>>, false, "computed">({ shape: { tag: "list", item }, comment, signed: false, nullable: false, source: { tag: "computed" } }),
  struct: <F extends Columns>(fields: F, comment: string) =>
    new Column<RowOf<F>, false, "computed">({ shape: { tag: "struct", fields }, comment, signed: false, nullable: false, source: { tag: "computed" } })
}

// — Arrow —

const options = (spec: ColumnSpec): field.FieldOptions => ({ nullable: spec.nullable, ...(spec.signed ? { signed: true } : {}) })

/** The Arrow fields of one column: one, or two for a `uint256`. */
export const arrowFields = (name: string, column: AnyColumn): ReadonlyArray<arrow.Field> => {
  const spec = column.spec
  const o = options(spec)
  const shape = spec.shape
  switch (shape.tag) {
    case "uint256":
      return field.uint256(name, spec.comment, o)
    case "list":
      return [field.list(name, arrowFields("item", shape.item)[0]!, spec.comment, o)]
    case "struct":
      return [field.struct(name, structFields(shape.fields), spec.comment, o)]
    case "leaf":
      return [LEAVES[shape.type](name, spec.comment, o)]
  }
}

const LEAVES: Readonly<Record<Leaf, (name: string, comment: string, o: field.FieldOptions) => arrow.Field>> = {
  str: field.str,
  hash: field.hash,
  address: field.address,
  int32: field.int32,
  int64: field.int64,
  float64: field.float64,
  bool: field.bool,
  amount: field.amount,
  ts: field.ts,
  date: field.date,
  binary: field.binary
}

const structFields = (fields: Columns): ReadonlyArray<arrow.Field> => Object.entries(fields).flatMap(([n, c]) => arrowFields(n, c))

/** A table: its columns and what it is. */
export interface Table<Cs extends Columns> {
  readonly comment: string
  readonly columns: Cs
}

/**
 * A dataset's (or child table's) columns, checked at load: snake_case names at every depth, a
 * struct read from the record has a path for each field.
 */
export const defineTable = <const Cs extends Columns>(comment: string, columns: Cs): Table<Cs> => {
  // nested names are checked with the Arrow schema (defineSchema, at every depth); the table's own here
  for (const [name, c] of Object.entries(columns)) {
    if (!field.isSnakeCase(name)) throw new Error(`column "${name}" is not snake_case (want ${field.SNAKE_CASE.source})`)
    checkSources(name, c, readsItself(c))
  }
  return { comment, columns }
}

/** Read from the record field by field: its struct fields need paths (a `wire` of its own reads it whole). */
const readsItself = (c: AnyColumn): boolean => c.spec.source.tag === "read" && c.spec.source.wire === undefined

const checkSources = (path: string, column: AnyColumn, read: boolean): void => {
  const shape = column.spec.shape
  if (shape.tag === "list") checkSources(`${path}[]`, shape.item, read)
  if (shape.tag !== "struct") return
  if (column.spec.source.tag === "read" && column.spec.source.wire !== undefined) return
  for (const [name, f] of Object.entries(shape.fields)) {
    const tag = f.spec.source.tag
    if (read && tag !== "read") throw new Error(`column ${path}.${name}: a field of a struct read from the record needs a path (.from)`)
    if (!read && tag !== "computed") throw new Error(`column ${path}.${name}: its struct is computed, so the field is too (no .from)`)
    checkSources(`${path}.${name}`, f, read)
  }
}

/** The Arrow schema of a table's columns but `leaveOut` (the Hive keys, which live in the path), lineage appended. */
export const arrowSchema = (table: Table<Columns>, leaveOut: ReadonlySet<string>): arrow.Schema =>
  field.defineSchema(
    Object.entries(table.columns)
      .filter(([n]) => !leaveOut.has(n))
      .flatMap(([n, c]) => arrowFields(n, c)),
    table.comment
  )
