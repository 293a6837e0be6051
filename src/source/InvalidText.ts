/**
 * Records whose text was not valid UTF-8 as the service sent it. Decoding such bytes puts U+FFFD
 * where they were: kept as they are, the record would be written altered and nobody would know.
 * The source marks every object above such a string (`markInvalidText`, only for a body that
 * failed strict decoding), and the transform sends a marked record to `_rejects` with the reason.
 */
const marked = new WeakSet<object>()

const REPLACEMENT = "\uFFFD"

/** Marks, in a parsed body, every object or array that holds a string with U+FFFD at any depth. */
export const markInvalidText = (body: unknown): void => {
  // depth-first with an explicit stack; `path` holds the containers from the root to the current one
  const path: object[] = []
  const stack: Array<{ readonly node: object; readonly depth: number }> = []
  if (typeof body === "object" && body !== null) stack.push({ node: body, depth: 0 })
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!
    path.length = depth
    path.push(node)
    for (const v of Object.values(node)) {
      if (typeof v === "string") {
        if (v.includes(REPLACEMENT)) for (const p of path) marked.add(p)
      } else if (typeof v === "object" && v !== null) {
        stack.push({ node: v, depth: depth + 1 })
      }
    }
  }
}

export const hasInvalidText = (record: unknown): boolean => typeof record === "object" && record !== null && marked.has(record)
