/**
 * Just enough of Thrift's compact protocol to edit a Parquet footer in place: read a struct's
 * fields, copy every value it is not told to change byte for byte, and write the few it changes.
 *
 * Why not decode the footer into objects and encode it again (parquetjs-lite's generated Thrift
 * classes, hyparquet): a decoder drops what its definitions do not know, and DuckDB's footers hold
 * fields newer than parquetjs-lite's (`Statistics.min_value`/`max_value`, bloom filter offsets, size
 * statistics). Dropping the statistics would cost readers their row-group skipping; copying what is
 * not edited keeps every field, known or not.
 *
 * The protocol (thrift/doc/specs/thrift-compact-protocol.md): a field is a header byte (id delta in
 * the high nibble, type in the low one; delta 0: a zigzag varint id follows) and its value; a struct
 * ends with a 0 byte; integers are zigzag varints; a boolean field's value is its header's type.
 */

export const TType = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12
} as const

export class ThriftError extends Error {}

/** A cursor over compact-protocol bytes. */
export class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0
  ) {}

  byte(): number {
    if (this.pos >= this.bytes.length) throw new ThriftError(`footer ends inside a value at byte ${this.pos}`)
    return this.bytes[this.pos++]!
  }

  /** An unsigned varint, as a bigint: i64 offsets and sizes stay exact. */
  varint(): bigint {
    let v = 0n
    let shift = 0n
    for (;;) {
      const b = this.byte()
      v |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return v
      shift += 7n
      if (shift > 70n) throw new ThriftError(`varint too long at byte ${this.pos}`)
    }
  }

  zigzag(): bigint {
    const v = this.varint()
    return (v >> 1n) ^ -(v & 1n)
  }

  /** The next field's id and type; undefined at the struct's end (its stop byte is read). */
  field(lastId: number): { readonly id: number; readonly type: number } | undefined {
    const b = this.byte()
    if (b === 0) return undefined
    const type = b & 0x0f
    const delta = b >> 4
    return { id: delta === 0 ? Number(this.zigzag()) : lastId + delta, type }
  }

  /**
   * Reads a struct's fields to its end: `visit` gets each field's id, type and the id before it
   * (0 for the first), and must read the field's value.
   */
  eachField(visit: (id: number, type: number, previous: number) => void): void {
    let id = 0
    for (let f = this.field(id); f !== undefined; f = this.field(id)) {
      visit(f.id, f.type, id)
      id = f.id
    }
  }

  /** Moves past one value of `type`; `inCollection`: a boolean is a byte of its own there. */
  skip(type: number, inCollection = false): void {
    switch (type) {
      case TType.TRUE:
      case TType.FALSE:
        if (inCollection) this.byte()
        return
      case TType.BYTE:
        this.byte()
        return
      case TType.I16:
      case TType.I32:
      case TType.I64:
        this.varint()
        return
      case TType.DOUBLE:
        this.advance(8)
        return
      case TType.BINARY:
        this.advance(Number(this.varint()))
        return
      case TType.LIST:
      case TType.SET: {
        const { size, type: element } = this.listHeader()
        for (let i = 0; i < size; i++) this.skip(element, true)
        return
      }
      case TType.MAP: {
        const size = Number(this.varint())
        if (size === 0) return
        const kinds = this.byte()
        for (let i = 0; i < size; i++) {
          this.skip(kinds >> 4, true)
          this.skip(kinds & 0x0f, true)
        }
        return
      }
      case TType.STRUCT:
        this.eachField((_id, type) => this.skip(type))
        return
      default:
        throw new ThriftError(`unknown compact type ${type} at byte ${this.pos}`)
    }
  }

  listHeader(): { readonly size: number; readonly type: number } {
    const b = this.byte()
    const short = b >> 4
    return { size: short === 15 ? Number(this.varint()) : short, type: b & 0x0f }
  }

  private advance(n: number): void {
    if (n < 0 || this.pos + n > this.bytes.length) throw new ThriftError(`footer ends inside a value at byte ${this.pos}`)
    this.pos += n
  }
}

