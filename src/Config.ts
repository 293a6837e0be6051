/**
 * Settings of the source side: where the three services live, the API key, the output directory
 * and the request limits. The environment variable names are public interface; the CLI passes
 * its flags as overrides and tests pass explicit values, all through one validation so that a
 * bad value always gives the same ConfigError (field, what was expected, what was got, the fix).
 */
import { Config, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { ConfigError } from "./Errors.ts"
import { type ApiKey, type KeyBudgetInput, resolveApiKeys } from "./ApiKeys.ts"

/** Backoff and Retry-After tuning. Not in the environment: tests shrink it to run fast. */
export interface RetryTuning {
  /** First backoff of a transient failure; doubles per retry, with jitter. */
  readonly baseDelayMs: number
  /** Ceiling of one backoff. */
  readonly maxDelayMs: number
  /** Floor of a 429 wait, so `Retry-After: 0` or a missing header cannot busy-loop. */
  readonly retryAfterMinMs: number
  /** Ceiling of a 429 wait, so an absurd `Retry-After` cannot stall a run for hours. */
  readonly retryAfterMaxMs: number
  /** 429s have their own budget: being throttled is not the service failing. */
  readonly maxRateLimitedRetries: number
}

export interface SourceSettings {
  /** Chain-data REST root, without trailing slash. */
  readonly baseUrl: string
  /** Metrics REST root, without trailing slash. */
  readonly metricsUrl: string
  /** Node root, without trailing slash; /ext/bc/<chain> is appended. */
  readonly nodeUrl: string
  /**
   * The chain-data service's keys with their budgets (ApiKeys.ts): none, the one of
   * CHAINETL_API_KEY (named `default`), or those of CHAINETL_API_KEYS.
   */
  readonly apiKeys: ReadonlyArray<ApiKey>
  /** Lower-cased header name carrying the key to the chain-data service. */
  readonly apiKeyHeader: string
  readonly out: string
  /**
   * Per request attempt: the longest wait for the answer's headers, and then the longest silence
   * between two pieces of its body. A large body that keeps arriving is never cut off.
   */
  readonly timeoutMs: number
  /** The largest answer body read (bytes); past it the request fails (TooLarge), unretried. */
  readonly maxBodyBytes: number
  /** Retries of transient failures (5xx, transport, timeout, bad JSON) per request. */
  readonly maxRetries: number
  /** Requests per second per host (the limiter's ceiling; it adapts below it on 429). */
  readonly rateLimit: number
  /** Tokens the per-host bucket may save up. */
  readonly rateBurst: number
  /** Requests in flight per host, at most: below it they follow the host's round trip and rate (src/pace/InFlight.ts). */
  readonly concurrency: number
  readonly retry: RetryTuning
}

/** The requests a second the settings allow: the keys' budgets together, else the per-host rate limit. */
export const allowedRate = (settings: Pick<SourceSettings, "apiKeys" | "rateLimit">): number =>
  settings.apiKeys.length > 0 ? settings.apiKeys.reduce((n, k) => n + k.rate, 0) : settings.rateLimit

/** Raw values as they come from the environment, flags or a test; strings are parsed. */
export interface SourceSettingsInput {
  readonly baseUrl?: string
  readonly metricsUrl?: string
  readonly nodeUrl?: string
  readonly apiKey?: string | Redacted.Redacted<string>
  /** `name=secret,name=secret` (CHAINETL_API_KEYS). */
  readonly apiKeys?: string | Redacted.Redacted<string>
  /** Per key name: its budget (the job's `apiKeys`). */
  readonly keyBudgets?: Readonly<Record<string, KeyBudgetInput>>
  /** How errors name where `keyBudgets` came from (the job file). */
  readonly keyBudgetsField?: string
  readonly apiKeyHeader?: string
  readonly out?: string
  readonly timeoutMs?: number | string
  /** Megabytes (2^20 bytes), fractions allowed. */
  readonly maxBodyMb?: number | string
  readonly maxRetries?: number | string
  readonly rateLimit?: number | string
  readonly concurrency?: number | string
  readonly rateBurst?: number | string
  readonly retry?: Partial<RetryTuning>
}

type Field = Exclude<keyof SourceSettingsInput, "retry" | "keyBudgets" | "keyBudgetsField">

/** The name errors use for each field (its environment variable) unless the caller relabels it. */
export const envNames: Readonly<Record<Field, string>> = {
  baseUrl: "CHAINETL_BASE_URL",
  metricsUrl: "CHAINETL_METRICS_URL",
  nodeUrl: "CHAINETL_NODE_URL",
  apiKey: "CHAINETL_API_KEY",
  apiKeys: "CHAINETL_API_KEYS",
  apiKeyHeader: "CHAINETL_API_KEY_HEADER",
  out: "CHAINETL_OUT",
  timeoutMs: "CHAINETL_TIMEOUT_MS",
  maxBodyMb: "CHAINETL_MAX_BODY_MB",
  maxRetries: "CHAINETL_MAX_RETRIES",
  rateLimit: "CHAINETL_RATE_LIMIT",
  concurrency: "CHAINETL_CONCURRENCY",
  // Not an environment variable (the public names are fixed); settable by flags and tests only.
  rateBurst: "rateBurst"
}

export const defaultRetryTuning: RetryTuning = {
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  retryAfterMinMs: 250,
  retryAfterMaxMs: 60_000,
  maxRateLimitedRetries: 10
}

const defaults = {
  apiKeyHeader: "x-service-api-key",
  out: "output",
  timeoutMs: 30_000,
  maxBodyMb: 128,
  maxRetries: 6,
  rateLimit: 20,
  // a cap, not a setting to tune: requests in flight follow rate × round trip below it
  concurrency: 64,
  rateBurst: 4
} as const

/** Where a value came from, so the fix names what the user actually set (a flag or a variable). */
export type FieldLabels = Partial<Record<Field, string>>

const fixFor = (label: string, example: string): string =>
  label.startsWith("-") ? `pass ${label} ${example}` : `export ${label}=${example}`

const show = (raw: unknown): string => `'${String(raw)}'`

const invalid = (label: string, expected: string, raw: unknown, example: string) =>
  new ConfigError({
    reason: "Invalid",
    field: label,
    detail: `expected ${expected}, got ${show(raw)}`,
    fix: fixFor(label, example)
  })

const parseUrl = (label: string, raw: string | undefined, what: string): Either.Either<string, ConfigError> => {
  const example = "https://…"
  if (raw === undefined || raw.trim() === "") {
    return Either.left(
      new ConfigError({
        reason: "Missing",
        field: label,
        detail: `not set; expected an http(s) URL of the ${what}`,
        fix: fixFor(label, example)
      })
    )
  }
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return Either.left(invalid(label, "an http(s) URL", raw, example))
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left(invalid(label, "an http(s) URL", raw, example))
  }
  if (url.search !== "" || url.hash !== "") {
    return Either.left(invalid(label, "an http(s) URL without query or fragment", raw, example))
  }
  // Paths are appended to the root, so a trailing slash would double up.
  return Either.right(url.toString().replace(/\/+$/, ""))
}

