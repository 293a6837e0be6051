import { describe, expect, it } from "@effect/vitest"
import { Effect, Random, ScheduleDecision } from "effect"
import { defaultRetryTuning } from "../../src/Config.ts"
import { SourceError } from "../../src/Errors.ts"
import { errorDetail, isTokenProblem, statusFailure } from "../../src/source/Response.ts"
import {
  type AttemptFailure,
  attemptFailure,
  backoffMs,
  parseRetryAfter,
  rateLimitWaitMs,
  type RetryState,
  retrySchedule
} from "../../src/source/Retry.ts"

const bytes = (s: string) => new TextEncoder().encode(s)
const failure = (retry: AttemptFailure["retry"], retryAfterMs?: number) =>
  attemptFailure(new SourceError({ reason: "HttpStatus", request: "GET data /x", detail: "d" }), retry, retryAfterMs)

/** Steps the schedule through `inputs`; each decision's output, undefined once it gives up. */
const drive = (inputs: ReadonlyArray<AttemptFailure>, maxRetries: number) =>
  Effect.gen(function* () {
    const schedule = retrySchedule({ ...defaultRetryTuning, maxRetries, maxRateLimitedRetries: 2 })
    let state = schedule.initial
    const outs: Array<RetryState | undefined> = []
    for (const input of inputs) {
      const [next, out, decision] = yield* schedule.step(0, input, state)
      state = next
      outs.push(ScheduleDecision.isDone(decision) ? undefined : out)
    }
    return outs
  })

describe("Retry policy", () => {
  it("given Retry-After in seconds, a decimal, an HTTP date or garbage, when parsed, then it is ms or undefined", () => {
    const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT")
    expect(parseRetryAfter("1", now)).toBe(1_000)
    expect(parseRetryAfter("0", now)).toBe(0)
    expect(parseRetryAfter("1.5", now)).toBe(1_500)
    expect(parseRetryAfter("Wed, 21 Oct 2026 07:28:30 GMT", now)).toBe(30_000)
    expect(parseRetryAfter("Wed, 21 Oct 2026 07:27:00 GMT", now)).toBe(0)
    expect(parseRetryAfter("soon", now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })

  it("given retries 0..10, when backing off, then each wait lies in [step/2, step] with step = min(10 s, 200 ms·2^n)", () => {
    expect([0, 1, 2, 5, 6, 10].map((n) => backoffMs(n, defaultRetryTuning, 0))).toEqual([100, 200, 400, 3_200, 5_000, 5_000])
    expect([0, 1, 2, 5, 6, 10].map((n) => backoffMs(n, defaultRetryTuning, 1))).toEqual([200, 400, 800, 6_400, 10_000, 10_000])
  })

  it("given Retry-After 0, missing, 1 s or a day, when waiting on a 429, then it waits at least 250 ms and at most 60 s plus jitter", () => {
    expect(rateLimitWaitMs(0, defaultRetryTuning, 0)).toBe(250)
    expect(rateLimitWaitMs(undefined, defaultRetryTuning, 0)).toBe(250)
    expect(rateLimitWaitMs(1_000, defaultRetryTuning, 0)).toBe(1_000)
    expect(rateLimitWaitMs(1_000, defaultRetryTuning, 1)).toBe(1_250)
    expect(rateLimitWaitMs(86_400_000, defaultRetryTuning, 0.5)).toBe(60_125)
  })

  it.effect("given transient failures, when the schedule runs, then it allows maxRetries and then gives up", () =>
    Effect.gen(function* () {
      const outs = yield* drive([failure("transient"), failure("transient"), failure("transient")], 2)
      expect(outs.map((o) => o?.retries)).toEqual([1, 2, undefined])
      expect(outs.map((o) => o?.kind)).toEqual(["transient", "transient", undefined])
    }).pipe(Effect.withRandom(Random.make("seed")))
  )

  it.effect("given 429s between transient failures, when the schedule runs, then each kind spends its own budget", () =>
    Effect.gen(function* () {
      const outs = yield* drive(
        [failure("rateLimited", 0), failure("transient"), failure("rateLimited", 1_000), failure("rateLimited", 0)],
        1
      )
      expect(outs.map((o) => o && [o.kind, o.retries, o.rateLimitedRetries])).toEqual([
        ["rateLimited", 0, 1],
        ["transient", 1, 1],
        ["rateLimited", 1, 2],
        undefined
      ])
      expect(outs[2]!.delayMs).toBeGreaterThanOrEqual(1_000)
    }).pipe(Effect.withRandom(Random.make("seed")))
  )

  it.effect("given a permanent failure, when the schedule runs, then it gives up at once", () =>
    Effect.gen(function* () {
      expect(yield* drive([failure("never")], 5)).toEqual([undefined])
    })
  )
})

describe("Response interpretation", () => {
  it("given the error bodies of both services and the node, when read, then the service's words come out", () => {
    expect(errorDetail('{"message":"Not found","statusCode":404,"error":"Not Found"}')).toBe("Not Found: Not found")
    expect(errorDetail('{"message":["pageSize must be <= 2160","timeInterval must be day"],"statusCode":400,"error":"Bad Request"}')).toBe(
      "Bad Request: pageSize must be <= 2160; timeInterval must be day"
    )
    expect(errorDetail('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"not found"}}')).toBe("not found")
    expect(errorDetail("<html>bad gateway</html>")).toBe("<html>bad gateway</html>")
    expect(errorDetail("")).toBe("(empty body)")
  })

  it("given 400 messages, when checked for page-token trouble, then only page-token ones count", () => {
    expect(isTokenProblem("Bad Request: invalid page token: unknown token")).toBe(true)
    expect(isTokenProblem("Bad Request: page token expired: restart the listing from the first page")).toBe(true)
    expect(isTokenProblem("Bad Request: pageToken is invalid or expired")).toBe(true)
    expect(isTokenProblem("Bad Request: Invalid token address 0xabc")).toBe(false)
    expect(isTokenProblem("Bad Request: pageSize must be at most 100")).toBe(false)
  })

  it("given statuses, when turned into failures, then reason and retryability follow the policy", () => {
    const of = (status: number, body = '{"message":"m","statusCode":0,"error":"E"}', retryAfter?: string) => {
      const f = statusFailure("GET data /x", status, retryAfter, bytes(body), 0)
      return [f.error.reason, f.retry, f.retryAfterMs]
    }
    expect(of(500)).toEqual(["HttpStatus", "transient", undefined])
    expect(of(502)).toEqual(["HttpStatus", "transient", undefined])
    expect(of(503)).toEqual(["HttpStatus", "transient", undefined])
    expect(of(504)).toEqual(["HttpStatus", "transient", undefined])
    expect(of(501)).toEqual(["HttpStatus", "never", undefined])
    expect(of(401)).toEqual(["Auth", "never", undefined])
    expect(of(403)).toEqual(["Auth", "never", undefined])
    expect(of(404)).toEqual(["HttpStatus", "never", undefined])
    expect(of(429, undefined, "3")).toEqual(["RateLimited", "rateLimited", 3_000])
    expect(of(400, '{"message":"page token expired","statusCode":400,"error":"Bad Request"}')).toEqual(["TokenExpired", "never", undefined])
    expect(of(400)).toEqual(["HttpStatus", "never", undefined])
  })
})
