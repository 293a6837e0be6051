/**
 * Reading a JSON text's top-level members and an array's elements as slices of the text, without
 * parsing it into values. `--pages-of` (repeatedPages.ts) rewrites records and pages as text so
 * that what it does not touch stays byte for byte what the emulator sent: amounts above 2^53,
 * number spellings, key order.
 */

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

const skipSpace = (text: string, i: number): number => {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** The index just past the string starting at `i` (its opening quote). */
const stringEnd = (text: string, i: number): number => {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (c === 0x5c) j++
    else if (c === 0x22) return j + 1
  }
  throw new Error(`unterminated string at ${i}`)
}

/** The index just past the JSON value starting at `i`. */
export const valueEnd = (text: string, i: number): number => {
  const first = text.charCodeAt(i)
  if (first === 0x22) return stringEnd(text, i)
  if (first === 0x7b || first === 0x5b) {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j)
      if (c === 0x22) j = stringEnd(text, j) - 1
      else if (c === 0x7b || c === 0x5b) depth++
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return j + 1
      }
    }
    throw new Error(`unterminated ${String.fromCharCode(first)} at ${i}`)
  }
  let j = i
  while (j < text.length) {
    const c = text.charCodeAt(j)
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break
    j++
  }
  if (j === i) throw new Error(`no JSON value at ${i}`)
  return j
}

export interface Member {
  readonly key: string
  /** Where the member's text starts (its key's quote) and its value starts and ends. */
  readonly start: number
  readonly valueStart: number
  readonly valueEnd: number
}

/** The members of the object whose text starts at `i` (its "{"), in order. */
export const membersOf = (text: string, i = skipSpace(text, 0)): Member[] => {
  if (text.charCodeAt(i) !== 0x7b) throw new Error(`not a JSON object at ${i}`)
  const members: Member[] = []
  let j = skipSpace(text, i + 1)
  if (text.charCodeAt(j) === 0x7d) return members
  for (;;) {
    const start = j
    const keyEnd = stringEnd(text, j)
    const key = JSON.parse(text.slice(j, keyEnd)) as string
    j = skipSpace(text, keyEnd)
    if (text.charCodeAt(j) !== 0x3a) throw new Error(`expected ':' at ${j}`)
    const valueStart = skipSpace(text, j + 1)
    const end = valueEnd(text, valueStart)
    members.push({ key, start, valueStart, valueEnd: end })
    j = skipSpace(text, end)
    const c = text.charCodeAt(j)
    if (c === 0x7d) return members
    if (c !== 0x2c) throw new Error(`expected ',' or '}' at ${j}`)
    j = skipSpace(text, j + 1)
  }
}

/** The elements of the array whose text is text[start, end) (its "[" to past its "]"), as texts. */
export const elementsOf = (text: string, start: number, end: number): string[] => {
  const elements: string[] = []
  let j = skipSpace(text, start + 1)
  if (text.charCodeAt(j) === 0x5d) return elements
  while (j < end) {
    const e = valueEnd(text, j)
    elements.push(text.slice(j, e))
    j = skipSpace(text, e)
    if (text.charCodeAt(j) === 0x5d) return elements
    if (text.charCodeAt(j) !== 0x2c) throw new Error(`expected ',' or ']' at ${j}`)
    j = skipSpace(text, j + 1)
  }
  throw new Error(`unterminated array at ${start}`)
}

/** A top-level member's value when it is a string; undefined when absent or of another type. */
export const topLevelString = (objectText: string, key: string): string | undefined => {
  const m = membersOf(objectText).find((x) => x.key === key)
  return m === undefined || objectText.charCodeAt(m.valueStart) !== 0x22 ? undefined : (JSON.parse(objectText.slice(m.valueStart, m.valueEnd)) as string)
}
