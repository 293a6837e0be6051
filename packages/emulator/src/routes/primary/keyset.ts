/**
 * Keyset paging over a list sorted by a unique key: the cursor is the key of the last item
 * returned, so the next page starts strictly after it — stable when items appear or go between
 * pages, and valid for any page size. Keys are tuples of numbers and strings; amounts travel as
 * fixed-width digit strings so they compare as text.
 */
import type { CursorPage } from "../../http/contract.ts"
import { badRequest } from "../../http/errors.ts"

export type Key = ReadonlyArray<string | number>

export const compareKeys = (a: Key, b: Key): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string | number
    const y = b[i] as string | number
    if (x === y) continue
    if (typeof x === "number" && typeof y === "number") return x - y
    return String(x) < String(y) ? -1 : 1
  }
  return a.length - b.length
}

/** A bigint as a fixed-width decimal string (uint64 fits in 20 digits). */
export const amountKey = (v: bigint): string => v.toString().padStart(24, "0")

/** The key a cursor holds (of `width` parts when given); 400 for anything else. */
export const parseCursor = (cursor: string, width: number | undefined): Key => {
  try {
    const k: unknown = JSON.parse(cursor)
    if (Array.isArray(k) && (width === undefined || k.length === width) && k.length > 0 && k.every((x) => typeof x === "string" || typeof x === "number")) return k as Key
  } catch {
    // reported below with the route-neutral wording
  }
  throw badRequest("invalid page token: its position is not one this listing issued")
}

/**
 * One page of `items` (any order), sorted by key ascending or descending, after the cursor.
 * Sorting here keeps every route's order in one place.
 */
export const keysetPage = <T>(items: ReadonlyArray<T>, keyOf: (t: T) => Key, order: "asc" | "desc", cursor: string | undefined, limit: number): CursorPage<T> => {
  const sign = order === "asc" ? 1 : -1
  const keyed = items.map((item) => ({ item, key: keyOf(item) }))
  keyed.sort((a, b) => sign * compareKeys(a.key, b.key))
  let start = 0
  if (cursor !== undefined) {
    const after = parseCursor(cursor, keyed[0]?.key.length)
    // first item strictly after the cursor in this order (binary search: keys are sorted)
    let lo = 0
    let hi = keyed.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sign * compareKeys((keyed[mid] as { key: Key }).key, after) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  const page = keyed.slice(start, start + limit)
  const more = start + limit < keyed.length
  const last = page[page.length - 1]
  return more && last ? { items: page.map((p) => p.item), nextCursor: JSON.stringify(last.key) } : { items: page.map((p) => p.item) }
}

/** The first position in `sorted` (ascending by key) whose key is past `key` (after it when `strictly`, else at or after it). */
const firstPast = <T>(sorted: ReadonlyArray<T>, keyOf: (t: T) => Key, key: Key, strictly: boolean): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const c = compareKeys(keyOf(sorted[mid] as T), key)
    if (c < 0 || (strictly && c === 0)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * One page of a list already sorted by key ascending (sorted once, not on every page): the items
 * in [from, to] of the key's first part that `keep` accepts, after the cursor, in `order`. A page
 * costs a binary search and the items it walks, whatever the list's size.
 */
export const sortedPage = <T>(
  sorted: ReadonlyArray<T>,
  keyOf: (t: T) => Key,
  order: "asc" | "desc",
  cursor: string | undefined,
  limit: number,
  keep: (t: T) => boolean,
  range: { readonly from?: number | undefined; readonly to?: number | undefined } = {}
): CursorPage<T> => {
  const lo = range.from === undefined ? 0 : firstPast(sorted, keyOf, [range.from], false)
  const hi = range.to === undefined ? sorted.length : firstPast(sorted, keyOf, [range.to + 1], false)
  const width = sorted.length > 0 ? keyOf(sorted[0] as T).length : undefined
  const after = cursor === undefined ? undefined : parseCursor(cursor, width)
  const items: T[] = []
  let more = false
  if (order === "asc") {
    for (let i = after === undefined ? lo : Math.max(lo, firstPast(sorted, keyOf, after, true)); i < hi; i++) {
      if (!keep(sorted[i] as T)) continue
      if (items.length === limit) {
        more = true
        break
      }
      items.push(sorted[i] as T)
    }
  } else {
    for (let i = after === undefined ? hi - 1 : Math.min(hi, firstPast(sorted, keyOf, after, false)) - 1; i >= lo; i--) {
      if (!keep(sorted[i] as T)) continue
      if (items.length === limit) {
        more = true
        break
      }
      items.push(sorted[i] as T)
    }
  }
  const last = items[items.length - 1]
  return more && last !== undefined ? { items, nextCursor: JSON.stringify(keyOf(last)) } : { items }
}
