/**
 * The structural characters and digits of JSON, as char codes: the same numbers for a JS string's
 * `charCodeAt` (transform/JsonScan.ts, LosslessJson.ts) and for UTF-8 bytes (SplitJson.ts), since a
 * UTF-8 multi-byte sequence never holds an ASCII byte.
 */
export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const COMMA = 0x2c
export const COLON = 0x3a
export const OPEN_ARRAY = 0x5b
export const CLOSE_ARRAY = 0x5d
export const OPEN_OBJECT = 0x7b
export const CLOSE_OBJECT = 0x7d

/** An ASCII digit, 0 to 9. */
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

/** JSON's four whitespace characters (no byte-order mark, no other Unicode space). */
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
