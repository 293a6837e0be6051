/**
 * Text columns (VARCHAR, BLOB): short ASCII strings are written inline into our copy of the
 * vector's entries; longer ones DuckDB must hold itself, handed over in one native call per vector
 * where every character is ASCII (assignShared), else one call a string; a string repeated within
 * a vector is handed over once.
 */
import duckdb from "@duckdb/node-bindings"
import { type Slot, TWO_32, fail, leaf } from "./Slot.ts"

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
 * tells). Returns the bytes handed over; undefined (nothing assigned) when a character is not
 * ASCII. One native call a string was a noticeable share of a run's main thread
 * (docs/performance.md "Why the code is shaped so").
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

export const stringSlot = (path: string, nullable: boolean): Slot => {
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

export const binarySlot = (path: string, nullable: boolean): Slot => {
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
