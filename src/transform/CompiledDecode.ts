/**
 * A compiled decoder for an Effect Schema: the same answer as `Schema.decodeUnknownEither(schema)`
 * for every input it accepts, at a fraction of the cost.
 *
 * Why: Effect's parser builds an `Either` and an issue tree per node, and with them it was the
 * largest share of a run's main thread plus most of its garbage (`npm run bench -- --cpu-prof`;
 * docs/performance.md#requests-parsing-and-decoding). Here each
 * AST node becomes a plain function returning the decoded value or `FAIL`, with no allocation on
 * success beyond the decoded output itself. Only the happy path is compiled: on `FAIL` the caller
 * asks Effect's own parser again, so every error message (a reject's reason) is Effect's, word for
 * word. Nodes this file does not know (async declarations, unions Effect narrows by literal keys,
 * property renames, parse-option annotations) are handed to Effect's parser as a whole subtree, so
 * the result never depends on what is compiled. `test/transform/CompiledDecode.test.ts` holds both
 * decoders to the same outputs over every dataset's records.
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"

/** The one value no decoder returns: a record that did not decode. */
export const FAIL: unique symbol = Symbol("chainetl/CompiledDecode/FAIL")

type Node = (input: unknown) => unknown

/** The options every dataset decodes with (src/transform/Decode.ts). */
export const PARSE_OPTIONS: SchemaAST.ParseOptions = { errors: "first", onExcessProperty: "ignore" }

const hasOwn = Object.prototype.hasOwnProperty

/**
 * A node's own compiled decoder, declared beside the schema (`withCompiled`): for the few helpers
 * every record meets many times (decimal strings, timestamps), a direct function instead of the
 * generic composition of a pattern, a transformation and a declaration. The audit holds it to
 * Effect's answer like everything else.
 */
export const CompiledAnnotationId: unique symbol = Symbol.for("chainetl/CompiledDecode")

export const withCompiled = <S extends Schema.Schema.Any>(schema: S, decode: (input: unknown) => unknown): S =>
  schema.annotations({ [CompiledAnnotationId]: decode }) as S

/** An Either from Effect's parser or a declaration; anything else (an Effect to run) is not compiled. */
const settle = (result: unknown): unknown => {
  if (!Either.isEither(result)) return FAIL
  return Either.isRight(result) ? result.right : FAIL
}

const viaEffect = (ast: SchemaAST.AST): Node => {
  const parse = ParseResult.decodeUnknownEither(Schema.make(ast), PARSE_OPTIONS)
  return (input) => settle(parse(input))
}

const refine = (ok: (input: unknown) => boolean): Node => (input) => (ok(input) ? input : FAIL)

// as Effect's Predicate.isRecord: an array is no struct
const isRecord = (u: unknown): u is Record<PropertyKey, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The encoded side of a node, as Effect's union search sees it. */
const encodedSide = (ast: SchemaAST.AST): SchemaAST.AST => {
  switch (ast._tag) {
    case "Refinement":
    case "Transformation":
      return encodedSide(ast.from)
    case "Suspend":
      return encodedSide(ast.f())
    default:
      return ast
  }
}

const isLiteralish = (ast: SchemaAST.AST): boolean => {
  const e = encodedSide(ast)
  return e._tag === "Literal" || (e._tag === "Union" && e.types.some(isLiteralish))
}

/**
 * A struct (or tuple, or class) with a literal-typed field: Effect tries such union members by that field's value
 * first, not in declared order (a conservative test: any such field hands the union to Effect).
 */
const hasLiteralField = (member: SchemaAST.AST): boolean => {
  const e = encodedSide(member)
  if (e._tag === "TypeLiteral") return e.propertySignatures.some((p) => isLiteralish(p.type))
  if (e._tag === "TupleType") return e.elements.some((x) => isLiteralish(x.type))
  return e._tag === "Declaration" && Option.isSome(SchemaAST.getSurrogateAnnotation(e))
}

/**
 * A struct of named fields only, as code written for it: each field read and written by its own
 * name, so V8 keeps one shape per site (the generic loop's `input[name]` and `out[name] = v` were
 * megamorphic lookups for every field of every record). Same rules as the loop below: an absent
 * optional key stays absent, an absent required one is parsed as undefined. The names come from
 * the schema, never from a record, and are written as JSON string literals.
 */
const fixedStruct = (names: ReadonlyArray<string>, optional: ReadonlyArray<boolean>, parsers: ReadonlyArray<Node>): Node => {
  const body = names.map((name, i) => {
    const key = JSON.stringify(name)
    const step = `v = p${i}(input[${key}]); if (v === FAIL) return FAIL; out[${key}] = v`
    return optional[i] ? `if (hasOwn.call(input, ${key})) { ${step} }` : step
  })
  const make = new Function(
    "parsers",
    "hasOwn",
    "isRecord",
    "FAIL",
    `${names.map((_, i) => `const p${i} = parsers[${i}]`).join("\n")}
return function decodeStruct(input) {
  if (!isRecord(input)) return FAIL
  const out = {}
  let v
  ${body.join("\n  ")}
  return out
}`
  ) as (parsers: ReadonlyArray<Node>, own: typeof hasOwn, record: typeof isRecord, fail: typeof FAIL) => Node
  return make(parsers, hasOwn, isRecord, FAIL)
}

