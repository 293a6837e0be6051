/**
 * Hive partition paths: `<dataset>/<k1>=<v1>/<k2>=<v2>` with values encoded so that no value can
 * leave the output folder, collide with another value, or read back as something else.
 *
 * Encoding of a value: its UTF-8 bytes, with `a-z 0-9 _ - .` kept and every other byte written as
 * `%XX` (uppercase hex). DuckDB's hive reader percent-decodes values (checked on 1.5: `k=a%2Fb`
 * reads as `a/b`, `k=%E2%82%AC` as `€`), so the partition column returns the ORIGINAL value.
 * - `/ \ NUL = %` and `..` cannot appear raw, so a value is always one path segment inside its key.
 * - Uppercase letters are escaped rather than kept: on a case-insensitive filesystem (macOS, Windows
 *   defaults) `Abc` and `abc` would otherwise share one folder. After encoding the only letters
 *   left raw are lowercase and every `%XX` uses uppercase hex, so two different values never
 *   differ only by case. (Appending a hash instead would read back with the hash in it.)
 * - A leading `.` is escaped: `.` and `..` are links, and dot-names are hidden to globbing tools.
 * - DuckDB reads a raw `null` (any case) as SQL NULL before decoding, and Windows reserves `con`,
 *   `nul`, `com1`…: their first letter is escaped, which DuckDB decodes back.
 * - A value whose encoding is longer than MAX_ENCODED (file names stop at 255 bytes) keeps an
 *   encoded prefix followed by `~` and 16 hex of the value's SHA-256. `~` is never kept raw, so a
 *   shortened value cannot equal a normal one. This one case is lossy: DuckDB reads the shortened
 *   form. Partition keys are meant to be short (dates, chain ids); keep a long value as a column.
 */
import { createHash } from "node:crypto"
import * as path from "node:path"
import { SNAKE_CASE, isSnakeCase } from "../../schemas/common.ts"

/** Leaves room for `<key>=` under the 255-byte file name limit of every common filesystem. */
export const MAX_ENCODED = 128
const HASH_HEX = 16
const KEPT = /^[a-z0-9_.-]$/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/

const hex = (byte: number): string => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`

const encodePiece = (char: string): string => {
  if (char.length === 1 && KEPT.test(char)) return char
  let out = ""
  for (const byte of Buffer.from(char, "utf8")) out += hex(byte)
  return out
}

/**
 * Percent-encodes one partition value (see the module comment for the rules). Throws on a string
 * with a lone surrogate: UTF-8 would turn every one of them into U+FFFD, so two values would meet.
 */
export const encodeValue = (value: string): string => {
  if (LONE_SURROGATE.test(value)) throw new Error(`partition value ${JSON.stringify(value)} is not well-formed UTF-16`)
  const pieces = Array.from(value, encodePiece)
  let out = pieces.join("")
  if (out.startsWith(".") || out === "null" || WINDOWS_RESERVED.test(out)) {
    pieces[0] = hex(out.charCodeAt(0))
    out = pieces.join("")
  }
  if (out.length <= MAX_ENCODED) return out
  // cut between whole characters: half a UTF-8 sequence would not decode
  let prefix = ""
  for (const piece of pieces) {
    if (prefix.length + piece.length > MAX_ENCODED - HASH_HEX - 1) break
    prefix += piece
  }
  const digest = createHash("sha256").update(value, "utf8").digest("hex").slice(0, HASH_HEX)
  return `${prefix}~${digest}`
}

/** The inverse of `encodeValue` for values that were not shortened. */
export const decodeValue = (encoded: string): string => decodeURIComponent(encoded)

export const isShortened = (encoded: string): boolean => encoded.includes("~")

/** Throws unless `name` is snake_case; `what` names it in the message ("dataset", "partition key"). */
export const assertSnakeCase = (name: string, what: string): void => {
  if (!isSnakeCase(name)) throw new Error(`${what} "${name}" is not snake_case (want ${SNAKE_CASE.source})`)
}

/**
 * Dataset names are snake_case; chainetl's own bookkeeping datasets (`_rejects`) take one leading
 * underscore, like `_state` and `_runs`, so they sort apart from the service's data.
 */
export const assertDatasetName = (name: string): void => {
  if (!isSnakeCase(name.startsWith("_") ? name.slice(1) : name)) {
    throw new Error(`dataset "${name}" is not snake_case (want ${SNAKE_CASE.source}, optionally after one "_")`)
  }
  if (RESERVED_DIRS.has(name)) throw new Error(`dataset "${name}" would share the folder chainetl keeps for its own files`)
}

/** Folders of the output root that hold chainetl's own files, never a dataset's parts. */
export const RESERVED_DIRS: ReadonlySet<string> = new Set(["_staging", "_state", "_runs"])

/** `<dataset>/<k1>=<v1>/…` relative to the output folder, with encoded values. */
export const partitionDir = (
  dataset: string,
  partition: ReadonlyArray<readonly [key: string, value: string]>
): string => {
  assertDatasetName(dataset)
  const seen = new Set<string>()
  const segments = partition.map(([key, value]) => {
    assertSnakeCase(key, "partition key")
    if (seen.has(key)) throw new Error(`partition key "${key}" appears twice`)
    seen.add(key)
    return `${key}=${encodeValue(value)}`
  })
  return path.join(dataset, ...segments)
}

/** True when `candidate` is `root` or lies below it, after resolving `..` and separators. */
export const isInside = (root: string, candidate: string): boolean => {
  const rel = path.relative(path.resolve(root), path.resolve(candidate))
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel))
}
