/**
 * JSON text in which a `bigint` is written as the integer literal it is. The seed spec types some
 * quantities as JSON integers that real values push past 2^53 (a holder's sortKey in wei, an L1
 * validator's uint64 weight and balance); JSON.stringify refuses bigints, and Number() would round them.
 *
 * How: the replacer turns a bigint into a marked string, then the marks and their quotes go. The
 * mark carries a random nonce drawn once per process, so no string a route sends can spell it.
 */
import { randomBytes } from "node:crypto"

const MARK = `\u0000${randomBytes(8).toString("hex")}:`
/** How JSON.stringify writes the mark inside a string. */
const WRITTEN = JSON.stringify(MARK).slice(1, -1)
const MARKED = new RegExp(`"${WRITTEN.replace(/\\/g, "\\\\")}(-?\\d+)"`, "g")

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * A bigint for an answer, as stringifyExact writes it: a route that knows where its bigints are
 * puts this in their place, and the answer is written natively, without a replacer called for
 * every value (an answer holding one bigint took that path whole). A safe integer is the number
 * itself (JSON writes it digit for digit), a larger one a marked string.
 */
export const exactInteger = (value: bigint): number | string => (value <= SAFE && value >= -SAFE ? Number(value) : MARK + value.toString(10))

const replacer = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? exactInteger(value) : value)

const unmarked = (text: string): string => (text.includes(WRITTEN) ? text.replace(MARKED, "$1") : text)

export const stringifyExact = (value: unknown): string => {
  // most answers hold no bigint: the native path, without a replacer call per value
  try {
    return unmarked(JSON.stringify(value))
  } catch (e) {
    if (!(e instanceof TypeError)) throw e
  }
  return unmarked(JSON.stringify(value, replacer))
}
