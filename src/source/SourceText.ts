/**
 * The text a parsed JSON body came from, kept beside it so a rejected record's raw text can be the
 * exact characters the service sent (src/transform/RawText.ts) rather than the parsed value
 * written again. Nothing is copied: the text is the string the body was parsed from, held as long
 * as the parsed body lives and not a moment longer (a WeakMap).
 *
 * Only the body and its top-level containers are registered (a REST page's items array, a JSON-RPC
 * answer's `result`, which is what the client hands over): a handful of entries per body, never
 * one per record, so valid pages pay nothing measurable. A record deeper down is found from these
 * when, and only when, it is rejected.
 */

/** Where a container sits: the body's text and the path from the text's top value to it. */
export interface Origin {
  readonly text: string
  readonly path: ReadonlyArray<string>
}

const origins = new WeakMap<object, Origin>()

/** Registers `body` (parsed from `text`) and its top-level containers. */
export const rememberText = (body: unknown, text: string): void => {
  if (typeof body !== "object" || body === null) return
  origins.set(body, { text, path: [] })
  // an array body's elements are records themselves: found from the body when one is rejected
  if (Array.isArray(body)) return
  const fields = body as Record<string, unknown>
  for (const key in fields) {
    const v = fields[key]
    if (typeof v === "object" && v !== null) origins.set(v, { text, path: [key] })
  }
}

/** The origin of a body or of one of its top-level containers; undefined for any other value. */
export const originOf = (value: unknown): Origin | undefined =>
  typeof value === "object" && value !== null ? origins.get(value) : undefined
