/**
 * A rejected record's raw text, exactly as the service sent it: the characters of that record in
 * the body it came in (whitespace, key order, `1.0e3`, escapes as they were), never the parsed
 * value written again. Built per page from the answers the page was made of (PageSources.ts) and
 * only when the page has a reject: valid pages never get here.
 *
 * How a record is found: the answers' texts are registered with them (SourceText.ts); the answers
 * are walked, a few levels deep, to learn where each container sits; the record's path is then
 * followed through its body's text by a structural scan (JsonScan.ts). A record a listing built
 * itself (a wrapper around a node's answer, a page's fields beside an item) is written as JSON
 * with every part the service sent spliced in as sent; one built from nothing the service sent as
 * JSON (a 404's key) is written as before.
 */
import { type Origin, originOf } from "../source/SourceText.ts"
import { jsonText } from "./JsonText.ts"
import { type Members, locate, membersAt } from "./JsonScan.ts"

/**
 * How deep below an answer containers are looked for: a page's items are two levels down (body,
 * array, record), a wrapped record's parts three or four. Deeper ones are found through them.
 */
const MAX_DEPTH = 4

interface Place {
  /** The container holding it; undefined for an answer itself. */
  readonly up: object | undefined
  readonly key: string | number
  /** An answer's origin (only on an answer's place). */
  readonly origin?: Origin
}

const placesOf = (sources: ReadonlyArray<unknown>): Map<object, Place> => {
  const places = new Map<object, Place>()
  for (const source of sources) {
    const origin = originOf(source)
    if (origin === undefined || places.has(source as object)) continue
    places.set(source as object, { up: undefined, key: 0, origin })
    const stack: Array<readonly [object, number]> = [[source as object, 0]]
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!
      if (depth >= MAX_DEPTH) continue
      const visit = (v: unknown, key: string | number) => {
        if (typeof v !== "object" || v === null || places.has(v)) return
        places.set(v, { up: node, key })
        stack.push([v, depth + 1])
      }
      if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(node[i], i)
      else for (const key of Object.keys(node)) visit((node as Record<string, unknown>)[key], key)
    }
  }
  return places
}

/**
 * A copy of a slice that holds no reference to the text it was cut from: V8 keeps a slice as a
 * view of its parent, and a reject's raw text lives on (in its row, as the listing guard's key)
 * long after the page: a 40-character reject must not keep a 40 MB page alive.
 */
const detached = (slice: string): string => Buffer.from(slice, "utf8").toString("utf8")

/** Bigints as strings of digits: what `_rejects.raw` held for records not found in a text. */
export const writtenText = (record: unknown): string => {
  try {
    return JSON.stringify(record, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "undefined"
  } catch {
    // too deep for JSON.stringify's recursion (or a getter that throws): the same text, iteratively
    try {
      return jsonText(record)
    } catch {
      return String(record)
    }
  }
}

/** The raw text of records of one page whose answers are `sources`. */
export const rawTexts = (sources: ReadonlyArray<unknown>): ((record: unknown) => string) => {
  let places: Map<object, Place> | undefined
  // per body text, the members of each container scanned so far (several rejects, one scan each)
  const scanned = new Map<string, Map<number, Members>>()
  const membersOf = (text: string, start: number): Members => {
    let byStart = scanned.get(text)
    if (byStart === undefined) scanned.set(text, (byStart = new Map()))
    let members = byStart.get(start)
    if (members === undefined) byStart.set(start, (members = membersAt(text, start)))
    return members
  }

  const exact = (container: object): string | undefined => {
    let place = places!.get(container)
    if (place === undefined) return undefined
    const keys: Array<string | number> = []
    while (place.up !== undefined) {
      keys.push(place.key)
      place = places!.get(place.up)!
    }
    const origin = place.origin!
    try {
      const span = locate(origin.text, [...origin.path, ...keys.reverse()], membersOf)
      return span === undefined ? undefined : detached(origin.text.slice(span[0], span[1]))
    } catch {
      // the text did not scan as expected: the record is written from its parsed value instead
      return undefined
    }
  }

  return (record) => {
    places ??= placesOf(sources)
    if (places.size === 0 || typeof record !== "object" || record === null) return writtenText(record)
    return jsonText(record, exact)
  }
}
