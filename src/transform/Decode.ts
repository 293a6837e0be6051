/**
 * Decoding a raw record with an Effect Schema: the schema states what the service promises, and
 * its parse error becomes the reject reason (field path and what was wrong).
 */
import { Either, ParseResult, Schema, SchemaAST } from "effect"
import { FIRST_INSTANT_MS, LAST_INSTANT_MS } from "../../schemas/common.ts"
import { RecordError } from "./RecordError.ts"
import { compileDecoder, FAIL, PARSE_OPTIONS, withCompiled } from "./CompiledDecode.ts"
import { auditDecode, decodeAudit } from "./DecodeAudit.ts"

/** Top-level fields a record had that its schema does not know, by record (read by toRows). */
const unknown = new WeakMap<object, ReadonlyArray<string>>()

/** The names of the top-level fields `decoder` ignored on this record; [] if none (or not decoded by `decoder`). */
export const unknownFieldsOf = (raw: unknown): ReadonlyArray<string> =>
  (typeof raw === "object" && raw !== null ? unknown.get(raw) : undefined) ?? []

/** The encoded side's property names of a struct schema; undefined for anything else (nothing is counted). */
const knownFields = (ast: SchemaAST.AST): ReadonlySet<string> | undefined => {
  const encoded = SchemaAST.encodedAST(ast)
  if (!SchemaAST.isTypeLiteral(encoded) || encoded.indexSignatures.length > 0) return undefined
  return new Set(encoded.propertySignatures.map((p) => String(p.name)))
}

/**
 * Decodes or throws RecordError with a readable reason; unknown extra fields are ignored, and
 * their names kept for the run report (`unknownFieldsOf`).
 *
 * Built on the first record, not when the pipeline module loads: every command imports the whole
 * registry, and compiling all of its decoders cost every start CPU for the one or two datasets a
 * run decodes (measured: docs/performance.md#start-up-costs).
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I, never>) => {
  let built: ((raw: unknown) => A) | undefined
  return (raw: unknown): A => (built ??= buildDecoder(schema))(raw)
}

const buildDecoder = <A, I>(schema: Schema.Schema<A, I, never>) => {
  // the compiled decoder answers for records that decode; Effect's parser words the reason of
  // those that do not (CompiledDecode.ts)
  const fast = compileDecoder(schema.ast)
  const decode = Schema.decodeUnknownEither(schema, PARSE_OPTIONS)
  const known = knownFields(schema.ast)
  return (raw: unknown): A => {
    if (known !== undefined && typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
      let extra: string[] | undefined
      for (const k in raw) if (!known.has(k)) (extra ??= []).push(k)
      if (extra !== undefined) unknown.set(raw, extra)
    }
    if (decodeAudit.enabled) {
      auditDecode(
        String(schema),
        raw,
        (r) => {
          const v = fast(r)
          return v === FAIL ? { ok: false } : { ok: true, value: v }
        },
        (r) => {
          const v = decode(r)
          return Either.isRight(v) ? { ok: true, value: v.right } : { ok: false }
        }
      )
    }
    const decoded = fast(raw)
    if (decoded !== FAIL) return decoded as A
    const result = decode(raw)
    if (Either.isLeft(result)) throw new RecordError(ParseResult.TreeFormatter.formatErrorSync(result.left).replace(/\s+/g, " "))
    return result.right
  }
}

/** A decimal string (block numbers, amounts) decoded to bigint, never via a JS number. */
const DECIMAL = /^-?[0-9]{1,78}$/

export const DecimalString = withCompiled(
  Schema.String.pipe(Schema.pattern(DECIMAL, { message: () => "expected a decimal integer string" }), Schema.compose(Schema.BigInt)),
  (u) => (typeof u === "string" && DECIMAL.test(u) ? BigInt(u) : FAIL)
)

/** An integer that may arrive as a JSON number or, from the lossless parser, as a bigint. */
export const IntegerLike = withCompiled(
  Schema.Union(Schema.BigIntFromSelf, Schema.Number.pipe(Schema.int())).pipe(
    Schema.transform(Schema.BigIntFromSelf, {
      strict: true,
      decode: (v) => (typeof v === "bigint" ? v : BigInt(v)),
      encode: (v) => v
    })
  ),
  (u) => (typeof u === "bigint" ? u : Number.isSafeInteger(u) ? BigInt(u as number) : FAIL)
)

/**
 * A uint64 as the node writes it: a decimal string, though small ones sometimes come as JSON
 * integers (or the lossless parser's bigint); all decode to the exact integer.
 */
export const DecimalStringOrInteger = Schema.Union(DecimalString, IntegerLike)

/** Unix seconds → Date, rejecting values outside what a `ts` column holds (year 2000–2200, schemas/common.ts). */
const FIRST_SECOND = FIRST_INSTANT_MS / 1000
const LAST_SECOND = LAST_INSTANT_MS / 1000

export const UnixSeconds = withCompiled(
  Schema.Number.pipe(
    Schema.int(),
    Schema.between(FIRST_SECOND, LAST_SECOND, { message: () => "expected a Unix timestamp in seconds between 2000 and 2200" }),
    Schema.transform(Schema.DateFromSelf, {
      strict: true,
      decode: (s) => new Date(s * 1000),
      encode: (d) => Math.floor(d.getTime() / 1000)
    })
  ),
  (u) => (Number.isSafeInteger(u) && (u as number) >= FIRST_SECOND && (u as number) <= LAST_SECOND ? new Date((u as number) * 1000) : FAIL)
)

/**
 * A JSON number the schema stores as DOUBLE (metric values, holder sort keys). The lossless parser
 * hands integers above 2^53 over as bigint; here they become the nearest double, as documented.
 */
export const NumberLike = withCompiled(
  Schema.Union(Schema.Number, Schema.BigIntFromSelf).pipe(
    Schema.transform(Schema.Number, { strict: true, decode: (v) => (typeof v === "bigint" ? Number(v) : v), encode: (v) => v })
  ),
  (u) => (typeof u === "number" ? u : typeof u === "bigint" ? Number(u) : FAIL)
)
