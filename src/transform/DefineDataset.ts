/**
 * A dataset declared over its table (schemas/columns.ts): what it reads and how it is laid out,
 * its columns named by reference — a key, sort key, Hive key or slice column that is not a column
 * of the table (or a key that may be null) fails `tsc` — and the facts the CLI and the catalog
 * read (services, slice columns, a child's key). From them: the Arrow schema (the Hive keys live
 * in the path, not the file), the partition keys, and `toRow`, which fills the slice's columns,
 * decodes the record's (ColumnDecoder.ts) and adds what `compute` gives: the logic that is more
 * than reading a field (decoded bytes, a value chosen between two fields).
 */
import { Schema } from "effect"
import type { Service } from "../Config.ts"
import type { ChildDataset, DatasetDef, HeightMarks, PartitionKey, Row } from "../crawl/Dataset.ts"
import { type Grain, withGrain } from "./Grain.ts"
import type { Slice } from "../crawl/Slice.ts"
import {
  ALL,
  type AnyColumn,
  arrowSchema,
  type ColumnName,
  type Columns,
  type Computed,
  type NonNullColumn,
  parsePath,
  type ReadRow,
  type RowOf,
  type SliceColumn,
  type Table
} from "../../schemas/columns.ts"
import { uint256Values } from "../../schemas/common.ts"
import { type ColumnReader, columnReader, itemsReader, type Reads, type ReadValues, variantsOf } from "./ColumnDecoder.ts"

/**
 * A Hive key computed from a column (chain_metrics' `month` of its period_start): `column`
 * names it, `value` spells the key.
 */
export interface ComputedKey<Cs extends Columns> {
  readonly key: string
  readonly type: "VARCHAR" | "DATE"
  readonly column: ColumnName<Cs>
  readonly value: (v: unknown) => string
}

/** The UTC day a row belongs to: its `column`'s, or `untimed`'s when that is null (a block without a time). */
export interface TimeColumn<Cs extends Columns> {
  readonly column: ColumnName<Cs>
  readonly grain: Grain
  readonly untimed?: (row: Row) => string
}

interface Layout<Cs extends Columns> {
  readonly name: string
  readonly description: string
  /** Hive keys, in path order: slice columns, or keys computed from a column. */
  readonly partitionBy: ReadonlyArray<SliceColumn<Cs> | ComputedKey<Cs>>
  /** The natural order of a compacted file (DatasetDef.sortBy); the key when absent. */
  readonly sortBy?: ReadonlyArray<ColumnName<Cs>>
}

/** What a dataset's code computes, from the slice, the record's columns and its `reads`. */
export interface ComputeInput<Cs extends Columns, W extends Reads> {
  readonly read: ReadRow<Cs>
  readonly wire: ReadValues<W>
  readonly slice: Slice
  /** The record as listed: for datasets whose listing made it (decoded bytes) rather than read it. */
  readonly record: unknown
}

/** `compute`: required when the table has computed columns, else it may only replace read ones. */
export type WithCompute<Cs extends Columns, F> = [keyof Computed<Cs>] extends [never] ? { readonly compute?: F } : { readonly compute: F }

/** `O`, refusing any key `Allowed` has not (a misspelt column), as an object literal would. */
export type Exact<O, Allowed> = O & { readonly [K in Exclude<keyof O, keyof Allowed>]: never }

/** What `compute` may give: every computed column, and read ones it replaces. */
export type ComputeOutput<Cs extends Columns> = Computed<Cs> & Partial<ReadRow<Cs>>

export type DatasetSpec<Cs extends Columns, R, W extends Reads, O extends ComputeOutput<Cs>> = DatasetFacts<Cs, R, W> &
  WithCompute<Cs, (input: ComputeInput<Cs, W>) => Exact<O, ComputeOutput<Cs>>>

