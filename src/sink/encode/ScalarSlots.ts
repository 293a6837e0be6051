/**
 * Fixed-width columns, each value checked and stored in the column's own type: BOOLEAN, INTEGER,
 * BIGINT, DOUBLE, DECIMAL (its unscaled value in 2, 4, 8 or 16 bytes), TIMESTAMPTZ (epoch
 * microseconds) and DATE (days). A JS number is refused where the column holds a bigint, and a
 * value out of its type's range is refused, never wrapped.
 */
import type * as arrow from "../../ArrowTypes.ts"
import { type Slot, TWO_32, fail, leaf } from "./Slot.ts"

const MS_PER_DAY = 86_400_000
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/
export const MAX_INT64 = 2n ** 63n - 1n
export const MIN_INT64 = -(2n ** 63n)
/** Epoch milliseconds whose microseconds are still exact as a JS number (±2^53 µs: 1685 to 2255). */
const MAX_EXACT_MS = Math.floor(2 ** 53 / 1000)

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

export const boolSlot = (path: string, nullable: boolean): Slot => {
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

export const int32Slot = (path: string, nullable: boolean): Slot => {
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

export const int64Slot = (path: string, nullable: boolean): Slot => {
  const check = int64Check(path)
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

export const doubleSlot = (path: string, nullable: boolean): Slot => {
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

/** A DECIMAL(p,s) column's check: its value is the unscaled bigint, at most p digits (SmallParquet.ts checks so too). */
export const decimalCheck = (path: string, type: arrow.Decimal): ((v: unknown, row: number) => bigint) => {
  const { precision, scale } = type
  const max = 10n ** BigInt(precision) - 1n
  const want = `a bigint with at most ${precision} digits${scale === 0 ? "" : ` (scaled by 10^${scale})`}`
  return (v, row) => (typeof v === "bigint" && v <= max && v >= -max ? v : fail(path, v, want, row))
}

/** A BIGINT column's check: a bigint within int64, never a JS number. */
export const int64Check = (path: string) => (v: unknown, row: number): bigint =>
  typeof v !== "bigint" || v > MAX_INT64 || v < MIN_INT64 ? fail(path, v, "a bigint within int64", row) : v

/** DECIMAL(p,s): the bigint is the unscaled value; DuckDB holds it in 2, 4, 8 or 16 bytes by precision. */
export const decimalSlot = (path: string, nullable: boolean, type: arrow.Decimal): Slot => {
  const { precision } = type
  const check = decimalCheck(path, type)
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
export const timestampSlot = (path: string, nullable: boolean): Slot => {
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

/** A DATE's day number from a Date (its UTC day) or "YYYY-MM-DD" (SmallParquet.ts reads them so too). */
export const dayOf = (path: string, v: unknown, row: number): number => {
  if (v instanceof Date) {
    const ms = v.getTime()
    return Number.isNaN(ms) ? fail(path, v, "a valid Date", row) : Math.floor(ms / MS_PER_DAY)
  }
  const m = typeof v === "string" ? DATE_TEXT.exec(v) : null
  if (m === null) return fail(path, v, 'a Date or "YYYY-MM-DD"', row)
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  // Date.UTC rolls 2024-02-30 over to March; a round trip catches it
  if (new Date(ms).toISOString().slice(0, 10) !== v) return fail(path, v, "an existing calendar day", row)
  return ms / MS_PER_DAY
}

/** DATE: a Date (its UTC day) or "YYYY-MM-DD". */
export const dateSlot = (path: string, nullable: boolean): Slot => {
  let data: Int32Array
  // the last text and its day: a part's rows come in time order, so a date repeats row after row
  // (checking one costs a regex, a Date and its ISO text)
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
      if (v === lastText) {
        data[i] = lastDay
        return
      }
      const day = dayOf(path, v, row)
      if (typeof v === "string") {
        lastText = v
        lastDay = day
      }
      data[i] = day
    }
  )
}
