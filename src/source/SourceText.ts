/**
 * The text a parsed JSON body came from, kept beside it so a rejected record's raw text can be the
 * exact characters the service sent (src/transform/RawText.ts) rather than the parsed value
 * written again. Nothing is copied: the text is the string the body was parsed from, or, for a
 * body parsed in pieces (SplitJson.ts), made from its bytes on first use (only a page with a
 * reject asks), held as long as the parsed body lives and not a moment longer (a WeakMap), or
 * until the crawl has mapped the body's page (`forgetText`), whichever comes first.
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

/** What the origins of one body share: its text, or what makes it; both dropped by `forgetText`. */
interface Source {
  text?: string | undefined
  make?: (() => string) | undefined
}

/** An origin whose text is made once, when first read. */
class LazyOrigin implements Origin {
  constructor(
    private readonly source: Source,
    readonly path: ReadonlyArray<string>
  ) {}
  get text(): string {
    if (this.source.text === undefined) {
      // RawText.ts catches this: the record is then written from its parsed value
      if (this.source.make === undefined) throw new Error("the body's text was forgotten")
      this.source.text = this.source.make()
    }
    return this.source.text
  }
  /** Drops the text and what makes it, for this origin and every other of its body. */
  forget(): void {
    this.source.text = undefined
    this.source.make = undefined
  }
}

const origins = new WeakMap<object, LazyOrigin>()

/** Registers `body` (parsed from `text`, or from what `text()` gives) and its top-level containers. */
export const rememberText = (body: unknown, text: string | (() => string)): void => {
  if (typeof body !== "object" || body === null) return
  const shared: Source = typeof text === "string" ? { text } : { make: text }
  origins.set(body, new LazyOrigin(shared, []))
  // an array body's elements are records themselves: found from the body when one is rejected
  if (Array.isArray(body)) return
  const fields = body as Record<string, unknown>
  for (const key in fields) {
    const v = fields[key]
    if (typeof v === "object" && v !== null) origins.set(v, new LazyOrigin(shared, [key]))
  }
}

/**
 * Lets go of the text (or bytes) kept for `answers` (bodies or their top-level containers) once
 * their page's rejects have their raw text: kept in a WeakMap alone, a body's bytes lived until
 * the collector got to the body, which raised peak memory (docs/performance.md, "Why the code is
 * shaped so"). A record of
 * such an answer rejected later is written from its parsed value.
 */
export const forgetText = (answers: ReadonlyArray<unknown>): void => {
  for (const answer of answers) if (typeof answer === "object" && answer !== null) origins.get(answer)?.forget()
}

/** The origin of a body or of one of its top-level containers; undefined for any other value. */
export const originOf = (value: unknown): Origin | undefined =>
  typeof value === "object" && value !== null ? origins.get(value) : undefined
