/**
 * Several API keys against the real emulator, in one process: requests spread over the keys,
 * each key's budget holds as counted at the service, a 429 pauses its key only, a refused key is
 * dropped while others carry on, and no secret shows in errors, logs or the key report.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { type RunningEmulator, startEmulator } from "@chainetl/emulator"
import { KeyLimiter } from "../../src/source/KeyLimiter.ts"
import { RestClient } from "../../src/source/RestClient.ts"
import { expectWithinBudgets } from "../support/keyWindows.ts"
import { testSource } from "../support/sourceSettings.ts"

const ALPHA = "ka-alpha-5ecret-N0t-T0-Leak"
const BETA = "kb-beta-5ecret-N0t-T0-Leak"
const GAMMA = "kc-gamma-5ecret-N0t-T0-Leak"
const budgets = { alpha: { rate: 10, burst: 2 }, beta: { rate: 4, burst: 1 } }
// the test process runs client and emulator on one event loop: arrivals lag sends by up to this
const JITTER_MS = 100

const emulator = (input: Parameters<typeof startEmulator>[0]) =>
  Effect.acquireRelease(
    Effect.promise(() => startEmulator({ seed: 1, recordKeyArrivals: true, ...input })),
    (emu) => Effect.promise(() => emu.close())
  )

const arrivals = (emu: RunningEmulator, key: string) => [...(emu.keyArrivals().get(key) ?? [])]

/** `n` chain-data requests, `inFlight` at a time; each answer's chain id. */
const burstOf = (n: number, inFlight: number) =>
  Effect.flatMap(RestClient, (rest) =>
    Effect.forEach(Array.from({ length: n }), () => rest.get("data", "/v1/chains/43114"), { concurrency: inFlight })
  )

