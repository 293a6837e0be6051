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
 * them again per vector and walks them in JavaScript at flush. On staking_transactions (UTXO
 * lists of 22-field structs) that was a third of the main thread's busy time, besides its
 * garbage (`npm run bench -- --cpu-prof`); the stores below are what it ends with anyway.
 */
import { quotedIdentifier, type DuckDBDataChunk, type DuckDBType } from "@duckdb/node-api"
import duckdb from "@duckdb/node-bindings"
import * as arrow from "../ArrowTypes.ts"
import type { Row } from "../../schemas/common.ts"
import { duckTypeOf } from "./DuckTypes.ts"

/** A value that does not fit its column; `column` is a dotted path such as `outputs[].amount`. */
export class EncodeIssue extends Error {
  constructor(
    readonly column: string,
    readonly detail: string,
    readonly row?: number
  ) {
    super(`${row === undefined ? "" : `row ${row}, `}column ${column}: ${detail}`)
  }
}

const MS_PER_DAY = 86_400_000
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/
const MAX_INT64 = 2n ** 63n - 1n
const MIN_INT64 = -(2n ** 63n)
/** Epoch milliseconds whose microseconds are still exact as a JS number (±2^53 µs: 1685 to 2255). */
const MAX_EXACT_MS = Math.floor(2 ** 53 / 1000)
const TWO_32 = 2 ** 32

const describe = (value: unknown): string => {
  if (typeof value === "bigint") return `${value}n`
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? "Invalid" : value.toISOString()})`
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
  if (Array.isArray(value)) return "an array"
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`
}

/**
 * Fills one vector. `begin` points it at a vector that will hold `n` values, `set` stores value
 * `i` (null or undefined: a NULL, refused where the field is not nullable; `row` names the row in
 * errors), `nul` stores a NULL whatever the field says (the children of a NULL struct), `end`
 * copies what was stored into the vector (a list writes its items into its child vector there).
 * A writer holds its vector between `begin` and `end`: a chunk is filled in one synchronous call,
 * so writers shared by the parts of one schema never interleave.
 */
interface Slot {
  readonly begin: (vector: duckdb.Vector, n: number) => void
  readonly set: (i: number, value: unknown, row: number) => void
  readonly nul: (i: number) => void
  /** Hands the vector its values; returns the bytes handed over (the part's size: OpenPart). */
  readonly end: () => number
}

/**
 * A vector's memory as the bindings let JavaScript write it: a buffer of ours, copied into the
 * vector at the end (`vector_get_data` hands out a copy, not the vector's memory). Kept from
 * chunk to chunk, grown when a list's items need more.
 */
class Memory {
  buffer = new ArrayBuffer(0)
  /** At least `bytes` long; a new buffer (so new views) when it had to grow. */
  ensure(bytes: number): ArrayBuffer {
    if (this.buffer.byteLength < bytes) this.buffer = new ArrayBuffer(Math.max(bytes, 2 * this.buffer.byteLength))
    return this.buffer
  }
}

/**
 * A vector's validity mask (64 rows a word), written only when it holds a NULL: a chunk's reset
 * makes every vector valid again, its lists' items included (test/sink/rowEncoder.test.ts writes
 * NULLs in one chunk and none in the next).
 */
class Validity {
  private readonly memory = new Memory()
  private vector: duckdb.Vector | undefined
  private bytes = 0
  private mask: Uint8Array | undefined
  begin(vector: duckdb.Vector, n: number) {
    this.vector = vector
    this.bytes = Math.ceil(n / 64) * 8
    this.mask = undefined
  }
  private allocate(): Uint8Array {
    this.mask = new Uint8Array(this.memory.ensure(this.bytes), 0, this.bytes).fill(0xff)
    return this.mask
  }
  clear(i: number) {
    const mask = this.mask ?? this.allocate()
    mask[i >> 3]! &= ~(1 << (i & 7))
  }
  end() {
    if (this.mask === undefined) return
    duckdb.vector_ensure_validity_writable(this.vector!)
    duckdb.copy_data_to_vector_validity(this.vector!, 0, this.mask.buffer as ArrayBuffer, 0, this.bytes)
  }
}

/**
 * A writer of a leaf type of `width` bytes a value: `views` makes its typed views of the buffer
 * for `n` values, `store` checks a value (with the value path's wording) and writes it at `i`,
 * `after` runs once the buffer is in the vector (strings DuckDB must hold itself) and returns the
 * bytes it handed over.
 */