const parseNumber = (
  label: string,
  raw: number | string | undefined,
  fallback: number,
  rule: { readonly integer: boolean; readonly min: number; readonly expected: string; readonly example: string }
): Either.Either<number, ConfigError> => {
  if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) return Either.right(fallback)
  const n = typeof raw === "number" ? raw : Number(raw.trim())
  if (!Number.isFinite(n) || n < rule.min || (rule.integer && !Number.isInteger(n))) {
    return Either.left(invalid(label, rule.expected, raw, rule.example))
  }
  return Either.right(n)
}

// An HTTP header name is an RFC 9110 token.
const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** The three services; a run needs only those its datasets call. */
export type Service = "data" | "metrics" | "node"
export const allServices: ReadonlyArray<Service> = ["data", "metrics", "node"]

const urlFields = [
  { service: "data", field: "baseUrl", what: "chain-data REST service" },
  { service: "metrics", field: "metricsUrl", what: "metrics REST service" },
  { service: "node", field: "nodeUrl", what: "node JSON-RPC root" }
] as const

/**
 * The service roots: each one `required` must be set, one not required may be unset (it is then
 * ""; nothing of the run calls it). Every problem is reported in one error, so a user fixes their
 * environment once rather than variable by variable.
 */
const parseUrls = (
  input: SourceSettingsInput,
  label: (f: Field) => string,
  required: ReadonlyArray<Service>
): Either.Either<Record<"baseUrl" | "metricsUrl" | "nodeUrl", string>, ConfigError> => {
  const urls: Record<string, string> = {}
  const errors: Array<ConfigError> = []
  for (const u of urlFields) {
    const raw = input[u.field]
    if (!required.includes(u.service) && (raw === undefined || raw.trim() === "")) {
      urls[u.field] = ""
      continue
    }
    const parsed = parseUrl(label(u.field), raw, u.what)
    if (Either.isLeft(parsed)) errors.push(parsed.left)
    else urls[u.field] = parsed.right
  }
  if (errors.length === 0) return Either.right(urls as Record<"baseUrl" | "metricsUrl" | "nodeUrl", string>)
  if (errors.length === 1) return Either.left(errors[0] as ConfigError)
  return Either.left(
    new ConfigError({
      reason: errors.every((e) => e.reason === "Missing") ? "Missing" : "Invalid",
      field: errors.map((e) => e.field).join(", "),
      detail: errors.map((e) => `${e.field} ${e.detail}`).join("; "),
      fix: errors.map((e) => e.fix).join(" and ")
    })
  )
}

