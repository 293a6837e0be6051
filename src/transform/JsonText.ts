/**
 * JSON text of a parsed record for `_rejects.raw`, whatever its depth: JSON.stringify recurses and
 * throws past ~10,000 levels, which used to leave `[object Object]` as a reject's raw value. This
 * writes the same text as JSON.stringify with Rejects' replacer (bigints as strings of their
 * digits) with an explicit stack.
 *
 * `exact` may give a container's text as the service sent it (RawText.ts): that text is written
 * in its place, so a record a listing wrapped keeps the service's own bytes inside our wrapper.
 */
type Frame =
  | { readonly kind: "array"; readonly items: ReadonlyArray<unknown>; next: number }
  | { readonly kind: "object"; readonly obj: Record<string, unknown>; readonly keys: ReadonlyArray<string>; next: number; wrote: boolean }

const scalar = (v: unknown): string | undefined => {
  if (v === null) return "null"
  // as Rejects' JSON.stringify replacer writes them: a string of the digits
  if (typeof v === "bigint") return `"${v}"`
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v)
  return undefined // undefined, functions, symbols: left out of objects, null in arrays (as JSON.stringify)
}

const open = (v: object, out: string[]): Frame => {
  if (Array.isArray(v)) {
    out.push("[")
    return { kind: "array", items: v, next: 0 }
  }
  out.push("{")
  return { kind: "object", obj: v as Record<string, unknown>, keys: Object.keys(v), next: 0, wrote: false }
}

export const jsonText = (value: unknown, exact?: (container: object) => string | undefined): string => {
  if (typeof value !== "object" || value === null) return scalar(value) ?? "null"
  const whole = exact?.(value)
  if (whole !== undefined) return whole
  const out: string[] = []
  const stack: Frame[] = [open(value, out)]
  /** Opens a container, or writes its exact text when there is one. */
  const enter = (v: object) => {
    const text = exact?.(v)
    if (text === undefined) stack.push(open(v, out))
    else out.push(text)
  }
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.kind === "array") {
      if (top.next >= top.items.length) {
        out.push("]")
        stack.pop()
        continue
      }
      if (top.next > 0) out.push(",")
      const v = top.items[top.next++]
      if (typeof v === "object" && v !== null) enter(v)
      else out.push(scalar(v) ?? "null")
      continue
    }
    if (top.next >= top.keys.length) {
      out.push("}")
      stack.pop()
      continue
    }
    const key = top.keys[top.next++]!
    const v = top.obj[key]
    const isNode = typeof v === "object" && v !== null
    const text = isNode ? undefined : scalar(v)
    if (!isNode && text === undefined) continue
    if (top.wrote) out.push(",")
    top.wrote = true
    out.push(JSON.stringify(key), ":")
    if (isNode) enter(v)
    else out.push(text!)
  }
  return out.join("")
}