const leaf = (
  path: string,
  nullable: boolean,
  width: number,
  views: (buffer: ArrayBuffer, n: number) => void,
  store: (i: number, value: unknown, row: number) => void,
  after?: (vector: duckdb.Vector) => number
): Slot => {
  const memory = new Memory()
  const validity = new Validity()
  let vector: duckdb.Vector
  let n = 0
  return {
    begin: (v, count) => {
      vector = v
      n = count
      validity.begin(v, count)
      views(memory.ensure(count * width), count)
    },
    set: (i, v, row) => {
      if (v === null || v === undefined) {
        if (!nullable) throw new EncodeIssue(path, "is null but the field is not nullable", row)
        validity.clear(i)
        return
      }
      store(i, v, row)
    },
    nul: (i) => validity.clear(i),
    end: () => {
      if (n > 0) duckdb.copy_data_to_vector(vector, 0, memory.buffer, 0, n * width)
      validity.end()
      return n * width + (after?.(vector) ?? 0)
    }
  }
}

const fail = (path: string, value: unknown, want: string, row: number): never => {
  throw new EncodeIssue(path, `expected ${want}, got ${describe(value)}`, row)
}

/** Writes an int128 (a DECIMAL's unscaled value past 18 digits) at `i`: lower 64 bits unsigned, then upper signed. */
const store128 = (words: BigInt64Array, i: number, v: bigint) => {
  if (v >= MIN_INT64 && v <= MAX_INT64) {
    // within int64 the lower word's bits are the value's own, the upper word its sign
    words[2 * i] = v
    words[2 * i + 1] = v < 0n ? -1n : 0n
  } else {
    words[2 * i] = BigInt.asIntN(64, v)
    words[2 * i + 1] = v >> 64n
  }
}

/** Writes epoch microseconds as int64 at `i`, from a number that is exact (|µs| ≤ 2^53) without a bigint. */
const storeMicros = (lo: Uint32Array, hi: Int32Array, i: number, micros: number) => {
  const high = Math.floor(micros / TWO_32)
  lo[2 * i] = micros - high * TWO_32
  hi[2 * i + 1] = high
}

/** A column where fewer repeats than this share of its long strings stops looking for them. */
const MIN_REPEAT_SHARE = 0.25

/** Fewer long strings than this in a vector are assigned one by one (assignShared costs two copies of the entries). */
const MIN_SHARED_HEAP = 8

/**
 * Hands DuckDB a vector's long strings (over 12 bytes: not inline) in one native call instead of
 * one a string: their text joined is assigned to the first one's slot, which copies it into the
 * vector's string heap, and every long entry is then written in `words`/`bytes` (our copy of the
 * entries, handed over again by the caller) as DuckDB's own non-inline string_t: length (4 bytes),
 * the first 4 bytes (the prefix comparisons read), a pointer into that one text. The pointer is
 * read back from the first slot's entry. Only when every character is ASCII, so characters are
 * bytes and offsets add up (a Latin-1 character above 0x7f takes two UTF-8 bytes: byteLength
 * tells). Returns the bytes handed over; undefined (nothing assigned) when a character is not ASCII. One call a string was 7 % of a primary_blocks
 * run's main thread (~0.45 µs a call, ~8 long strings a row: README "Performance").
 */
const assignShared = (
  vector: duckdb.Vector,
  words: Uint32Array,
  bytes: Uint8Array,
  longAt: ReadonlyArray<number>,
  longText: ReadonlyArray<string>
): number | undefined => {
  const text = longText.join("")
  if (Buffer.byteLength(text, "utf8") !== text.length) return undefined
  const first = longAt[0]!
  duckdb.vector_assign_string_element(vector, first, text)
  // the bindings hand the entries out as a Buffer, whose slice is a view of a larger buffer: read in place
  const entries = duckdb.vector_get_data(vector, (first + 1) * 16)
  const entry = new DataView(entries.buffer, entries.byteOffset + first * 16, 16)
  const baseLo = entry.getUint32(8, true)
  const baseHi = entry.getUint32(12, true)
  let offset = 0
  for (let k = 0; k < longAt.length; k++) {
    const i = longAt[k]!
    const s = longText[k]!
    const at = i * 16
    words[i * 4] = s.length
    bytes[at + 4] = s.charCodeAt(0)
    bytes[at + 5] = s.charCodeAt(1)
    bytes[at + 6] = s.charCodeAt(2)
    bytes[at + 7] = s.charCodeAt(3)
    const lo = baseLo + offset
    words[i * 4 + 2] = lo >>> 0
    words[i * 4 + 3] = baseHi + (lo >= TWO_32 ? 1 : 0)
    offset += s.length
  }
  return text.length
}

