/**
 * The one HTTP exchange both clients go through: per-host limiter (or, for a keyed request, the
 * key chosen by KeyLimiter), per-attempt timeout over headers and body, status interpretation,
 * the retry schedule and the stats. RestClient and JsonRpcClient only build requests and labels.
 */
import { Clock, Context, Effect, Either, Layer, Redacted, Schedule } from "effect"
import { SourceConfig } from "../Config.ts"
import { SourceError } from "../Errors.ts"
import { type ApiKey, scrubKeys } from "../ApiKeys.ts"
import type { KeyStoreError } from "./KeyBuckets.ts"
import { KeyLimiter } from "./KeyLimiter.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { parseJson, statusFailure } from "./Response.ts"
import { type AttemptFailure, attemptFailure, clampRetryAfterMs, type RetryState, retrySchedule } from "./Retry.ts"
import { SourceStats } from "./SourceStats.ts"
import { authError, makeAuthStop } from "./AuthStop.ts"
import { type Answer, type Exchange, Transport } from "./Transport.ts"

export interface Outgoing {
  /** Identifies the request in errors, logs and spans, e.g. `GET data /v1/chains/43114/blocks?pageSize=100`. */
  readonly label: string
  readonly request: Exchange
  /**
   * Judges a parsed 2xx body inside the attempt, so an answer that is an error in disguise
   * (a JSON-RPC error object) gets the same retry decision as a status code.
   */
  readonly check?: (body: unknown) => Either.Either<unknown, AttemptFailure>
  /** Goes with an API key when keys are configured (chain-data requests). */
  readonly keyed?: boolean
}

/** A key was refused and others remain: the request goes again, on another key. */
const AGAIN: unique symbol = Symbol("again")

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * The error the caller sees: what was spent on retries appended, and the API key cut out in case
 * the service echoed it back in its message.
 */
const giveUpError = (failure: AttemptFailure, state: RetryState, scrub: (text: string) => string): SourceError => {
  const spent = [
    state.retries > 0 ? plural(state.retries, "retry", "retries") : undefined,
    state.rateLimitedRetries > 0 ? plural(state.rateLimitedRetries, "wait on 429", "waits on 429") : undefined
  ].filter((s) => s !== undefined)
  const e = failure.error
  return new SourceError({
    reason: e.reason,
    request: e.request,
    ...(e.status === undefined ? {} : { status: e.status }),
    detail: scrub(spent.length === 0 ? e.detail : `${e.detail} (gave up after ${spent.join(" and ")})`)
  })
}

