/**
 * How one column's vector of a DuckDB data chunk is filled from JavaScript values (RowEncoder.ts
 * compiles one Slot per column): the Slot contract, a vector's memory and validity mask, the leaf
 * writer every fixed-width and text column is made of, and the error a value that does not fit
 * its column raises.
 */
import duckdb from "@duckdb/node-bindings"

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

export const TWO_32 = 2 ** 32

export const describe = (value: unknown): string => {
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
export interface Slot {
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
export class Memory {
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
export class Validity {
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
export const leaf = (
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

export const fail = (path: string, value: unknown, want: string, row: number): never => {
  throw new EncodeIssue(path, `expected ${want}, got ${describe(value)}`, row)
}