describe("several API keys", () => {
  it.scopedLive("given alpha (10/s, burst 2) and beta (4/s, burst 1), when 56 requests go 8 at a time, then both keys are used in proportion and neither exceeds its budget in any window at the service", () =>
    Effect.gen(function* () {
      const emu = yield* emulator({ auth: { mode: "required", validKeys: [ALPHA, BETA] }, rateLimit: { perKey: { [ALPHA]: 10, [BETA]: 4 } } })
      const stalls = monitorEventLoopDelay({ resolution: 10 })
      stalls.enable()
      const { answers, report } = yield* Effect.gen(function* () {
        const answers = yield* burstOf(56, 8)
        return { answers, report: yield* (yield* KeyLimiter).report }
      }).pipe(Effect.provide(testSource(emu.baseUrl, { apiKeys: `alpha=${ALPHA},beta=${BETA}`, keyBudgets: budgets, concurrency: 8 })))
      stalls.disable()
      // a stall of this loop notes requests sent further apart as arriving together (keyWindows.ts)
      const jitter = JITTER_MS + stalls.max / 1e6

      expect(answers.length).toBe(56)
      expect(answers.every((a) => (a as { chainId?: string }).chainId === "43114")).toBe(true)
      const a = arrivals(emu, ALPHA)
      const b = arrivals(emu, BETA)
      expect(a.length + b.length).toBe(56)
      // ~10:4 of the requests; each key at least a fifth of its share
      expect(a.length).toBeGreaterThan(b.length)
      expect(b.length).toBeGreaterThanOrEqual(8)
      expectWithinBudgets({ alpha: { arrivals: a, budget: budgets.alpha }, beta: { arrivals: b, budget: budgets.beta } }, [250, 1_000, 3_000], jitter)
      // the service never had to say no: the client kept each key under its limit
      expect(emu.state().requests.rateLimited).toBe(0)
      expect(report.map((k) => [k.name, k.requests, k.rateLimited, k.refused])).toEqual([
        ["alpha", a.length, 0, null],
        ["beta", b.length, 0, null]
      ])
    })
  )

  it.scopedLive("given the service limits alpha far below what the job allows, when alpha is answered 429, then alpha alone pauses for Retry-After while beta carries on, and every request succeeds", () =>
    Effect.gen(function* () {
      // alpha: 2/s at the service though the client thinks 20/s; beta: the service's default
      const emu = yield* emulator({ auth: { mode: "required", validKeys: [ALPHA, BETA] }, rateLimit: { perKey: { [ALPHA]: 2 } } })
      const { answers, report } = yield* Effect.gen(function* () {
        const answers = yield* burstOf(40, 4)
        return { answers, report: yield* (yield* KeyLimiter).report }
      }).pipe(
        Effect.provide(
          testSource(emu.baseUrl, {
            apiKeys: `alpha=${ALPHA},beta=${BETA}`,
            keyBudgets: { alpha: { rate: 20, burst: 4 }, beta: { rate: 20, burst: 4 } },
            concurrency: 4,
            retry: { retryAfterMinMs: 250, maxRateLimitedRetries: 10 }
          })
        )
      )
      expect(answers.length).toBe(40)
      const alpha = report.find((k) => k.name === "alpha")!
      expect(alpha.rateLimited).toBeGreaterThanOrEqual(1)
      expect(emu.state().requests.rateLimited).toBe(alpha.rateLimited)
      expect(report.find((k) => k.name === "beta")!.rateLimited).toBe(0)
      // the emulator says Retry-After: 1 (whole seconds); requests already on their way when the
      // first 429 came back may still arrive just after it, none later within the pause
      const a = arrivals(emu, ALPHA)
      const b = arrivals(emu, BETA)
      const first429 = a[2]! // the emulator's bucket holds 2: the third alpha request is the first refused
      expect(a.filter((t) => t > first429 + 100 && t < first429 + 900)).toEqual([])
      expect(b.filter((t) => t > first429 + 100 && t < first429 + 900).length).toBeGreaterThan(0)
    })
  )

  it.scopedLive("given a key the service refuses (401) among two, when requests go, then that key is dropped after at most one request per slot, all requests succeed on the other, and the report and logs name the key, never its secret", () =>
    Effect.gen(function* () {
      const emu = yield* emulator({ auth: { mode: "required", validKeys: [ALPHA] } })
      const lines: Array<string> = []
      const { answers, report } = yield* Effect.gen(function* () {
        const answers = yield* burstOf(30, 4)
        return { answers, report: yield* (yield* KeyLimiter).report }
      }).pipe(
        Effect.provide(testSource(emu.baseUrl, { apiKeys: `gamma=${GAMMA} alpha=${ALPHA}`, keyBudgets: { gamma: { rate: 50, burst: 4 } }, concurrency: 4 })),
        Effect.provide(Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void lines.push(line)))),
        Logger.withMinimumLogLevel(LogLevel.All)
      )
      expect(answers.length).toBe(30)
      const gamma = report.find((k) => k.name === "gamma")!
      expect(gamma.refused).toMatch(/^HTTP 401: Unauthorized: invalid API key/)
      expect(gamma.requests).toBeGreaterThanOrEqual(1)
      expect(gamma.requests).toBeLessThanOrEqual(4)
      expect(emu.state().requests.byStatus["401"]).toBe(gamma.requests)
      expect(arrivals(emu, ALPHA).length).toBe(30)
      expect(lines.filter((l) => l.includes("API key 'gamma' was refused")).length).toBe(1)
      expect(lines.join("\n")).toContain("going on with 'alpha'")
      const text = lines.join("\n") + JSON.stringify(report)
      for (const secret of [ALPHA, GAMMA]) expect(text).not.toContain(secret)
    })
  )

  it.scopedLive("given every key refused, when a request goes, then it fails as Auth naming CHAINETL_API_KEYS and the key names, never a secret", () =>
    Effect.gen(function* () {
      const emu = yield* emulator({ auth: { mode: "required", validKeys: ["some-other-key"] } })
      const error = yield* Effect.flip(burstOf(1, 1)).pipe(Effect.provide(testSource(emu.baseUrl, { apiKeys: `alpha=${ALPHA},beta=${BETA}` })))
      expect(error.reason).toBe("Auth")
      expect(error.message).toContain("every key of CHAINETL_API_KEYS (alpha, beta) was refused, sent in the x-service-api-key header. Set CHAINETL_API_KEYS to keys this service accepts")
      expect(emu.state().requests.byStatus["401"]).toBe(2)
      for (const secret of [ALPHA, BETA]) expect(JSON.stringify(error) + error.message).not.toContain(secret)
    })
  )
})
