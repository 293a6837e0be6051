/**
 * Named derivations: wire types that read a column's value from a field the service spells other
 * than the column's type would (schemas/columns.ts `.from(path, { wire })`). Each is one Effect
 * schema, so a value that does not decode is a reject with Effect's reason, and the compiled fast
 * path (src/transform/CompiledDecode.ts) runs its own function.
 */
import { Schema } from "effect"
import { FAIL, withCompiled } from "../src/transform/CompiledDecode.ts"
import { DecimalStringOrInteger } from "../src/transform/Decode.ts"

/** JSON text of a value that may hold bigints (the lossless parser's): a shape kept as text. */
export const jsonText = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))

/** Any JSON value, kept as its JSON text. */
export const JsonText = withCompiled(
  Schema.transform(Schema.Unknown, Schema.String, { strict: true, decode: jsonText, encode: (s) => JSON.parse(s) as unknown }),
  jsonText
)

// node JSON values: uint64 quantities are decimal strings (seed: Conventions), though small ones
// (threshold, denomination) sometimes come as JSON numbers; both decode to exact integers

/** A uint64 as the node writes it (a decimal string or a JSON integer), to bigint. */
export const NodeUint = DecimalStringOrInteger

/** A small integer (threshold, output index, denomination) as a JSON number or a decimal string. */
export const NodeInt = Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int()))

/** A count the node writes as a uint64 (delegatorCount), as the number it is. */
export const NodeCount = Schema.transform(DecimalStringOrInteger, Schema.Number, { strict: true, decode: (n) => Number(n), encode: (n) => BigInt(n) })

/** A decimal number the node writes as text (uptime: json.Float32), as a double. */
export const NumberText = Schema.transform(Schema.String, Schema.Number, { strict: true, decode: (s) => Number(s), encode: (n) => String(n) })

/** Unix seconds as the node writes them, to the instant. */
export const nodeTime = (seconds: bigint): Date => new Date(Number(seconds) * 1000)

/** Unix seconds as the node writes them (a decimal string, or a JSON integer): the instant. */
export const NodeTime = Schema.transform(DecimalStringOrInteger, Schema.DateFromSelf, {
  strict: true,
  decode: nodeTime,
  encode: (d) => BigInt(Math.floor(d.getTime() / 1000))
})

/** The ids of a list of objects that have one (a block's txs). */
export const Ids = Schema.transform(Schema.Array(Schema.Struct({ id: Schema.String })), Schema.Array(Schema.String), {
  strict: true,
  decode: (xs) => xs.map((x) => x.id),
  encode: (ids) => ids.map((id) => ({ id }))
})

/**
 * A decimal number as text, exactly as sent: the seed sends Price.value as a decimal string, the
 * official document as a number (a bigint from the lossless parser when it is a long integer).
 */
export const DecimalText = Schema.Union(Schema.String.pipe(Schema.pattern(/^-?[0-9]+(\.[0-9]+)?$/)), Schema.Number, Schema.BigIntFromSelf).pipe(
  Schema.transform(Schema.String, { strict: true, decode: (v) => String(v), encode: (s) => s })
)

/** Token ids are uint256: exact decimal text, never a number. */
export const TokenId = Schema.String.pipe(Schema.pattern(/^[0-9]{1,78}$/, { message: () => "expected a decimal token id" }))

/** How many items a list holds (a detail's transfers, counted beside the rows they make). */
export const LengthOf = withCompiled(
  Schema.transform(Schema.Array(Schema.Unknown), Schema.Number, { strict: true, decode: (a) => a.length, encode: () => [] }),
  (u) => (Array.isArray(u) ? u.length : FAIL)
)

/** A status the service spells as text or as a number ("1", 1): its text. */
export const NumberOrText = Schema.Union(Schema.String, Schema.Number).pipe(
  Schema.transform(Schema.String, { strict: true, decode: (v) => String(v), encode: (s) => s })
)

/**
 * The metrics service's sortKey (a balance or a count): an integer in the seed, a string in the
 * official document; both read as the exact whole number they spell. Balances pass 2^53 (wei), and
 * the lossless parser delivers such integers as bigint; a double the service wrote in exponent
 * form is its exact value. Its range (0 to 2^256 − 1) is its uint256 column's.
 */
export const SortKey = Schema.Union(
  Schema.BigIntFromSelf,
  Schema.transform(Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n), { message: () => "expected an integer" })), Schema.BigIntFromSelf, {
    strict: true,
    decode: (n) => BigInt(n),
    encode: (n) => Number(n)
  }),
  Schema.BigInt
)

/** Text the seed sends as a string and the official document as an array of strings (kept joined by ", "). */
export const TextOrTexts = Schema.Union(
  Schema.String,
  Schema.Array(Schema.String).pipe(Schema.transform(Schema.String, { strict: true, decode: (a) => a.join(", "), encode: (s) => [s] }))
)

/** Epoch microseconds as decimal text (as DuckDB gives a TIMESTAMPTZ back): the instant, to the millisecond. */
export const MicrosText = Schema.transform(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (us) => new Date(Number(BigInt(us) / 1000n)),
  encode: (d) => String(BigInt(d.getTime()) * 1000n)
})