interface DatasetFacts<Cs extends Columns, R, W extends Reads>
  extends Layout<Cs>,
    Omit<DatasetDef<R>, "schema" | "partitionBy" | "timePartition" | "grain" | "derive" | "key" | "sortBy" | "sliceColumns" | "heights" | "chain" | "toRow" | "services"> {
  /** The services its listing calls: a run asks only for their settings. */
  readonly services: ReadonlyArray<Service>
  /** Time-ordered datasets: the column whose UTC day files a row, and the default grain (Grain.ts). */
  readonly timePartition?: TimeColumn<Cs>
  /** Identifies a row within its slice: never null. */
  readonly key: ReadonlyArray<NonNullColumn<Cs>>
  /** Columns besides the Hive keys that name the listing a slice crawls (DatasetDef.sliceColumns). */
  readonly sliceColumns?: ReadonlyArray<ColumnName<Cs>>
  readonly heights?: Omit<HeightMarks, "listing" | "column"> & { readonly listing: ReadonlyArray<ColumnName<Cs>>; readonly column: ColumnName<Cs> }
  /** Block datasets: the columns of their chain of parent links (DatasetDef.chain). */
  readonly chain?: { readonly listing: ReadonlyArray<ColumnName<Cs>>; readonly height: NonNullColumn<Cs>; readonly id: NonNullColumn<Cs>; readonly parent: NonNullColumn<Cs>; readonly time?: ColumnName<Cs> }
  /** Fields the code reads that are no column, decoded with the columns (ColumnDecoder.ts `read`). */
  readonly reads?: W
  /** Before anything is read: throws RecordError for a record that is a reject by what it is (a node's miss). */
  readonly check?: (record: unknown) => void
  /** Datasets whose records come in several shapes (paths given per shape): the shape of a slice's records. */
  readonly variant?: (slice: Slice) => string
}

const partitionKeys = <Cs extends Columns>(columns: Cs, partitionBy: Layout<Cs>["partitionBy"]): ReadonlyArray<PartitionKey> =>
  partitionBy.map((p): PartitionKey => {
    if (typeof p !== "string") return { key: p.key, type: p.type, value: (row) => p.value(row[p.column]) }
    const c = columns[p] as AnyColumn | undefined
    if (c === undefined || c.spec.source.tag !== "slice") throw new Error(`Hive key ${p}: not a column read from the slice`)
    const shape = c.spec.shape
    return {
      key: p,
      type: shape.tag === "leaf" && shape.type === "date" ? "DATE" : "VARCHAR",
      comment: c.spec.comment,
      value: (row) => String(row[p])
    }
  })

const hiveColumns = (partitionBy: ReadonlyArray<string | { readonly key: string }>): ReadonlySet<string> =>
  new Set(partitionBy.filter((p): p is string => typeof p === "string"))

const DAY_MS = 86_400_000

/**
 * The UTC day of a row's time column, YYYY-MM-DD. Listings come in time order, so the day of the
 * previous row is remembered: one string per day, not one per row (this runs for every row).
 */
const dayOf = (column: string, untimed: ((row: Row) => string) | undefined) => {
  let lastDay = Number.NaN
  let lastText = ""
  return (row: Row): string => {
    const at = row[column]
    if (!(at instanceof Date)) {
      if (untimed === undefined) throw new Error(`${column} is null: the row has no day`)
      return untimed(row)
    }
    const day = Math.floor(at.getTime() / DAY_MS)
    if (day !== lastDay) {
      lastText = new Date(day * DAY_MS).toISOString().slice(0, 10)
      lastDay = day
    }
    return lastText
  }
}

const assertColumns = (what: string, table: Table<Columns>, names: ReadonlyArray<string>, nonNull = false): void => {
  for (const n of names) {
    const c = table.columns[n]
    if (c === undefined) throw new Error(`${what}: ${n} is not a column`)
    if (nonNull && c.spec.nullable) throw new Error(`${what}: ${n} may be null, and a key may not`)
  }
}

const entriesOf = (table: Table<Columns>, tag: string) => Object.entries(table.columns).filter(([, c]) => c.spec.source.tag === tag)

