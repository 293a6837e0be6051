import { ConfigProvider, Effect, Either, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { loadSourceSettings, makeSourceSettings } from "../../src/Config.ts"
import type { ConfigError } from "../../src/Errors.ts"

const urls = {
  baseUrl: "http://127.0.0.1:1/",
  metricsUrl: "http://127.0.0.1:2",
  nodeUrl: "https://node.example/rpc/"
}

const fromEnv = (env: Record<string, string>, overrides = {}, labels = {}) =>
  Effect.runSync(
    Effect.either(loadSourceSettings(overrides, labels)).pipe(
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
    )
  )

const leftOf = (e: Either.Either<unknown, ConfigError>): ConfigError => {
  if (Either.isRight(e)) throw new Error("expected a ConfigError")
  return e.left
}

describe("Config", () => {
  it("given only the three URLs, when validated, then defaults fill the rest and trailing slashes go", () => {
    const s = Either.getOrThrow(makeSourceSettings(urls))
    expect(s.baseUrl).toBe("http://127.0.0.1:1")
    expect(s.nodeUrl).toBe("https://node.example/rpc")
    expect(s.apiKeyHeader).toBe("x-service-api-key")
    expect(s.out).toBe("output")
    expect([s.timeoutMs, s.maxRetries, s.rateLimit, s.concurrency, s.rateBurst]).toEqual([30000, 6, 20, 64, 4])
    expect(s.apiKeys).toEqual([])
  })

  it("given an in-flight cap below the default burst, when validated, then the burst is the cap", () => {
    const s = Either.getOrThrow(makeSourceSettings({ ...urls, concurrency: 2 }))
    expect([s.concurrency, s.rateBurst]).toEqual([2, 2])
  })

  it("given a URL that is not http(s), when validated, then ConfigError names the variable and the fix", () => {
    const err = leftOf(makeSourceSettings({ ...urls, baseUrl: "foo" }))
    expect(err.field).toBe("CHAINETL_BASE_URL")
    expect(err.message).toBe("CHAINETL_BASE_URL: expected an http(s) URL, got 'foo'. Fix: export CHAINETL_BASE_URL=https://…")
    expect(leftOf(makeSourceSettings({ ...urls, nodeUrl: "ftp://x" })).field).toBe("CHAINETL_NODE_URL")
  })

  it("given a missing URL, when validated, then ConfigError says Missing and how to set it", () => {
    const err = leftOf(makeSourceSettings({ baseUrl: urls.baseUrl, nodeUrl: urls.nodeUrl }))
    expect(err.reason).toBe("Missing")
    expect(err.field).toBe("CHAINETL_METRICS_URL")
    expect(err.fix).toBe("export CHAINETL_METRICS_URL=https://…")
  })

  it("given a negative number in the environment, when loaded, then ConfigError names the variable, the value and the fix", () => {
    const err = leftOf(
      fromEnv({
        CHAINETL_BASE_URL: urls.baseUrl,
        CHAINETL_METRICS_URL: urls.metricsUrl,
        CHAINETL_NODE_URL: urls.nodeUrl,
        CHAINETL_MAX_RETRIES: "-3"
      })
    )
    expect(err.message).toBe("CHAINETL_MAX_RETRIES: expected a non-negative integer, got '-3'. Fix: export CHAINETL_MAX_RETRIES=6")
    expect(leftOf(makeSourceSettings({ ...urls, rateLimit: "0" })).field).toBe("CHAINETL_RATE_LIMIT")
    expect(leftOf(makeSourceSettings({ ...urls, timeoutMs: "1.5" })).field).toBe("CHAINETL_TIMEOUT_MS")
    expect(leftOf(makeSourceSettings({ ...urls, concurrency: -1 })).field).toBe("CHAINETL_CONCURRENCY")
  })

  it("given the environment and a flag override, when loaded, then the flag wins and errors name the flag", () => {
    const env = {
      CHAINETL_BASE_URL: "http://env.example",
      CHAINETL_METRICS_URL: urls.metricsUrl,
      CHAINETL_NODE_URL: urls.nodeUrl,
      CHAINETL_API_KEY: "sekret",
      CHAINETL_API_KEY_HEADER: "X-Api-Token",
      CHAINETL_RATE_LIMIT: "2.5"
    }
    const s = Either.getOrThrow(fromEnv(env, { baseUrl: "http://flag.example" }, { baseUrl: "--base-url" }))
    expect(s.baseUrl).toBe("http://flag.example")
    expect(s.apiKeyHeader).toBe("x-api-token")
    expect(s.rateLimit).toBe(2.5)
    // CHAINETL_API_KEY is one key named `default` with the host's budget, as before several keys
    expect(s.apiKeys.map((k) => ({ name: k.name, secret: Redacted.value(k.secret), rate: k.rate, burst: k.burst }))).toEqual([
      { name: "default", secret: "sekret", rate: 2.5, burst: 4 }
    ])
    expect(JSON.stringify(s.apiKeys) + String(s.apiKeys[0]?.secret)).not.toContain("sekret")

    const err = leftOf(fromEnv(env, { baseUrl: "nope" }, { baseUrl: "--base-url" }))
    expect(err.message).toBe("--base-url: expected an http(s) URL, got 'nope'. Fix: pass --base-url https://…")
  })

  it("given an empty API key, when validated, then no key is configured", () => {
    expect(Either.getOrThrow(makeSourceSettings({ ...urls, apiKey: "" })).apiKeys).toEqual([])
  })

  it("given a header name with a space, when validated, then ConfigError names CHAINETL_API_KEY_HEADER", () => {
    expect(leftOf(makeSourceSettings({ ...urls, apiKeyHeader: "x key" })).field).toBe("CHAINETL_API_KEY_HEADER")
  })

  it("given CHAINETL_API_KEYS and the job's budgets, when loaded, then each key has its name, secret and budget, unnamed ones the defaults, and an id that is a digest, not the secret", () => {
    const env = { ...Object.fromEntries(Object.entries(urls).map(([k, v]) => [k === "baseUrl" ? "CHAINETL_BASE_URL" : k === "metricsUrl" ? "CHAINETL_METRICS_URL" : "CHAINETL_NODE_URL", v])), CHAINETL_API_KEYS: " alpha=ka-1, beta=kb=2\ngamma=kc-3 ", CHAINETL_RATE_LIMIT: "7" }
    const s = Either.getOrThrow(fromEnv(env, { keyBudgets: { alpha: { rate: 10, burst: 3 }, beta: { rate: 0.5 } } }))
    expect(s.apiKeys.map((k) => [k.name, Redacted.value(k.secret), k.rate, k.burst])).toEqual([
      ["alpha", "ka-1", 10, 3],
      ["beta", "kb=2", 0.5, 4],
      ["gamma", "kc-3", 7, 4]
    ])
    expect(new Set(s.apiKeys.map((k) => k.id)).size).toBe(3)
    for (const k of s.apiKeys) expect(k.id).toMatch(/^sha256:[0-9a-f]{32}$/)
    expect(JSON.stringify(s.apiKeys)).not.toMatch(/ka-1|kb=2|kc-3/)
  })

  it("given one key listed under two names, a name twice or an empty secret, when validated, then ConfigError names CHAINETL_API_KEYS and never a secret", () => {
    const twice = leftOf(makeSourceSettings({ ...urls, apiKeys: "alpha=same-secret,beta=same-secret" }))
    expect(twice.message).toBe("CHAINETL_API_KEYS: keys 'alpha' and 'beta' are the same key (one budget at the service, counted twice here). Fix: list each key once")
    expect(leftOf(makeSourceSettings({ ...urls, apiKeys: "alpha=s1,alpha=s2" })).detail).toBe("key name 'alpha' is given twice")
    expect(leftOf(makeSourceSettings({ ...urls, apiKeys: "alpha=" })).detail).toBe("key 'alpha' has an empty secret")
    expect(leftOf(makeSourceSettings({ ...urls, apiKeys: "s3cret-without-a-name" })).message).not.toContain("s3cret")
  })
})