export const makeSourceHttp = Effect.gen(function* () {
  const settings = yield* SourceConfig
  const transport = yield* Transport
  const limiter = yield* RateLimiter
  const keyLimiter = yield* KeyLimiter
  const stats = yield* SourceStats
  const policy = { ...settings.retry, maxRetries: settings.maxRetries }
  const scrub = scrubKeys(settings.apiKeys)
  const authStop = makeAuthStop()
  const limits = { timeoutMs: settings.timeoutMs, maxBodyBytes: settings.maxBodyBytes }

  const execute = (outgoing: Outgoing): Effect.Effect<unknown, SourceError> => {
    const { label, request } = outgoing
    const host = new URL(request.url).host
    /** An attempt, its round trip told to the limiter when the service answered 2xx (its requests in flight follow it). */
    const timed = (send: Effect.Effect<Answer, AttemptFailure>, observe: (ms: number) => Effect.Effect<void>) =>
      Effect.flatMap(Clock.currentTimeMillis, (t0) =>
        Effect.tap(send, (answer) =>
          answer.status >= 200 && answer.status < 300 ? Effect.flatMap(Clock.currentTimeMillis, (t1) => observe(t1 - t0)) : Effect.void
        )
      )
    const exchange = timed(transport.send(request, limits, label), (ms) => limiter.onRoundTrip(host, ms))

    /** What an answer means; `key` is the key it was sent with, if any. */
    const understand = (answer: Answer, key?: ApiKey): Effect.Effect<unknown, AttemptFailure> =>
      Effect.gen(function* () {
        yield* stats.add(host, { bytesReceived: answer.bytes.length, serverErrors: answer.status >= 500 ? 1 : 0 })
        if (answer.status >= 200 && answer.status < 300) {
          // Any 2xx means the host (or the key) let us through, which is all the limiter wants to know.
          yield* key === undefined ? limiter.onSuccess(host) : keyLimiter.onSuccess(key)
          return yield* Either.flatMap(parseJson(label, answer.status, answer.bytes), outgoing.check ?? Either.right)
        }
        const failure = statusFailure(label, answer.status, answer.retryAfter, answer.bytes, yield* Clock.currentTimeMillis)
        if (failure.retry === "rateLimited") {
          yield* stats.add(host, { rateLimited: 1 })
          const pauseMs = clampRetryAfterMs(failure.retryAfterMs, policy)
          yield* key === undefined ? limiter.onRateLimited(host, pauseMs) : keyLimiter.onRateLimited(key, pauseMs)
        }
        return yield* Effect.fail(failure)
      })

    const unkeyed = limiter.withPermit(host)(Effect.zipRight(stats.add(host, { requests: 1 }), exchange)).pipe(Effect.flatMap((a) => understand(a)))

    /** One attempt on one key; a refused key is dropped and, while others remain, the request goes again on one of them. */
    const keyed: Effect.Effect<unknown, AttemptFailure> = Effect.suspend(() =>
      keyLimiter
        .withKey(host, label)((key) =>
          Effect.zipRight(
            stats.add(host, { requests: 1 }),
            timed(
              transport.send({ ...request, headers: { ...request.headers, [settings.apiKeyHeader]: Redacted.value(key.secret) } }, limits, label),
              (ms) => keyLimiter.onRoundTrip(host, ms)
            )
          ).pipe(
            Effect.flatMap((answer) => understand(answer, key)),
            Effect.catchIf(
              (failure) => failure.error.reason === "Auth",
              (failure) =>
                Effect.flatMap(keyLimiter.refuse(key, new SourceError({ ...failure.error, detail: scrub(failure.error.detail) })), (others) =>
                  others ? Effect.succeed(AGAIN) : Effect.fail(failure)
                )
            )
          )
        )
        .pipe(
          Effect.mapError((e: AttemptFailure | SourceError | KeyStoreError): AttemptFailure =>
            !("_tag" in e)
              ? e
              : e._tag === "SourceError"
                ? attemptFailure(e, "never")
                : attemptFailure(new SourceError({ reason: "KeyBudget", request: label, detail: e.message }), "transient")
          ),
          Effect.flatMap((r) => (r === AGAIN ? keyed : Effect.succeed(r)))
        )
    )

    const attempt = (outgoing.keyed === true && keyLimiter.keys.length > 0 ? keyed : unkeyed).pipe(
      Effect.tapError((failure) => Effect.logDebug(scrub(`attempt failed: ${failure.error.message}`)))
    )

    const schedule = retrySchedule(policy).pipe(
      Schedule.tapOutput((state) =>
        state.kind === "none"
          ? Effect.void
          : Effect.zipRight(
              stats.add(host, { retries: 1, retryAfterWaitMs: state.kind === "rateLimited" ? Math.round(state.delayMs) : 0 }),
              Effect.logDebug(`retrying ${label} in ${Math.round(state.delayMs)} ms (${state.kind})`)
            )
      )
    )

    const refused = authStop.refusal(host, label)
    if (refused !== undefined) return Effect.fail(refused)
    // no trace span a request: nothing reads one (chainetl installs no tracer), and Effect's own
    // span was a fifth of a request's CPU (docs/performance.md, "Why the code is shaped so")
    return Effect.retryOrElse(attempt, schedule, (failure, state) => {
      if (failure.error.reason !== "Auth") return Effect.zipRight(stats.add(host, { failures: 1 }), Effect.fail(giveUpError(failure, state, scrub)))
      const error = authError(settings, request.url, failure.error, scrub)
      authStop.record(host, error)
      return Effect.zipRight(stats.add(host, { failures: 1 }), Effect.fail(error))
    })
  }

  return { execute }
})

export class SourceHttp extends Context.Tag("chainetl/SourceHttp")<
  SourceHttp,
  { readonly execute: (outgoing: Outgoing) => Effect.Effect<unknown, SourceError> }
>() {
  static readonly layer: Layer.Layer<
    SourceHttp,
    never,
    SourceConfig | Transport | RateLimiter | KeyLimiter | SourceStats
  > = Layer.effect(SourceHttp, makeSourceHttp)
}
