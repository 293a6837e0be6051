import { Either, Schema } from "effect"
import { isDeepStrictEqual } from "node:util"
import { describe, expect, it } from "vitest"
import { compileDecoder, FAIL, PARSE_OPTIONS } from "../../src/transform/CompiledDecode.ts"
import { DecimalString, IntegerLike, NumberLike, UnixSeconds, decoder } from "../../src/transform/Decode.ts"
import { RecordError } from "../../src/crawl/Dataset.ts"

/** What Effect's own parser answers: the value, or FAIL. */
const effectDecode = (schema: Schema.Schema<any, any, never>) => {
  const parse = Schema.decodeUnknownEither(schema, PARSE_OPTIONS)
  return (u: unknown) => {
    const r = parse(u)
    return Either.isRight(r) ? r.right : FAIL
  }
}

interface Tree {
  readonly name: string
  readonly children?: ReadonlyArray<Tree>
}
const Tree: Schema.Schema<Tree> = Schema.Struct({
  name: Schema.String,
  children: Schema.optional(Schema.Array(Schema.suspend(() => Tree)))
})

const Shapes = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("circle"), radius: Schema.Number }),
  Schema.Struct({ kind: Schema.Literal("square"), side: Schema.Number })
)

/** Schemas shaped like the pipelines' (src/transform/Decode.ts helpers, optional, unions, records, tuples). */
const cases: ReadonlyArray<readonly [string, Schema.Schema<any, any, never>, ReadonlyArray<unknown>]> = [
  ["DecimalString", DecimalString, ["0", "-12", "123456789012345678901234567890", "1.5", "", 12, "0x10", "1".repeat(79)]],
  ["UnixSeconds", UnixSeconds, [1_700_000_000, 1.5, 10, "1700000000", 7_258_118_401, null]],
  ["IntegerLike", IntegerLike, [5, 2n ** 70n, 1.5, "5", null]],
  ["NumberLike", NumberLike, [1.25, 2n ** 60n, "1", Number.NaN]],
  [
    "struct with optional, nullable and extra fields",
    Schema.Struct({ a: Schema.String, b: Schema.optional(Schema.Number), c: Schema.NullOr(Schema.Boolean), d: Schema.Unknown }),
    [{ a: "x", c: null }, { a: "x", b: 1, c: true, d: { deep: 1 }, extra: 2 }, { a: "x", b: undefined, c: false }, { a: "x" }, { b: 1, c: null }, { a: 1, c: null }, [], null, "s"]
  ],
  ["array and non-empty array", Schema.Struct({ xs: Schema.Array(DecimalString), ys: Schema.NonEmptyArray(Schema.Number) }), [{ xs: ["1", "2"], ys: [1] }, { xs: [], ys: [] }, { xs: ["1", 2], ys: [1] }, { xs: "1", ys: [1] }]],
  ["record", Schema.Record({ key: Schema.String, value: IntegerLike }), [{ a: 1, b: 2n }, {}, { a: "1" }, []]],
  ["tagged union (left to Effect)", Shapes, [{ kind: "circle", radius: 1 }, { kind: "square", side: 2 }, { kind: "square", radius: 1 }, { kind: "hexagon" }]],
  ["ordered union", Schema.Union(Schema.Number.pipe(Schema.int()), Schema.NumberFromString.pipe(Schema.int())), [3, "3", "3.5", 3.5, "x"]],
  ["recursive", Tree, [{ name: "a", children: [{ name: "b" }, { name: "c", children: [] }] }, { name: "a", children: [{ name: 1 }] }]],
  ["filters", Schema.String.pipe(Schema.pattern(/^0x[0-9a-f]+$/), Schema.maxLength(6)), ["0xab", "0xabcdef", "xyz"]]
]

describe("compiled decoders", () => {
  for (const [name, schema, inputs] of cases) {
    it(`given ${name}, when both decoders read each input, then the compiled one answers exactly as Effect's parser`, () => {
      const compiled = compileDecoder(schema.ast)
      const effect = effectDecode(schema)
      const disagreements = inputs.filter((u) => {
        const a = compiled(u)
        const b = effect(u)
        return a === FAIL || b === FAIL ? a !== b : !isDeepStrictEqual(a, b)
      })
      expect(disagreements).toEqual([])
      // the cases hold accepted and refused inputs both
      expect(inputs.some((u) => effect(u) !== FAIL)).toBe(true)
      expect(inputs.some((u) => effect(u) === FAIL)).toBe(true)
    })
  }

  it("given a struct of a decimal, a timestamp and an unknown field, when it decodes, then values are a bigint and a Date, and the extra field is dropped", () => {
    const decode = decoder(Schema.Struct({ amount: DecimalString, at: UnixSeconds }))
    expect(decode({ amount: "340282366920938463463374607431768211457", at: 1_700_000_000, extra: 1 })).toEqual({
      amount: 340282366920938463463374607431768211457n,
      at: new Date(1_700_000_000_000)
    })
  })

  it("given a record that does not decode, when decoded, then the reason is Effect's own message with the field's path", () => {
    const decode = decoder(Schema.Struct({ amount: DecimalString }))
    expect(() => decode({ amount: "12a" })).toThrow(RecordError)
    expect(() => decode({ amount: "12a" })).toThrow(/\["amount"\].*expected a decimal integer string/)
  })
})