/** Growing output in the compact protocol. */
export class Writer {
  private chunks: Uint8Array[] = []
  private current: Uint8Array
  private at = 0

  /** `size`: the first buffer's bytes (a writer of small values starts small). */
  constructor(size = 4096) {
    this.current = new Uint8Array(size)
  }

  byte(b: number): void {
    if (this.at === this.current.length) {
      this.chunks.push(this.current)
      this.current = new Uint8Array(this.current.length * 2)
      this.at = 0
    }
    this.current[this.at++] = b
  }

  raw(bytes: Uint8Array): void {
    if (this.at + bytes.length > this.current.length) {
      this.chunks.push(this.current.subarray(0, this.at))
      this.current = new Uint8Array(Math.max(this.current.length * 2, bytes.length))
      this.at = 0
    }
    this.current.set(bytes, this.at)
    this.at += bytes.length
  }

  varint(v: bigint): void {
    if (v < 0n) throw new ThriftError(`varint of a negative value ${v}`)
    do {
      const low = Number(v & 0x7fn)
      v >>= 7n
      this.byte(v === 0n ? low : low | 0x80)
    } while (v !== 0n)
  }

  zigzag(v: bigint): void {
    this.varint(v >= 0n ? v << 1n : ((-v) << 1n) - 1n)
  }

  /** `varint` of a safe integer ≥ 0, without bigints (a small file's footer writes thousands). */
  varintN(v: number): void {
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80)
      v = Math.floor(v / 0x80)
    }
    this.byte(v)
  }

  /** `zigzag` of a safe integer whose double is safe too. */
  zigzagN(v: number): void {
    this.varintN(v >= 0 ? 2 * v : -2 * v - 1)
  }

  /** A field header after the field `lastId`. */
  field(lastId: number, id: number, type: number): void {
    const delta = id - lastId
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type)
    else {
      this.byte(type)
      this.zigzag(BigInt(id))
    }
  }

  listHeader(size: number, type: number): void {
    if (size < 15) this.byte((size << 4) | type)
    else {
      this.byte(0xf0 | type)
      this.varint(BigInt(size))
    }
  }

  /** Bytes written so far. */
  get length(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0) + this.at
  }

  /** What was written; a view of the writer's buffer when it is one (write nothing more after). */
  bytes(): Uint8Array {
    if (this.chunks.length === 0) return this.current.subarray(0, this.at)
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.length, 0) + this.at)
    let o = 0
    for (const c of this.chunks) {
      out.set(c, o)
      o += c.length
    }
    out.set(this.current.subarray(0, this.at), o)
    return out
  }
}

/**
 * What to do with a field of a struct being copied: undefined copies it as it is; a function
 * writes its value instead (the header is written already), reading the old one from `r`.
 */
export type FieldEdit = (id: number, type: number) => ((r: Reader, w: Writer) => void) | undefined

/** Copies the struct at `r` to `w`, field by field, editing what `edit` picks. */
export const copyStruct = (r: Reader, w: Writer, edit: FieldEdit): void => {
  r.eachField((id, type, previous) => {
    w.field(previous, id, type)
    const change = edit(id, type)
    if (change !== undefined) change(r, w)
    else {
      const from = r.pos
      r.skip(type)
      w.raw(r.bytes.subarray(from, r.pos))
    }
  })
  w.byte(0)
}

/** Copies a list of structs, editing each element's fields with `edit(index)`. */
export const copyStructList = (r: Reader, w: Writer, edit: (index: number) => FieldEdit): void => {
  const { size, type } = r.listHeader()
  if (type !== TType.STRUCT) throw new ThriftError(`expected a list of structs, got element type ${type}`)
  w.listHeader(size, type)
  for (let i = 0; i < size; i++) copyStruct(r, w, edit(i))
}

/** A field edit that rewrites an i64 through `f`. */
export const editI64 = (f: (v: bigint) => bigint) => (r: Reader, w: Writer): void => w.zigzag(f(r.zigzag()))