const stringSlot = (path: string, nullable: boolean): Slot => {
  let n = 0
  let bytes: Uint8Array
  let words: Uint32Array
  // the strings DuckDB must hold itself, assigned once the buffer is in the vector
  let longAt: number[] = []
  let longText: string[] = []
  // a string met again in the same vector (an asset id, a chain id, the tx's own hash in each of
  // its UTXOs) is not assigned again: its 16 bytes are those of its first copy, pointing at the
  // same text in the vector's string heap. Columns of distinct values (UTXO ids) stop looking.
  let lookForRepeats = true
  const firstAt = new Map<string, number>()
  let repeatAt: number[] = []
  let repeatOf: number[] = []
  /** Makes each repeat's entry a copy of its first's, in `entries` (n entries of 16 bytes). */
  const copyRepeats = (entries: Uint8Array) => {
    for (let k = 0; k < repeatAt.length; k++) entries.copyWithin(repeatAt[k]! * 16, repeatOf[k]! * 16, repeatOf[k]! * 16 + 16)
  }
  /** Ends the vector: whether to go on looking for repeats, and the state let go. */
  const finish = (held: number): number => {
    const long = longAt.length + repeatAt.length
    if (lookForRepeats && long >= 64 && repeatAt.length < MIN_REPEAT_SHARE * long) lookForRepeats = false
    longAt = []
    longText = []
    firstAt.clear()
    return held
  }
  return leaf(
    path,
    nullable,
    16,
    (buffer, count) => {
      n = count
      // zeroed: a NULL's entry is never written, and a pointer entry an earlier vector left in our
      // buffer (assignShared) would point into a string heap already freed, should DuckDB read it
      bytes = new Uint8Array(buffer, 0, n * 16).fill(0)
      words = new Uint32Array(buffer, 0, n * 4)
      longAt = []
      longText = []
      firstAt.clear()
      repeatAt = []
      repeatOf = []
    },
    (i, v, row) => {
      if (typeof v !== "string") return fail(path, v, "a string", row)
      const length = v.length
      // up to 12 bytes a DuckDB string is held inline (length, then the bytes, zero-padded): an
      // ASCII one is written here, without a native call; any other is assigned by DuckDB
      if (length <= 12) {
        const at = i * 16 + 4
        let k = 0
        for (; k < length; k++) {
          const c = v.charCodeAt(k)
          if (c >= 0x80) break
          bytes[at + k] = c
        }
        if (k === length) {
          words[i * 4] = length
          bytes.fill(0, at + length, at + 12)
          return
        }
      }
      if (lookForRepeats) {
        const first = firstAt.get(v)
        if (first !== undefined) {
          repeatAt.push(i)
          repeatOf.push(first)
          return
        }
        firstAt.set(v, i)
      }
      longAt.push(i)
      longText.push(v)
    },
    (vector) => {
      // a string's characters stand for its bytes: the ids and amounts it holds are ASCII
      const shared = longAt.length >= MIN_SHARED_HEAP ? assignShared(vector, words, bytes, longAt, longText) : undefined
      if (shared !== undefined) {
        // the entries point into one text: written in our buffer, repeats copied from them, handed over again
        copyRepeats(bytes)
        duckdb.copy_data_to_vector(vector, 0, bytes.buffer as ArrayBuffer, 0, n * 16)
        return finish(shared)
      }
      let held = 0
      for (let k = 0; k < longAt.length; k++) {
        duckdb.vector_assign_string_element(vector, longAt[k]!, longText[k]!)
        held += longText[k]!.length
      }
      if (repeatAt.length > 0) {
        // the vector's entries as they are now (a copy), the repeats made copies of their first, back in one go
        const entries = duckdb.vector_get_data(vector, n * 16)
        copyRepeats(entries)
        duckdb.copy_data_to_vector(vector, 0, entries.buffer as ArrayBuffer, entries.byteOffset, n * 16)
      }
      return finish(held)
    }
  )
}

const binarySlot = (path: string, nullable: boolean): Slot => {
  let at: number[] = []
  let blobs: Uint8Array[] = []
  return leaf(
    path,
    nullable,
    16,
    () => {
      at = []
      blobs = []
    },
    (i, v, row) => {
      if (!(v instanceof Uint8Array)) return fail(path, v, "a Uint8Array", row)
      at.push(i)
      blobs.push(v)
    },
    (vector) => {
      let held = 0
      for (let k = 0; k < at.length; k++) {
        duckdb.vector_assign_string_element_len(vector, at[k]!, blobs[k]!)
        held += blobs[k]!.length
      }
      at = []
      blobs = []
      return held
    }
  )
}