/** Slice params → columns, and the expansion of computed uint256s: what every toRow does besides reading. */
const rowParts = (table: Table<Columns>, name: string) => {
  const slice = entriesOf(table, "slice").map(([n, c]) => [n, (c.spec.source as { param?: string }).param ?? n] as const)
  const pairs = entriesOf(table, "computed")
    .filter(([, c]) => c.spec.shape.tag === "uint256")
    .map(([n]) => n)
  const computed = entriesOf(table, "computed").length > 0
  // a slice's params are checked once, not once per record: every record of a page shares its slice
  let lastSlice: Slice | undefined
  let lastValues: ReadonlyArray<readonly [string, unknown]> = []
  const valuesOf = (s: Slice) => {
    if (s === lastSlice) return lastValues
    lastValues = slice.map(([column, param]) => {
      const v = s.params[param]
      if (v === undefined) throw new Error(`${name}: slice ${s.id} has no param ${param} for column ${column}`)
      return [column, v] as const
    })
    lastSlice = s
    return lastValues
  }
  return {
    computed,
    fill: (row: Record<string, unknown>, s: Slice) => {
      for (const [column, v] of valuesOf(s)) row[column] = v
    },
    expand: (row: Record<string, unknown>) => {
      for (const n of pairs) Object.assign(row, uint256Values(n, row[n] as bigint | null))
    }
  }
}

/** The dataset of `table`: its DatasetDef, laid out at its default grain. */
export const defineDataset = <Cs extends Columns, R, W extends Reads = {}, O extends ComputeOutput<Cs> = ComputeOutput<Cs>>(
  table: Table<Cs>,
  spec: DatasetSpec<Cs, R, W, O>
): DatasetDef<R> => {
  const t = table as Table<Columns>
  assertColumns(`${spec.name} key`, t, spec.key, true)
  assertColumns(`${spec.name} sortBy`, t, spec.sortBy ?? [])
  assertColumns(`${spec.name} sliceColumns`, t, spec.sliceColumns ?? [])
  if (spec.chain !== undefined) assertColumns(`${spec.name} chain`, t, [...spec.chain.listing, spec.chain.height, spec.chain.id, spec.chain.parent])
  if (entriesOf(t, "parent").length > 0) throw new Error(`${spec.name}: only a child table copies columns of its parent`)
  const parts = rowParts(t, spec.name)
  if (parts.computed && spec.compute === undefined) throw new Error(`${spec.name}: its computed columns need a compute`)
  const children = spec.children ?? []
  // the lists the child tables cut are fields of the record too: not counted as unknown
  const reads: Reads = { ...childLists(children, t), ...spec.reads }
  const variants = variantsOf(t.columns, reads)
  if ((variants[0] !== ALL) !== (spec.variant !== undefined)) throw new Error(`${spec.name}: paths per shape of record and a variant go together`)
  const readers = new Map<string, ColumnReader | undefined>(variants.map((v) => [v, columnReader(t.columns, reads, v)]))
  const readerOf = (slice: Slice): ColumnReader | undefined => {
    if (spec.variant === undefined) return readers.get(ALL)
    const v = spec.variant(slice)
    if (!readers.has(v)) throw new Error(`${spec.name}: slice ${slice.id} is of shape ${v}, which no path names`)
    return readers.get(v)
  }
  const { compute, check, timePartition, reads: _reads, variant: _variant, ...rest } = spec
  const toRow = (record: unknown, slice: Slice): Row => {
    check?.(record)
    const row: Record<string, unknown> = {}
    parts.fill(row, slice)
    const reader = readerOf(slice)
    const wire = reader === undefined ? NO_READS : reader(record, row)
    if (compute !== undefined) {
      Object.assign(row, compute({ read: row as ReadRow<Cs>, wire: wire as ReadValues<W>, slice, record }))
      parts.expand(row)
    }
    return row
  }
  const def: DatasetDef<R> = {
    ...rest,
    schema: arrowSchema(t, hiveColumns(spec.partitionBy)),
    partitionBy: partitionKeys(table.columns, spec.partitionBy),
    ...(timePartition === undefined ? {} : { timePartition: { day: dayOf(timePartition.column, timePartition.untimed), grain: timePartition.grain } }),
    toRow
  }
  return timePartition === undefined ? def : withGrain(def)
}