/**
 * Validates explicit values (flags, tests) into settings; `labels` renames fields in errors;
 * `required` names the services the caller will call (default all three).
 */
export const makeSourceSettings = (
  input: SourceSettingsInput,
  labels: FieldLabels = {},
  required: ReadonlyArray<Service> = allServices
): Either.Either<SourceSettings, ConfigError> => {
  const label = (f: Field) => labels[f] ?? envNames[f]
  return Either.gen(function* () {
    const { baseUrl, metricsUrl, nodeUrl } = yield* parseUrls(input, label, required)
    const header = (input.apiKeyHeader ?? defaults.apiKeyHeader).trim()
    if (!headerToken.test(header)) {
      return yield* Either.left(invalid(label("apiKeyHeader"), "an HTTP header name", input.apiKeyHeader, "x-service-api-key"))
    }
    const out = (input.out ?? defaults.out).trim()
    if (out === "") {
      return yield* Either.left(invalid(label("out"), "a directory path", input.out, "output"))
    }
    const timeoutMs = yield* parseNumber(label("timeoutMs"), input.timeoutMs, defaults.timeoutMs, {
      integer: true, min: 1, expected: "a positive integer of milliseconds", example: "30000"
    })
    const maxBodyMb = yield* parseNumber(label("maxBodyMb"), input.maxBodyMb, defaults.maxBodyMb, {
      integer: false, min: Number.MIN_VALUE, expected: "a positive number of megabytes", example: "128"
    })
    const maxRetries = yield* parseNumber(label("maxRetries"), input.maxRetries, defaults.maxRetries, {
      integer: true, min: 0, expected: "a non-negative integer", example: "6"
    })
    const rateLimit = yield* parseNumber(label("rateLimit"), input.rateLimit, defaults.rateLimit, {
      integer: false, min: Number.MIN_VALUE, expected: "a positive number of requests per second", example: "20"
    })
    const concurrency = yield* parseNumber(label("concurrency"), input.concurrency, defaults.concurrency, {
      integer: true, min: 1, expected: "a positive integer", example: "64"
    })
    // The bucket's burst is not the in-flight cap: a cap of 64 must not let 64 requests leave in
    // the first instant. A few tokens absorb the jitter of requests; the rate does the rest.
    const burstDefault = Math.min(concurrency, defaults.rateBurst)
    const rateBurst = yield* parseNumber(label("rateBurst"), input.rateBurst, burstDefault, {
      integer: true, min: 1, expected: "a positive integer", example: String(burstDefault)
    })
    const redact = (v: string | Redacted.Redacted<string> | undefined) => (typeof v === "string" ? Redacted.make(v) : v)
    const apiKeys = yield* resolveApiKeys({
      single: redact(input.apiKey),
      list: redact(input.apiKeys),
      budgets: input.keyBudgets,
      budgetsField: input.keyBudgetsField ?? "job",
      defaults: { rate: rateLimit, burst: rateBurst }
    })
    return {
      baseUrl,
      metricsUrl,
      nodeUrl,
      apiKeys,
      apiKeyHeader: header.toLowerCase(),
      out,
      timeoutMs,
      maxBodyBytes: Math.floor(maxBodyMb * 1024 * 1024),
      maxRetries,
      rateLimit,
      rateBurst,
      concurrency,
      retry: { ...defaultRetryTuning, ...input.retry }
    }
  })
}