const boolSlot = (path: string, nullable: boolean): Slot => {
  let data: Uint8Array
  return leaf(
    path,
    nullable,
    1,
    (buffer, n) => {
      data = new Uint8Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (typeof v !== "boolean") return fail(path, v, "a boolean", row)
      data[i] = v ? 1 : 0
    }
  )
}

const int32Slot = (path: string, nullable: boolean): Slot => {
  let data: Int32Array
  return leaf(
    path,
    nullable,
    4,
    (buffer, n) => {
      data = new Int32Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (typeof v !== "number" || (v | 0) !== v) return fail(path, v, "an integer number within int32", row)
      data[i] = v
    }
  )
}

const int64Slot = (path: string, nullable: boolean): Slot => {
  let data: BigInt64Array
  return leaf(
    path,
    nullable,
    8,
    (buffer, n) => {
      data = new BigInt64Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (typeof v !== "bigint" || v > MAX_INT64 || v < MIN_INT64) return fail(path, v, "a bigint within int64", row)
      data[i] = v
    }
  )
}

const doubleSlot = (path: string, nullable: boolean): Slot => {
  let data: Float64Array
  return leaf(
    path,
    nullable,
    8,
    (buffer, n) => {
      data = new Float64Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (typeof v !== "number") return fail(path, v, "a number", row)
      data[i] = v
    }
  )
}

/** DECIMAL(p,s): the bigint is the unscaled value; DuckDB holds it in 2, 4, 8 or 16 bytes by precision. */
const decimalSlot = (path: string, nullable: boolean, type: arrow.Decimal): Slot => {
  const { precision, scale } = type
  const max = 10n ** BigInt(precision) - 1n
  const want = `a bigint with at most ${precision} digits${scale === 0 ? "" : ` (scaled by 10^${scale})`}`
  const check = (v: unknown, row: number): bigint =>
    typeof v === "bigint" && v <= max && v >= -max ? v : fail(path, v, want, row)
  if (precision > 18) {
    let words: BigInt64Array
    return leaf(
      path,
      nullable,
      16,
      (buffer, n) => {
        words = new BigInt64Array(buffer, 0, 2 * n)
      },
      (i, v, row) => store128(words, i, check(v, row))
    )
  }
  if (precision > 9) {
    let data: BigInt64Array
    return leaf(
      path,
      nullable,
      8,
      (buffer, n) => {
        data = new BigInt64Array(buffer, 0, n)
      },
      (i, v, row) => {
        data[i] = check(v, row)
      }
    )
  }
  let data: Int32Array | Int16Array
  return leaf(
    path,
    nullable,
    precision > 4 ? 4 : 2,
    (buffer, n) => {
      data = precision > 4 ? new Int32Array(buffer, 0, n) : new Int16Array(buffer, 0, n)
    },
    (i, v, row) => {
      data[i] = Number(check(v, row))
    }
  )
}

/** TIMESTAMPTZ: a Date (milliseconds) or bigint epoch-microseconds within int64. */
const timestampSlot = (path: string, nullable: boolean): Slot => {
  let lo: Uint32Array
  let hi: Int32Array
  let data: BigInt64Array
  return leaf(
    path,
    nullable,
    8,
    (buffer, n) => {
      lo = new Uint32Array(buffer, 0, 2 * n)
      hi = new Int32Array(buffer, 0, 2 * n)
      data = new BigInt64Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (v instanceof Date) {
        const ms = v.getTime()
        if (Number.isNaN(ms)) return fail(path, v, "a valid Date", row)
        // a bigint per value only where a number's microseconds would not be exact
        if (ms <= MAX_EXACT_MS && ms >= -MAX_EXACT_MS) storeMicros(lo, hi, i, ms * 1000)
        else data[i] = BigInt(ms) * 1000n
        return
      }
      if (typeof v !== "bigint" || v > MAX_INT64 || v < MIN_INT64) return fail(path, v, "a Date or bigint epoch-microseconds", row)
      data[i] = v
    }
  )
}

