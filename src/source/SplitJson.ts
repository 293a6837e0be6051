/**
 * A large JSON body parsed piece by piece, with the same result as parsing it whole.
 *
 * Why: the bench's staking pages are 230–470 KB bodies. Decoded whole, each body is one string in
 * V8's large-object space, fresh pages of memory every time: about a third of the CPU of parsing
 * went to the kernel (page faults). Cut into pieces of a few tens of KB, the same bytes become
 * small strings in the young generation, parsed with less CPU and fewer page faults
 * (docs/performance.md, "Why the code is shaped so"). The body's bytes are kept for its rejects' raw text until its page is mapped
 * (SourceText.ts `forgetText`).
 *
 * How: one byte scan finds the body's large arrays (the body itself, or an array whose containers
 * are all objects, at most two levels down: a page's `transactions`, a JSON-RPC `result.utxos`) and
 * the commas between their elements. Each run of elements between two cuts is decoded and parsed
 * as an array of its own; the rest of the body (the envelope) is parsed with a marker string in
 * place of each array, and the markers are then replaced by the arrays. UTF-8 multi-byte sequences
 * never hold an ASCII byte, so the structural bytes can be found in the bytes themselves. The
 * same scan notes where a run of 16 or more digits starts outside strings: only a piece holding one
 * takes the lossless path (LosslessJson.ts), the others go straight to `JSON.parse` without that
 * path's regex over their text (a sizeable share of parsing the staking pages: docs/performance.md).
 *
 * Anything unexpected (a byte-order mark, unbalanced brackets, a syntax error in a piece) gives
 * `undefined` or throws: the caller then parses the body whole, so a malformed body gets the same
 * error as ever.
 */
import { randomBytes } from "node:crypto"
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, isDigit, isSpace } from "./JsonChars.ts"
import { parseJsonLossless } from "./LosslessJson.ts"

export interface SplitOptions {
  /** An array shorter than this many bytes stays in the envelope. */
  readonly minArrayBytes: number
  /** A piece is cut at the first comma after this many bytes. */
  readonly pieceBytes: number
}

/**
 * Pieces below V8's large-object threshold (128 KB for one-byte strings), large enough that the
 * per-piece calls cost nothing measurable.
 */
export const defaultSplit: SplitOptions = { minArrayBytes: 64 * 1024, pieceBytes: 32 * 1024 }

export interface SplitBody {
  readonly value: unknown
  /** False when some piece was not valid UTF-8 (decoded with U+FFFD in its place). */
  readonly validUtf8: boolean
}

/** How far below the top an array may be split: a page's items (1), a JSON-RPC result's list (2). */
const MAX_DEPTH = 2

interface Found {
  /** Offset of the array's `[` and of its `]`. */
  readonly start: number
  readonly end: number
  /** Offsets of the commas the array is cut at. */
  readonly cuts: ReadonlyArray<number>
}

interface Scan {
  /** Offset of the body's top value (past leading whitespace). */
  readonly top: number
  readonly arrays: ReadonlyArray<Found>
  /**
   * Offsets of the runs of 16 or more digits outside strings, ascending: the only literals that can
   * be integers above 2^53. A piece without one is parsed natively, with no regex over its text.
   */
  readonly longDigits: ReadonlyArray<number>
}

/** The end of the string whose opening quote is at `i` (the offset of its closing quote), or -1. */
const stringEnd = (bytes: Uint8Array, i: number): number => {
  let q = i
  for (;;) {
    q = bytes.indexOf(QUOTE, q + 1)
    if (q < 0) return -1
    // a quote preceded by an odd run of backslashes is escaped
    let k = q - 1
    while (bytes[k] === BACKSLASH) k--
    if ((q - 1 - k) % 2 === 0) return q
  }
}

/** The large arrays of a well-bracketed body, or undefined when the body is not one to split. */
const findArrays = (bytes: Uint8Array, options: SplitOptions): Scan | undefined => {
  const n = bytes.length
  let i = 0
  while (i < n && isSpace(bytes[i]!)) i++
  if (bytes[i] !== OPEN_OBJECT && bytes[i] !== OPEN_ARRAY) return undefined
  const top = i
  const stack: number[] = []
  let arraysOpen = 0
  // the array being cut, if one is open: its depth in `stack`, its start and cuts
  let openDepth = -1
  let openStart = 0
  let openCuts: number[] = []
  let lastCut = 0
  const found: Found[] = []
  // outside strings a digit follows a digit only within one number literal
  let runStart = 0
  const longDigits: number[] = []
  for (; i < n; i++) {
    const b = bytes[i]!
    if (isDigit(b)) {
      if (!isDigit(bytes[i - 1]!)) runStart = i
      else if (i - runStart === 15) longDigits.push(runStart)
    } else if (b === QUOTE) {
      i = stringEnd(bytes, i)
      if (i < 0) return undefined
    } else if (b === COMMA) {
      if (stack.length - 1 === openDepth && i - lastCut >= options.pieceBytes) {
        openCuts.push(i)
        lastCut = i
      }
    } else if (b === OPEN_ARRAY) {
      if (arraysOpen === 0 && stack.length <= MAX_DEPTH) {
        openDepth = stack.length
        openStart = lastCut = i
        openCuts = []
      }
      stack.push(b)
      arraysOpen++
    } else if (b === OPEN_OBJECT) {
      stack.push(b)
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      if (stack.pop() !== b - 2) return undefined // `]` is `[` + 2, `}` is `{` + 2
      if (b === CLOSE_ARRAY) {
        arraysOpen--
        if (stack.length === openDepth) {
          if (i + 1 - openStart >= options.minArrayBytes) found.push({ start: openStart, end: i, cuts: openCuts })
          openDepth = -1
        }
      }
      if (stack.length === 0) break
    }
  }
  if (stack.length > 0) return undefined
  for (i++; i < n; i++) if (!isSpace(bytes[i]!)) return undefined
  return found.length > 0 ? { top, arrays: found, longDigits } : undefined
}

