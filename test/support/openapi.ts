/**
 * Holds emulator answers to the official OpenAPI documents in reference/ (the reference
 * README says how): response schemas compiled with a JSON Schema 2020-12 validator, 3.0-style
 * `nullable: true` turned into a `null` type, and every object schema with `properties` closed,
 * so a field the official document does not list fails instead of passing silently.
 *
 * Closing composed schemas needs care: closing each allOf branch separately would make every
 * branch reject the others' properties. Where a schema combines branches with its own properties
 * (or allOf has several branches), its branches are inlined unclosed and the composed schema gets
 * `unevaluatedProperties: false`, which sees through the branches.
 *
 * Route 19 (/v1/avg_tps/{chainId}) is in neither document; asking for it throws.
 */
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import { readFileSync } from "node:fs"
import { referenceUrl } from "./reference.ts"

// ajv's CommonJS build: under NodeNext the default import is the module object, the class is its default
const Ajv2020 = Ajv2020Module.default

export type DocName = "data" | "metrics"
export type HttpMethod = "get" | "post"

type Json = Record<string, unknown>

/** The documents sit in the repository's reference/ folder. */
const DOC_FILES: Readonly<Record<DocName, URL>> = {
  data: referenceUrl("data-api.openapi.json"),
  metrics: referenceUrl("metrics-api.openapi.json")
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

/** Keywords whose value is a map of subschemas, one subschema, or a list of subschemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"])
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames"
])
const SCHEMA_LISTS = new Set(["allOf", "oneOf", "anyOf", "prefixItems"])
const COMPOSITIONS = ["allOf", "oneOf", "anyOf"] as const

const pointer = (doc: Json, ref: string): unknown =>
  ref
    .replace(/^#\//, "")
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc)

/**
 * Rewrites one OpenAPI schema into a closed 2020-12 schema. `close` is false for the branches of a
 * composed schema, whose closing is done by the composed schema itself.
 */
const prepare = (node: unknown, doc: Json, docId: string, close = true): unknown => {
  if (!isObject(node)) return node
  const composing =
    (node.properties !== undefined && COMPOSITIONS.some((k) => node[k] !== undefined)) ||
    (Array.isArray(node.allOf) && node.allOf.length > 1)
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith("#/")) out[key] = `${docId}${value}`
    else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prepare(v, doc, docId)]))
    } else if (SCHEMA_ONE.has(key)) out[key] = prepare(value, doc, docId)
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((branch) => {
        if (!composing || (key !== "allOf" && key !== "oneOf" && key !== "anyOf")) return prepare(branch, doc, docId)
        // inline a referenced branch so it can be left open here while staying closed elsewhere
        const target = isObject(branch) && typeof branch.$ref === "string" ? pointer(doc, branch.$ref) : branch
        return prepare(target, doc, docId, false)
      })
    } else if (key === "discriminator" && isObject(value)) {
      // ajv picks the branch from each branch's const/enum of the tag and refuses `mapping`
      out[key] = { propertyName: value.propertyName }
    } else out[key] = value
  }
  if (close && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) {
    if (composing) out.unevaluatedProperties = false
    else if (out.properties !== undefined) out.additionalProperties = false
  }
  if (out.nullable === undefined) return out
  const nullable = out.nullable === true
  delete out.nullable
  if (!nullable) return out
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null]
  if (out.type !== undefined) {
    out.type = [...new Set([...(Array.isArray(out.type) ? out.type : [out.type]), "null"])]
    return out
  }
  return { anyOf: [{ type: "null" }, out] }
}

const formatError = (e: ErrorObject): string => {
  const where = e.instancePath === "" ? "(body)" : e.instancePath
  const p = e.params as Record<string, unknown>
  const detail =
    p.additionalProperty !== undefined
      ? ` "${String(p.additionalProperty)}"`
      : p.unevaluatedProperty !== undefined
        ? ` "${String(p.unevaluatedProperty)}"`
        : p.allowedValues !== undefined
          ? ` ${JSON.stringify(p.allowedValues)}`
          : ""
  return `${where} ${e.message ?? "is invalid"}${detail}`
}

