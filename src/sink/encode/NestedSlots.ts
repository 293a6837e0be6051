/**
 * Nested columns: a LIST writes its entries (offset, length) and hands every item to its child
 * vector's slot at the end; a STRUCT hands each field to its child vector's slot and refuses a key
 * that is not one of its fields.
 */
import duckdb from "@duckdb/node-bindings"
import { EncodeIssue, Memory, type Slot, Validity, describe } from "./Slot.ts"

/** LIST: entries (offset, length) per value; the items go to the child vector at `end`, in order. */
export const listSlot = (path: string, nullable: boolean, item: Slot): Slot => {
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
export const structSlot = (path: string, nullable: boolean, names: ReadonlyArray<string>, fields: ReadonlyArray<Slot>): Slot => {
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
