/**
 * JSON bodies parsed without losing integers: `JSON.parse` rounds any integer above 2^53 (an L1
 * validator's weight, a holder's balance), so such integers come back as `bigint`. Other numbers
 * stay `number`. Bodies with no integer literal long enough to be unsafe take the fast native path.
 *
 * The lossless path does not recurse, whatever the nesting: a record nested 200,000 levels deep
 * beside a big integer used to overflow the stack of a recursive parser and fail its whole page.
 * Instead, every unsafe integer literal outside strings is rewritten as a marked string, the text
 * goes through the native `JSON.parse` (which does not recurse), and the marked strings are turned
 * into bigints by a walk with an explicit stack.
 */
import { isSafeNumber } from "lossless-json"
import { randomBytes } from "node:crypto"
import { isDigit } from "./JsonChars.ts"

/** An integer literal of 16+ digits where a JSON value can start: the only kind that can exceed 2^53. */
const mayHoldUnsafeInteger = /[:[,]\s*-?\d{16,}/

/** Marks a rewritten integer; the nonce keeps a string the service sent from passing for one. */
const MARK = `\u0000chainetl-bigint-${randomBytes(6).toString("hex")}:`
const MARK_JSON = JSON.stringify(MARK).slice(1, -1)

/** The text with every unsafe integer literal outside strings written as a marked string. */
const markUnsafeIntegers = (text: string): string => {
  const out: string[] = []
  let copied = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      // skip the string, escapes included
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92 /* \ */) i += 2
        else if (d === 34) break
        else i++
      }
      i++
      continue
    }
    if (c === 45 /* - */ || isDigit(c)) {
      const start = i
      i++
      while (i < n && isDigit(text.charCodeAt(i))) i++
      const next = i < n ? text.charCodeAt(i) : 0
      // a fraction or an exponent is no integer: it stays a (rounded) number, as JSON.parse gives
      if (next === 46 /* . */ || next === 101 /* e */ || next === 69 /* E */) {
        while (i < n && /[0-9eE+\-.]/.test(text[i]!)) i++
        continue
      }
      const literal = text.slice(start, i)
      if (i - start >= 16 && !isSafeNumber(literal)) {
        out.push(text.slice(copied, start), `"${MARK_JSON}${literal}"`)
        copied = i
      }
      continue
    }
    i++
  }
  if (copied === 0) return text
  out.push(text.slice(copied))
  return out.join("")
}

/** Replaces marked strings by bigints, in place, with an explicit stack. */
const reviveMarked = (root: unknown): unknown => {
  const revive = (v: unknown): unknown => (typeof v === "string" && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v)
  const top = revive(root)
  const stack: unknown[] = [top]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      for (let k = 0; k < node.length; k++) {
        const v = node[k]
        if (typeof v === "object" && v !== null) stack.push(v)
        else node[k] = revive(v)
      }
    } else if (typeof node === "object" && node !== null) {
      const o = node as Record<string, unknown>
      for (const k of Object.keys(o)) {
        const v = o[k]
        if (typeof v === "object" && v !== null) stack.push(v)
        else o[k] = revive(v)
      }
    }
  }
  return top
}

export const parseJsonLossless = (text: string): unknown => {
  if (!mayHoldUnsafeInteger.test(text)) return JSON.parse(text)
  const marked = markUnsafeIntegers(text)
  return marked === text ? JSON.parse(text) : reviveMarked(JSON.parse(marked))
}