export interface OpenApiValidator {
  /** The prepared (nullable-converted, closed) schema of a documented response, or undefined. */
  schemaFor(pathTemplate: string, method: HttpMethod, status: number): unknown
  /** Human-readable errors; empty when the body is what the document describes. */
  validateResponse(pathTemplate: string, method: HttpMethod, status: number, body: unknown): string[]
}

/** A validator over any OpenAPI 3.x document (the two official ones, or a small one in a test). */
export const compileOpenApi = (doc: Json, docId: string): OpenApiValidator => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false, discriminator: true })
  const schemas = (isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {}) as Json
  const prepared = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, prepare(s, doc, docId)]))
  ajv.addSchema({ $id: docId, components: { schemas: prepared } })
  const compiled = new Map<string, ValidateFunction>()

  const operation = (pathTemplate: string, method: HttpMethod): Json => {
    const op = (doc.paths as Record<string, Json | undefined>)[pathTemplate]?.[method]
    if (!isObject(op)) throw new Error(`${method.toUpperCase()} ${pathTemplate} is not in the ${docId} document`)
    return op
  }

  const responseSchema = (pathTemplate: string, method: HttpMethod, status: number): unknown => {
    const responses = (operation(pathTemplate, method).responses ?? {}) as Json
    const success = Object.keys(responses).filter((s) => /^2\d\d$/.test(s))
    // the seed answers 200 everywhere; where the document lists one other 2xx (route 1: 201), use it
    const key =
      responses[String(status)] !== undefined
        ? String(status)
        : status >= 200 && status < 300 && success.length === 1
          ? success[0]
          : "default"
    const response = responses[key as string]
    if (!isObject(response)) return undefined
    const resolved = typeof response.$ref === "string" ? pointer(doc, response.$ref) : response
    const content = isObject(resolved) && isObject(resolved.content) ? resolved.content : {}
    const media = content["application/json"]
    return isObject(media) ? media.schema : undefined
  }

  return {
    schemaFor(pathTemplate, method, status) {
      const schema = responseSchema(pathTemplate, method, status)
      return schema === undefined ? undefined : prepare(schema, doc, docId)
    },
    validateResponse(pathTemplate, method, status, body) {
      const cacheKey = `${method} ${pathTemplate} ${status}`
      let validate = compiled.get(cacheKey)
      if (validate === undefined) {
        const schema = this.schemaFor(pathTemplate, method, status)
        if (schema === undefined) return [`status ${status} is not documented for ${method.toUpperCase()} ${pathTemplate}`]
        validate = ajv.compile(schema as Json)
        compiled.set(cacheKey, validate)
      }
      return validate(body) ? [] : (validate.errors ?? []).map(formatError)
    }
  }
}

const validators = new Map<DocName, OpenApiValidator>()

const validatorOf = (doc: DocName): OpenApiValidator => {
  let v = validators.get(doc)
  if (!v) {
    v = compileOpenApi(JSON.parse(readFileSync(DOC_FILES[doc], "utf8")) as Json, `https://chainetl.test/${doc}-api.json`)
    validators.set(doc, v)
  }
  return v
}

/** Errors of a response body against the official document (empty = valid). Throws for routes the document lacks. */
export const validateResponse = (doc: DocName, pathTemplate: string, method: HttpMethod, status: number, body: unknown): string[] =>
  validatorOf(doc).validateResponse(pathTemplate, method, status, body)

/** The prepared schema the body is checked against, for reading or for building fixtures. */
export const schemaFor = (doc: DocName, pathTemplate: string, method: HttpMethod, status: number): unknown =>
  validatorOf(doc).schemaFor(pathTemplate, method, status)