/** DATE: a Date (its UTC day) or "YYYY-MM-DD". */
const dateSlot = (path: string, nullable: boolean): Slot => {
  let data: Int32Array
  // the last text and its day: a part's rows come in time order, so a date repeats row after row
  // (checking one cost a regex, a Date and its ISO text: 79 ms of a primary_blocks 100k run)
  let lastText: string | undefined
  let lastDay = 0
  return leaf(
    path,
    nullable,
    4,
    (buffer, n) => {
      data = new Int32Array(buffer, 0, n)
    },
    (i, v, row) => {
      if (v instanceof Date) {
        const ms = v.getTime()
        if (Number.isNaN(ms)) return fail(path, v, "a valid Date", row)
        data[i] = Math.floor(ms / MS_PER_DAY)
        return
      }
      if (v === lastText) {
        data[i] = lastDay
        return
      }
      const m = typeof v === "string" ? DATE_TEXT.exec(v) : null
      if (m === null) return fail(path, v, 'a Date or "YYYY-MM-DD"', row)
      const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
      // Date.UTC rolls 2024-02-30 over to March; a round trip catches it
      if (new Date(ms).toISOString().slice(0, 10) !== v) return fail(path, v, "an existing calendar day", row)
      lastText = v as string
      lastDay = ms / MS_PER_DAY
      data[i] = lastDay
    }
  )
}

/** LIST: entries (offset, length) per value; the items go to the child vector at `end`, in order. */
const listSlot = (path: string, nullable: boolean, item: Slot): Slot => {
  const memory = new Memory()
  const validity = new Validity()
  let vector: duckdb.Vector
  let n = 0
  let entries: Uint32Array
  let items: unknown[] = []
  let rows: number[] = []
  const empty = (i: number) => entries.fill(0, 4 * i, 4 * i + 4)
  return {
    begin: (v, count) => {
      vector = v
      n = count
      validity.begin(v, count)
      entries = new Uint32Array(memory.ensure(16 * count), 0, 4 * count)
      items = []
      rows = []
    },
    set: (i, v, row) => {
      if (v === null || v === undefined) {
        if (!nullable) throw new EncodeIssue(path, "is null but the field is not nullable", row)
        validity.clear(i)
        empty(i)
        return
      }
      if (!Array.isArray(v)) throw new EncodeIssue(path, `expected an array, got ${describe(v)}`, row)
      // list_entry_t: uint64 offset, uint64 length (a chunk's items stay far below 2^32)
      entries[4 * i] = items.length
      entries[4 * i + 1] = 0
      entries[4 * i + 2] = v.length
      entries[4 * i + 3] = 0
      for (let k = 0; k < v.length; k++) {
        items.push(v[k])
        rows.push(row)
      }
    },
    nul: (i) => {
      validity.clear(i)
      empty(i)
    },
    end: () => {
      const total = items.length
      duckdb.list_vector_reserve(vector, total)
      duckdb.list_vector_set_size(vector, total)
      item.begin(duckdb.list_vector_get_child(vector), total)
      for (let k = 0; k < total; k++) item.set(k, items[k], rows[k]!)
      const held = item.end()
      items = []
      rows = []
      if (n > 0) duckdb.copy_data_to_vector(vector, 0, memory.buffer, 0, 16 * n)
      validity.end()
      return 16 * n + held
    }
  }
}

/** STRUCT: a plain object with exactly these fields (a missing key is null). */
const structSlot = (path: string, nullable: boolean, names: ReadonlyArray<string>, fields: ReadonlyArray<Slot>): Slot => {
  const validity = new Validity()
  const known = new Set(names)
  const nulls = (i: number) => {
    validity.clear(i)
    for (const f of fields) f.nul(i)
  }
  return {
    begin: (v, n) => {
      validity.begin(v, n)
      for (let k = 0; k < fields.length; k++) fields[k]!.begin(duckdb.struct_vector_get_child(v, k), n)
    },
    set: (i, v, row) => {
      if (v === null || v === undefined) {
        if (!nullable) throw new EncodeIssue(path, "is null but the field is not nullable", row)
        nulls(i)
        return
      }
      if (typeof v !== "object" || Array.isArray(v)) throw new EncodeIssue(path, `expected an object, got ${describe(v)}`, row)
      const record = v as Record<string, unknown>
      for (const key in record) if (!known.has(key)) throw new EncodeIssue(`${path}.${key}`, "is not a field of the schema", row)
      for (let k = 0; k < fields.length; k++) fields[k]!.set(i, record[names[k]!], row)
    },
    nul: nulls,
    end: () => {
      let held = 0
      for (const f of fields) held += f.end()
      validity.end()
      return held
    }
  }
}

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