/**
 * Compiles `ast` for decoding. Memoised per node: schemas share nodes (a `Utxo` struct in several
 * lists), and `Suspend` may refer back to its own ancestors.
 */
export const compileDecoder = (ast: SchemaAST.AST): Node => {
  const memo = new Map<SchemaAST.AST, Node>()
  const go = (node: SchemaAST.AST): Node => {
    const hit = memo.get(node)
    if (hit !== undefined) return hit
    // a slot first, so a Suspend that comes back here finds something to call
    let compiled: Node | undefined
    const slot: Node = (input) => compiled!(input)
    memo.set(node, slot)
    compiled = build(node)
    memo.set(node, compiled)
    return compiled
  }

  const build = (node: SchemaAST.AST): Node => {
    const own = node.annotations[CompiledAnnotationId]
    if (typeof own === "function") return own as Node
    // annotations that change how Effect parses this node: let Effect parse it
    if (Option.isSome(SchemaAST.getParseOptionsAnnotation(node)) || Option.isSome(SchemaAST.getDecodingFallbackAnnotation(node))) {
      return viaEffect(node)
    }
    switch (node._tag) {
      case "StringKeyword":
        return refine((u) => typeof u === "string")
      case "NumberKeyword":
        return refine((u) => typeof u === "number")
      case "BooleanKeyword":
        return refine((u) => typeof u === "boolean")
      case "BigIntKeyword":
        return refine((u) => typeof u === "bigint")
      case "UndefinedKeyword":
        return refine((u) => u === undefined)
      case "Literal": {
        const literal = node.literal
        return refine((u) => u === literal)
      }
      case "UnknownKeyword":
      case "AnyKeyword":
        return (u) => u
      case "Refinement": {
        const from = go(node.from)
        const filter = node.filter
        return (input) => {
          const a = from(input)
          if (a === FAIL) return FAIL
          return Option.isNone(filter(a, PARSE_OPTIONS, node)) ? a : FAIL
        }
      }
      case "Declaration": {
        const parse = node.decodeUnknown(...node.typeParameters)
        return (input) => settle(parse(input, PARSE_OPTIONS, node))
      }
      case "Transformation": {
        const t = node.transformation
        if (t._tag === "TypeLiteralTransformation") return viaEffect(node)
        const from = go(node.from)
        const to = go(node.to)
        if (t._tag === "ComposeTransformation") {
          return (input) => {
            const a = from(input)
            return a === FAIL ? FAIL : to(a)
          }
        }
        const decode = t.decode
        return (input) => {
          const a = from(input)
          if (a === FAIL) return FAIL
          const b = settle(decode(a, PARSE_OPTIONS, node, input))
          return b === FAIL ? FAIL : to(b)
        }
      }
      case "Suspend": {
        const inner = node.f
        let resolved: Node | undefined
        return (input) => (resolved ??= go(inner()))(input)
      }
      case "Union": {
        // Effect narrows unions of structs by their literal fields first: that order is its own
        if (node.types.some(hasLiteralField)) return viaEffect(node)
        const members = node.types.map(go)
        return (input) => {
          for (const member of members) {
            const out = member(input)
            if (out !== FAIL) return out
          }
          return FAIL
        }
      }
      case "TupleType":
        return tuple(node)
      case "TypeLiteral":
        return struct(node)
      default:
        return viaEffect(node)
    }
  }

  const tuple = (node: SchemaAST.TupleType): Node => {
    // arrays (`Schema.Array`, `NonEmptyArray`): required elements, then one rest type
    if (node.rest.length !== 1 || node.elements.some((e) => e.isOptional)) return viaEffect(node)
    const elements = node.elements.map((e) => go(e.type))
    const rest = go(node.rest[0]!.type)
    const required = elements.length
    return (input) => {
      if (!Array.isArray(input) || input.length < required) return FAIL
      const out = new Array<unknown>(input.length)
      for (let i = 0; i < input.length; i++) {
        const v = (i < required ? elements[i]! : rest)(input[i])
        if (v === FAIL) return FAIL
        out[i] = v
      }
      return out
    }
  }

  const struct = (node: SchemaAST.TypeLiteral): Node => {
    if (node.propertySignatures.length === 0 && node.indexSignatures.length === 0) {
      return refine((u) => u !== null && u !== undefined)
    }
    if (node.propertySignatures.some((p) => typeof p.name !== "string")) return viaEffect(node)
    if (node.indexSignatures.some((s) => s.parameter._tag !== "StringKeyword")) return viaEffect(node)
    const names = node.propertySignatures.map((p) => p.name as string)
    const optional = node.propertySignatures.map((p) => p.isOptional)
    const parsers = node.propertySignatures.map((p) => go(p.type))
    const index = node.indexSignatures.map((s) => go(s.type))
    if (index.length === 0) return fixedStruct(names, optional, parsers)
    const known = new Set(names)
    return (input) => {
      if (!isRecord(input)) return FAIL
      const out: Record<string, unknown> = {}
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!
        // as Effect: an absent optional key stays absent; an absent required one is parsed as undefined
        if (optional[i] && !hasOwn.call(input, name)) continue
        const v = parsers[i]!(input[name])
        if (v === FAIL) return FAIL
        out[name] = v
      }
      for (const parse of index) {
        for (const key of Object.keys(input)) {
          const v = parse(input[key])
          if (v === FAIL) return FAIL
          if (!known.has(key)) out[key] = v
        }
      }
      return out
    }
  }

  return go(ast)
}
