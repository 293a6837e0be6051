/**
 * Where a value sits in a JSON text, found without parsing it: a reject's raw text is the exact
 * characters the service sent for that record (whitespace, key order, `1.0e3` spelled as sent),
 * not the parsed value written again. Only rejects need this, so it runs on their pages alone.
 *
 * The scanner never recurses (a record 200,000 levels deep is a counter, not a call stack) and
 * trusts the text to be JSON: it only runs on texts that `JSON.parse` accepted. Anything it does
 * not expect throws, and the caller falls back to writing the parsed value.
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, isSpace } from "../source/JsonChars.ts"

/** [start, end) of one value in the text. */
export type Span = readonly [start: number, end: number]

/** A container's members: by index for an array, by key for an object (the last of a repeated key, as JSON.parse keeps). */
export type Members = { readonly kind: "array"; readonly spans: ReadonlyArray<Span> } | { readonly kind: "object"; readonly spans: ReadonlyMap<string, Span> }

class NotJson extends Error {
  constructor(text: string, at: number, what: string) {
    super(`JSON scan: ${what} at offset ${at} of ${text.length}`)
  }
}

/** The first index at or after `i` that is not JSON whitespace. */
export const skipSpace = (text: string, i: number): number => {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** Just past the string literal whose opening quote is at `i`. */
const stringEnd = (text: string, i: number): number => {
  const n = text.length
  i++
  while (i < n) {
    const c = text.charCodeAt(i)
    // an escape takes the next character with it, so \" and \\ never end the string
    if (c === BACKSLASH) i += 2
    else if (c === QUOTE) return i + 1
    else i++
  }
  throw new NotJson(text, i, "unterminated string")
}

/** Just past the value starting at `start` (no whitespace before it): a depth counter, no recursion. */
export const valueEnd = (text: string, start: number): number => {
  const n = text.length
  let depth = 0
  let i = start
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      i = stringEnd(text, i)
      if (depth === 0) return i
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++
      i++
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
      i++
      if (depth === 0) return i
      if (depth < 0) throw new NotJson(text, i - 1, "unbalanced bracket")
    } else if (depth === 0) {
      // a number, true, false or null: up to the next delimiter
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === COMMA || d === CLOSE_ARRAY || d === CLOSE_OBJECT || isSpace(d)) break
        i++
      }
      if (i === start) throw new NotJson(text, i, "no value")
      return i
    } else i++
  }
  throw new NotJson(text, i, "unterminated value")
}

/** The members of the array or object starting at `start`. */
export const membersAt = (text: string, start: number): Members => {
  const open = text.charCodeAt(start)
  if (open !== OPEN_ARRAY && open !== OPEN_OBJECT) throw new NotJson(text, start, "no container")
  const close = open === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT
  const items: Span[] = []
  const fields = new Map<string, Span>()
  let i = skipSpace(text, start + 1)
  if (text.charCodeAt(i) !== close) {
    for (;;) {
      let key: string | undefined
      if (open === OPEN_OBJECT) {
        if (text.charCodeAt(i) !== QUOTE) throw new NotJson(text, i, "no key")
        const keyEnd = stringEnd(text, i)
        // a key's escapes (\u0061, \") decode as JSON.parse decodes them
        key = JSON.parse(text.slice(i, keyEnd)) as string
        i = skipSpace(text, keyEnd)
        if (text.charCodeAt(i) !== COLON) throw new NotJson(text, i, "no colon")
        i = skipSpace(text, i + 1)
      }
      const end = valueEnd(text, i)
      if (key === undefined) items.push([i, end])
      else fields.set(key, [i, end])
      i = skipSpace(text, end)
      const c = text.charCodeAt(i)
      if (c === close) break
      if (c !== COMMA) throw new NotJson(text, i, "no comma")
      i = skipSpace(text, i + 1)
    }
  }
  return open === OPEN_ARRAY ? { kind: "array", spans: items } : { kind: "object", spans: fields }
}

/** The span of a member: `key` an index for an array, a name for an object. */
export const memberSpan = (members: Members, key: string | number): Span | undefined =>
  members.kind === "array" ? (typeof key === "number" ? members.spans[key] : undefined) : typeof key === "string" ? members.spans.get(key) : undefined

/**
 * The span of the value at `path` (keys and indexes from the text's top value), or undefined when
 * the path is not in the text. `membersOf` may memoise: a page with several rejects scans each
 * container on their way once.
 */
export const locate = (
  text: string,
  path: ReadonlyArray<string | number>,
  membersOf: (text: string, start: number) => Members = membersAt
): Span | undefined => {
  let start = skipSpace(text, 0)
  // the top value's end is scanned for only when it is the one asked for
  let end: number | undefined
  for (const key of path) {
    const found = memberSpan(membersOf(text, start), key)
    if (found === undefined) return undefined
    ;[start, end] = found
  }
  return [start, end ?? valueEnd(text, start)]
}
