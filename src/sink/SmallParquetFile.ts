/**
 * The bytes of a small Parquet file (SmallParquet.ts shreds the rows into its columns): each leaf
 * column one uncompressed v1 data page (RLE levels, PLAIN values) with min/max statistics, and the
 * footer around DuckDB's schema bytes. The statistics are the format's `min_value`/`max_value`
 * (typed order, declared by `column_orders` as DuckDB does), so a notebook's filter skips these
 * files as it skips DuckDB's; no null count is written, so a reader never takes a column for free
 * of NULLs. A DOUBLE column gets none (NaN and -0 have orders of their own): statistics are optional.
 */
import { TType, Writer } from "../compact/ThriftCompact.ts"

/** Parquet's physical types (parquet.thrift `Type`). */
export const Physical = { BOOLEAN: 0, INT32: 1, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 } as const
const PLAIN = 0
const RLE = 3
const UNCOMPRESSED = 0
const DATA_PAGE = 0

/** A value's place in its column's order: numbers and bigints by value, bytes unsigned, byte by byte. */
export type StatKey = number | bigint | Uint8Array

/** A leaf column being filled: its levels, its PLAIN values and their least and greatest. */
export interface Column {
  /** The column's path in the schema, as the footer's UTF-8 strings. */
  readonly pathBytes: ReadonlyArray<Uint8Array>
  readonly physical: number
  readonly maxDef: number
  readonly maxRep: number
  readonly defs: number[]
  readonly reps: number[]
  readonly values: Writer
  /** BOOLEAN only: the values, bit-packed at the end. */
  readonly bools: boolean[]
  min?: { readonly key: StatKey; readonly bytes: Uint8Array }
  max?: { readonly key: StatKey; readonly bytes: Uint8Array }
}

export const newColumn = (pathBytes: ReadonlyArray<Uint8Array>, physical: number, maxDef: number, maxRep: number): Column => ({
  pathBytes,
  physical,
  maxDef,
  maxRep,
  defs: [],
  reps: [],
  values: new Writer(64),
  bools: []
})

const before = (a: StatKey, b: StatKey): boolean =>
  a instanceof Uint8Array ? Buffer.compare(a, b as Uint8Array) < 0 : (a as number | bigint) < (b as number | bigint)

/** Counts a value into the column's statistics: `key` orders it, `bytes` are its PLAIN bytes (a copy). */
export const noteStat = (c: Column, key: StatKey, bytes: Uint8Array): void => {
  if (c.min === undefined || before(key, c.min.key)) c.min = { key, bytes: bytes.slice() }
  if (c.max === undefined || before(c.max.key, key)) c.max = { key, bytes: bytes.slice() }
}

const bitWidth = (max: number): number => (max === 0 ? 0 : 32 - Math.clz32(max))

const varintLength = (v: number): number => {
  let n = 1
  for (; v >= 0x80; n++) v = Math.floor(v / 0x80)
  return n
}

/** The runs of equal levels: each one's length and level, in order. */
const runsOf = (values: ReadonlyArray<number>): Array<readonly [count: number, level: number]> => {
  const runs: Array<readonly [number, number]> = []
  for (let i = 0; i < values.length; ) {
    let j = i + 1
    while (j < values.length && values[j] === values[i]) j++
    runs.push([j - i, values[i]!])
    i = j
  }
  return runs
}

/** A column's levels as the RLE/bit-packed hybrid writes them: runs of repeats only, each level `width` bytes. */
interface Levels {
  readonly runs: ReadonlyArray<readonly [count: number, level: number]>
  readonly width: number
  /** The bytes `writeLevels` writes, its 4-byte length included (0: the column has no such level). */
  readonly length: number
}

const levelsOf = (values: ReadonlyArray<number>, max: number): Levels => {
  if (max === 0) return { runs: [], width: 0, length: 0 }
  const width = Math.ceil(bitWidth(max) / 8)
  const runs = runsOf(values)
  return { runs, width, length: runs.reduce((n, [count]) => n + varintLength(2 * count) + width, 4) }
}

/** The levels with their 4-byte length first (a v1 page's form); nothing where the column has no such level. */
const writeLevels = (w: Writer, { runs, width, length }: Levels): void => {
  if (length === 0) return
  for (let b = 0, n = length - 4; b < 4; b++, n >>>= 8) w.byte(n & 0xff)
  for (const [count, level] of runs) {
    w.varintN(2 * count)
    for (let b = 0, v = level; b < width; b++, v >>= 8) w.byte(v & 0xff)
  }
}