/**
 * Whether a run of 16+ digits starts in [from, to). A binary search, since the runs ascend: a
 * page of many long integers cut into many pieces asks once per piece.
 */
const holdsLongDigits = (longDigits: ReadonlyArray<number>, from: number, to: number): boolean => {
  let lo = 0
  let hi = longDigits.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (longDigits[mid]! < from) lo = mid + 1
    else hi = mid
  }
  return lo < longDigits.length && longDigits[lo]! < to
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const lossy = new TextDecoder("utf-8", { ignoreBOM: true })

/** Marks an array's place in the envelope; the nonce keeps a string the service sent from passing for one. */
const MARK = `\u0000chainetl-part-${randomBytes(6).toString("hex")}:`

/**
 * Parses `bytes` in pieces when it holds an array of at least `minArrayBytes`; undefined when it
 * does not (parse it whole). Throws when a piece is not JSON.
 */
export const parseSplit = (bytes: Uint8Array, options: SplitOptions = defaultSplit): SplitBody | undefined => {
  const scan = findArrays(bytes, options)
  if (scan === undefined) return undefined
  const { top, arrays: found, longDigits } = scan
  // the lossless path where the text may hold an integer above 2^53, else the native one
  const parse = (text: string, mayHoldLong: boolean): unknown => (mayHoldLong ? parseJsonLossless(text) : JSON.parse(text))
  let validUtf8 = true
  const decode = (from: number, to: number): string => {
    const piece = bytes.subarray(from, to)
    try {
      return strict.decode(piece)
    } catch {
      validUtf8 = false
      return lossy.decode(piece)
    }
  }

  const arrayOf = (at: Found): unknown[] => {
    const out: unknown[] = []
    const bounds = [at.start, ...at.cuts, at.end]
    for (let k = 0; k + 1 < bounds.length; k++) {
      const from = bounds[k]! + 1
      const to = bounds[k + 1]!
      const part = parse(`[${decode(from, to)}]`, holdsLongDigits(longDigits, from, to)) as unknown[]
      // `[1,,2]`, `[,1]`, `[1,]` cut at their commas leave an empty piece, which alone would parse
      if (part.length === 0 && bounds.length > 2) throw new Error("empty element")
      for (let j = 0; j < part.length; j++) out.push(part[j])
    }
    return out
  }

  const first = found[0]!
  if (found.length === 1 && first.start === top) return { value: arrayOf(first), validUtf8 }

  // the envelope: the body with each array replaced by a marker naming it
  const parts: string[] = []
  let envelopeLong = false
  let from = 0
  found.forEach((at, k) => {
    parts.push(decode(from, at.start), JSON.stringify(`${MARK}${k}`))
    envelopeLong ||= holdsLongDigits(longDigits, from, at.start)
    from = at.end + 1
  })
  parts.push(decode(from, bytes.length))
  envelopeLong ||= holdsLongDigits(longDigits, from, bytes.length)
  const envelope = parse(parts.join(""), envelopeLong)
  // markers are strings of objects within MAX_DEPTH of the top; a duplicate key dropped its own
  const stack: Array<readonly [Record<string, unknown>, number]> = [[envelope as Record<string, unknown>, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    for (const key of Object.keys(node)) {
      const v = node[key]
      if (typeof v === "string" && v.startsWith(MARK)) {
        const at = found[Number(v.slice(MARK.length))]
        if (at === undefined) throw new Error(`unexpected marker ${JSON.stringify(v)}`)
        // an own property already (JSON.parse defines them), so even `__proto__` is set, not the prototype
        node[key] = arrayOf(at)
      } else if (depth < MAX_DEPTH && typeof v === "object" && v !== null && !Array.isArray(v)) {
        stack.push([v as Record<string, unknown>, depth + 1])
      }
    }
  }
  return { value: envelope, validUtf8 }
}
