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

const replacer = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? MARK + value.toString(10) : value)

export const stringifyExact = (value: unknown): string => {
  // most answers hold no bigint: the native path, without a replacer call per value
  try {
    return JSON.stringify(value)
  } catch (e) {
    if (!(e instanceof TypeError)) throw e
  }
  const text = JSON.stringify(value, replacer)
  return text.includes(WRITTEN) ? text.replace(MARKED, "$1") : text
}