const packBools = (bools: ReadonlyArray<boolean>): Uint8Array => {
  const out = new Uint8Array(Math.ceil(bools.length / 8))
  for (let i = 0; i < bools.length; i++) if (bools[i]) out[i >> 3]! |= 1 << (i & 7)
  return out
}

const i32 = (w: Writer, last: number, id: number, v: number): number => {
  w.field(last, id, TType.I32)
  w.zigzagN(v)
  return id
}
/** Offsets, sizes and counts of a small file: far below 2^52. */
const i64 = (w: Writer, last: number, id: number, v: number): number => {
  w.field(last, id, TType.I64)
  w.zigzagN(v)
  return id
}
const binary = (w: Writer, b: Uint8Array) => {
  w.varintN(b.length)
  w.raw(b)
}

/** Writes a column's one data page (its header, then its levels and values) into `w`. */
const writePage = (w: Writer, c: Column): void => {
  const values = c.physical === Physical.BOOLEAN ? packBools(c.bools) : c.values.bytes()
  const reps = levelsOf(c.reps, c.maxRep)
  const defs = levelsOf(c.defs, c.maxDef)
  const size = reps.length + defs.length + values.length
  let last = i32(w, 0, 1, DATA_PAGE)
  last = i32(w, last, 2, size)
  last = i32(w, last, 3, size)
  w.field(last, 5, TType.STRUCT)
  let d = i32(w, 0, 1, c.defs.length)
  d = i32(w, d, 2, PLAIN)
  d = i32(w, d, 3, RLE)
  i32(w, d, 4, RLE)
  w.byte(0)
  w.byte(0)
  writeLevels(w, reps)
  writeLevels(w, defs)
  w.raw(values)
}

const MAGIC = Buffer.from("PAR1")
const CREATED_BY = Buffer.from("chainetl")

/** The file: magic, each column's page, the footer (FileMetaData), its length, magic. */
export const fileOf = (columns: ReadonlyArray<Column>, rows: number, schemaBytes: Uint8Array): Uint8Array => {
  const body = new Writer(16_384)
  body.raw(MAGIC)
  const chunks = columns.map((c) => {
    const at = body.length
    writePage(body, c)
    return { c, at, size: body.length - at }
  })
  const offset = body.length
  const f = new Writer()
  f.field(i32(f, 0, 1, 1), 2, TType.LIST)
  f.raw(schemaBytes)
  f.field(i64(f, 2, 3, rows), 4, TType.LIST)
  f.listHeader(1, TType.STRUCT)
  f.field(0, 1, TType.LIST)
  f.listHeader(chunks.length, TType.STRUCT)
  for (const { c, at, size } of chunks) {
    f.field(i64(f, 0, 2, at), 3, TType.STRUCT)
    let m = i32(f, 0, 1, c.physical)
    f.field(m, 2, TType.LIST)
    f.listHeader(2, TType.I32)
    f.zigzagN(PLAIN)
    f.zigzagN(RLE)
    f.field(2, 3, TType.LIST)
    f.listHeader(c.pathBytes.length, TType.BINARY)
    for (const p of c.pathBytes) binary(f, p)
    m = i32(f, 3, 4, UNCOMPRESSED)
    m = i64(f, m, 5, c.defs.length)
    m = i64(f, m, 6, size)
    m = i64(f, m, 7, size)
    m = i64(f, m, 9, at)
    if (c.min !== undefined && c.max !== undefined) {
      // Statistics: max_value (5), min_value (6)
      f.field(m, 12, TType.STRUCT)
      f.field(0, 5, TType.BINARY)
      binary(f, c.max.bytes)
      f.field(5, 6, TType.BINARY)
      binary(f, c.min.bytes)
      f.byte(0)
    }
    f.byte(0)
    f.byte(0)
  }
  i64(f, i64(f, 1, 2, offset - MAGIC.length), 3, rows)
  f.byte(0)
  f.field(4, 6, TType.BINARY)
  binary(f, CREATED_BY)
  // column_orders: TYPE_ORDER for each column, which min_value/max_value are read by
  f.field(6, 7, TType.LIST)
  f.listHeader(columns.length, TType.STRUCT)
  for (let k = 0; k < columns.length; k++) {
    f.field(0, 1, TType.STRUCT)
    f.byte(0)
    f.byte(0)
  }
  f.byte(0)
  const footer = f.bytes()
  body.raw(footer)
  const tail = new Uint8Array(4)
  new DataView(tail.buffer).setUint32(0, footer.length, true)
  body.raw(tail)
  body.raw(MAGIC)
  return body.bytes()
}
