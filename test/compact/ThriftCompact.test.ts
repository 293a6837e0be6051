/**
 * The compact-protocol walker under ParquetConcat (src/compact/ThriftCompact.ts): a struct copied
 * without edits comes out byte for byte, whatever types it holds; an edit changes that field alone.
 */
import { describe, expect, it } from "vitest"
import { Reader, TType, ThriftError, Writer, copyStruct, editI64 } from "../../src/compact/ThriftCompact.ts"

/** A struct with every compact type: booleans in fields and in a list, a long-form id, nesting. */
const everyType = (): Uint8Array => {
  const w = new Writer()
  w.field(0, 1, TType.TRUE) // field 1: true (the value is the header's type)
  w.field(1, 2, TType.FALSE)
  w.field(2, 3, TType.BYTE)
  w.byte(0x7f)
  w.field(3, 4, TType.I16)
  w.zigzag(-300n)
  w.field(4, 5, TType.I32)
  w.zigzag(2_000_000_000n)
  w.field(5, 30, TType.I64) // a jump of 25: the long form
  w.zigzag(9_007_199_254_740_993n) // past 2^53: exact
  w.field(30, 31, TType.DOUBLE)
  w.raw(new Uint8Array([0, 0, 0, 0, 0, 0, 0xf8, 0x3f]))
  w.field(31, 32, TType.BINARY)
  w.varint(3n)
  w.raw(new TextEncoder().encode("abc"))
  w.field(32, 33, TType.LIST)
  w.listHeader(3, TType.TRUE)
  w.raw(new Uint8Array([1, 2, 1])) // booleans in a collection: a byte each
  w.field(33, 34, TType.LIST)
  w.listHeader(20, TType.I32) // 15 or more: the size follows as a varint
  for (let i = 0; i < 20; i++) w.zigzag(BigInt(i - 10))
  w.field(34, 35, TType.MAP)
  w.varint(2n)
  w.byte((TType.BINARY << 4) | TType.I64)
  for (const [k, v] of [["x", 1n], ["y", -2n]] as const) {
    w.varint(1n)
    w.raw(new TextEncoder().encode(k))
    w.zigzag(v)
  }
  w.field(35, 36, TType.MAP)
  w.varint(0n) // an empty map has no key and value types
  w.field(36, 37, TType.STRUCT)
  w.field(0, 1, TType.I64)
  w.zigzag(42n)
  w.byte(0)
  w.byte(0)
  return w.bytes()
}

describe("copyStruct", () => {
  it("given a struct holding every compact type, when copied without edits, then the copy is byte for byte the struct and the reader ends at its last byte", () => {
    const bytes = everyType()
    const r = new Reader(bytes)
    const w = new Writer()
    copyStruct(r, w, () => undefined)
    expect(Buffer.from(w.bytes()).equals(Buffer.from(bytes))).toBe(true)
    expect(r.pos).toBe(bytes.length)
  })

  it("given an edit of the long-form i64 field, when copied, then that value alone changes, exactly, and the rest reads as before", () => {
    const bytes = everyType()
    const w = new Writer()
    copyStruct(new Reader(bytes), w, (id, type) => (id === 30 && type === TType.I64 ? editI64((v) => v + 1_000_000n) : undefined))
    const copy = w.bytes()
    const values = new Map<number, bigint>()
    const r = new Reader(copy)
    let id = 0
    for (let f = r.field(id); f !== undefined; f = r.field(id)) {
      if (f.type === TType.I64 || f.type === TType.I16 || f.type === TType.I32) values.set(f.id, r.zigzag())
      else r.skip(f.type)
      id = f.id
    }
    expect(values.get(30)).toBe(9_007_199_255_740_993n)
    expect(values.get(4)).toBe(-300n)
    expect(values.get(5)).toBe(2_000_000_000n)
    expect(r.pos).toBe(copy.length)
  })

  it("given bytes cut short inside a value, when read, then a ThriftError says where", () => {
    const bytes = everyType()
    expect(() => copyStruct(new Reader(bytes.subarray(0, 20)), new Writer(), () => undefined)).toThrow(ThriftError)
  })
})