const optional = (name: string) => Config.option(Config.string(name))

/** The environment as raw input; only variables that are set appear. */
export const sourceSettingsConfig: Config.Config<SourceSettingsInput> = Config.all({
  baseUrl: optional(envNames.baseUrl),
  metricsUrl: optional(envNames.metricsUrl),
  nodeUrl: optional(envNames.nodeUrl),
  apiKey: Config.option(Config.redacted(envNames.apiKey)),
  apiKeys: Config.option(Config.redacted(envNames.apiKeys)),
  apiKeyHeader: optional(envNames.apiKeyHeader),
  out: optional(envNames.out),
  timeoutMs: optional(envNames.timeoutMs),
  maxBodyMb: optional(envNames.maxBodyMb),
  maxRetries: optional(envNames.maxRetries),
  rateLimit: optional(envNames.rateLimit),
  concurrency: optional(envNames.concurrency)
}).pipe(
  Config.map((raw) => {
    const input: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(raw) as Array<[string, Option.Option<unknown>]>) {
      if (Option.isSome(v)) input[k] = v.value
    }
    return input as SourceSettingsInput
  })
)

/**
 * Reads the environment, lets `overrides` (e.g. CLI flags, labelled by `labels`) win field by
 * field, and validates.
 */
export const loadSourceSettings = (
  overrides: SourceSettingsInput = {},
  labels: FieldLabels = {},
  required: ReadonlyArray<Service> = allServices
): Effect.Effect<SourceSettings, ConfigError> =>
  sourceSettingsConfig.pipe(
    Effect.mapError(
      (cause) =>
        new ConfigError({
          reason: "Invalid",
          field: "environment",
          detail: `could not read the CHAINETL_* variables: ${String(cause)}`,
          fix: "check the CHAINETL_* variables"
        })
    ),
    Effect.flatMap((env) => {
      const set = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
      const usedLabels = Object.fromEntries(Object.entries(labels).filter(([k]) => k in set))
      return makeSourceSettings({ ...env, ...set }, usedLabels, required)
    })
  )

/** The validated settings as a service, so layers can depend on them. */
export class SourceConfig extends Context.Tag("chainetl/SourceConfig")<SourceConfig, SourceSettings>() {
  /** From the environment. */
  static readonly layer: Layer.Layer<SourceConfig, ConfigError> = Layer.effect(SourceConfig, loadSourceSettings())
  /** From explicit values (CLI flags over the environment use `loadSourceSettings`). */
  static readonly layerWith = (input: SourceSettingsInput): Layer.Layer<SourceConfig, ConfigError> =>
    Layer.effect(SourceConfig, makeSourceSettings(input))
  /** Settings already validated (the CLI validates before it touches anything). */
  static readonly layerOf = (settings: SourceSettings): Layer.Layer<SourceConfig> => Layer.succeed(SourceConfig, settings)
}