const NO_READS: Record<string, unknown> = {}

/** A field read only so that it is known (its child table decodes it). */
const UNKNOWN = Schema.Unknown

/** Each child's list as a read of the parent's record (its first field), unless a column reads it. */
const childLists = (children: ReadonlyArray<ChildDataset>, t: Table<Columns>): Reads => {
  const out: Record<string, Reads[string]> = {}
  for (const c of children) {
    const first = c.items?.[0]
    if (first === undefined) continue
    const readByColumn = Object.values(t.columns).some(
      (col) => col.spec.source.tag === "read" && Object.values(col.spec.source.paths).some((alts) => alts?.some((p) => p[0]?.key === first.key))
    )
    if (!readByColumn) out[`child ${c.name}`] = { paths: { [ALL]: [[{ key: first.key, optional: true }]] }, schema: UNKNOWN }
  }
  return out
}

/** What a child table's code computes, from its parent's row (as written: lineage included, a uint256 as its two columns), the slice and the item's place. */
export interface ChildComputeInput<P extends Columns> {
  readonly parent: RowOf<P> & Row
  readonly slice: Slice
  /** The item's index in its list. */
  readonly index: number
}

export type ChildSpec<Cs extends Columns, P extends Columns, O extends Computed<Cs>> = ChildFacts<Cs> & WithCompute<Cs, (input: ChildComputeInput<P>) => Exact<O, Computed<Cs>>>

interface ChildFacts<Cs extends Columns> extends Layout<Cs> {
  /** The list of the parent's record whose items are the rows (a path, `?` where it may be absent). */
  readonly items: string
  /** Identifies a row within its parent's slice: never null. */
  readonly key: ReadonlyArray<NonNullColumn<Cs>>
}

/**
 * A child table of `parent`: its rows are the items of a list of the parent's record, each read
 * by the child's columns (paths relative to the item), with the slice's columns and the parent
 * row's (`fromParent`, checked to be the parent's column of the same type).
 */
export const defineChild = <Cs extends Columns, P extends Columns, O extends Computed<Cs> = Computed<Cs>>(parent: Table<P>, table: Table<Cs>, spec: ChildSpec<Cs, P, O>): ChildDataset => {
  const t = table as Table<Columns>
  assertColumns(`${spec.name} key`, t, spec.key, true)
  assertColumns(`${spec.name} sortBy`, t, spec.sortBy ?? [])
  const copied = entriesOf(t, "parent").map(([n, c]) => {
    const p = (parent.columns as Columns)[n]
    if (p === undefined || JSON.stringify(p.spec.shape) !== JSON.stringify(c.spec.shape) || p.spec.nullable !== c.spec.nullable) {
      throw new Error(`${spec.name}.${n}: the parent has no column ${n} of its type and nullability`)
    }
    return n
  })
  const parts = rowParts(t, spec.name)
  if (parts.computed && spec.compute === undefined) throw new Error(`${spec.name}: its computed columns need a compute`)
  const items = itemsReader(t.columns, spec.items)
  const compute = spec.compute
  return {
    name: spec.name,
    description: spec.description,
    schema: arrowSchema(t, hiveColumns(spec.partitionBy)),
    partitionBy: partitionKeys(table.columns, spec.partitionBy),
    key: spec.key,
    ...(spec.sortBy === undefined ? {} : { sortBy: spec.sortBy }),
    items: parsePath(spec.items),
    toRows: (record, slice, parentRow) => {
      const rows = items(record)
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!
        parts.fill(row, slice)
        for (const n of copied) row[n] = parentRow[n]
        if (compute !== undefined) {
          Object.assign(row, compute({ parent: parentRow as RowOf<P> & Row, slice, index: i }))
          parts.expand(row)
        }
      }
      return rows
    }
  }
}
