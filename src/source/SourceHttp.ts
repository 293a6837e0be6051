/**
 * The one HTTP exchange both clients go through: per-host limiter, per-attempt timeout over
 * headers and body, status interpretation, the retry schedule and the stats. RestClient and
 * JsonRpcClient only build requests and labels.
 */
import { Headers, HttpClient, type HttpClientError, type HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Clock, Context, Effect, Either, Layer, Option, Redacted, Schedule, Stream } from "effect"
import { SourceConfig } from "../Config.ts"
import { SourceError } from "../Errors.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { parseJson, statusFailure } from "./Response.ts"
import { type AttemptFailure, attemptFailure, clampRetryAfterMs, type RetryState, retrySchedule } from "./Retry.ts"
import { SourceStats } from "./SourceStats.ts"
import { authError, makeAuthStop } from "./AuthStop.ts"

export interface Outgoing {
  /** Identifies the request in errors, logs and spans, e.g. `GET data /v1/chains/43114/blocks?pageSize=100`. */
  readonly label: string
  readonly request: HttpClientRequest.HttpClientRequest
  /**
   * Judges a parsed 2xx body inside the attempt, so an answer that is an error in disguise
   * (a JSON-RPC error object) gets the same retry decision as a status code.
   */
  readonly check?: (body: unknown) => Either.Either<unknown, AttemptFailure>
}

interface Answer {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly bytes: Uint8Array
}

// The client's own error carries the request (URL, headers); keep only what went wrong.
const describe = (error: HttpClientError.HttpClientError): string => {
  const cause = error.cause
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code
    return `${typeof code === "string" ? `${code} ` : ""}${cause.message}`
  }
  return `${error.reason} error`
}

const mb = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 100) / 100)

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

const scrubber = (key: Option.Option<Redacted.Redacted<string>>) => (text: string): string =>
  Option.match(key, {
    onNone: () => text,
    onSome: (k) => text.split(Redacted.value(k)).join("<redacted>")
  })

export const makeSourceHttp = Effect.gen(function* () {
  const settings = yield* SourceConfig
  const client = yield* HttpClient.HttpClient
  const limiter = yield* RateLimiter
  const stats = yield* SourceStats
  const policy = { ...settings.retry, maxRetries: settings.maxRetries }
  const scrub = scrubber(settings.apiKey)
  const authStop = makeAuthStop()

  const execute = (outgoing: Outgoing): Effect.Effect<unknown, SourceError> => {
    const { label, request } = outgoing
    const host = new URL(request.url).host
    const transient = (reason: "Transport" | "Timeout", detail: string) =>
      attemptFailure(new SourceError({ reason, request: label, detail }), "transient")

    // The body is read as it arrives: the timeout is the longest silence between two pieces of it
    // (a stalled connection), never the time a large body takes; its size is capped as it grows.
    const readBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Answer, AttemptFailure> =>
      response.stream.pipe(
        // A reset mid-body lands here, after the status line looked fine.
        Stream.mapError((e) => transient("Transport", `body of an HTTP ${response.status} answer broke off: ${describe(e)}`)),
        Stream.timeoutFail(
          () => transient("Timeout", `the body of an HTTP ${response.status} answer stalled: nothing arrived for ${settings.timeoutMs} ms`),
          settings.timeoutMs
        ),
        Stream.runFoldEffect({ chunks: [] as Uint8Array[], size: 0 }, (acc, chunk) => {
          const size = acc.size + chunk.length
          if (size > settings.maxBodyBytes) {
            return Effect.fail(
              attemptFailure(
                new SourceError({
                  reason: "TooLarge",
                  request: label,
                  status: response.status,
                  detail: `the answer's body is larger than ${mb(settings.maxBodyBytes)} MB (CHAINETL_MAX_BODY_MB); raise CHAINETL_MAX_BODY_MB if this machine has the memory for such pages`
                }),
                "never"
              )
            )
          }
          acc.chunks.push(chunk)
          return Effect.succeed({ chunks: acc.chunks, size })
        }),
        Effect.map(({ chunks, size }): Answer => ({
          status: response.status,
          retryAfter: response.headers["retry-after"],
          bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
        }))
      )

    const exchange: Effect.Effect<Answer, AttemptFailure> = client.execute(request).pipe(
      Effect.mapError((e) => transient("Transport", describe(e))),
      Effect.timeoutFail({
        duration: settings.timeoutMs,
        onTimeout: () => transient("Timeout", `no answer within ${settings.timeoutMs} ms`)
      }),
      Effect.flatMap(readBody),
      // The platform client writes request headers into its spans; the key header must not be one.
      Effect.locallyWith(Headers.currentRedactedNames, (names) => [...names, settings.apiKeyHeader])
    )

    const understand = (answer: Answer): Effect.Effect<unknown, AttemptFailure> =>
      Effect.gen(function* () {
        yield* stats.add(host, { bytesReceived: answer.bytes.length, serverErrors: answer.status >= 500 ? 1 : 0 })
        if (answer.status >= 200 && answer.status < 300) {
          // Any 2xx means the host let us through, which is all the limiter wants to know.
          yield* limiter.onSuccess(host)
          return yield* Either.flatMap(parseJson(label, answer.status, answer.bytes), outgoing.check ?? Either.right)
        }
        const failure = statusFailure(label, answer.status, answer.retryAfter, answer.bytes, yield* Clock.currentTimeMillis)
        if (failure.retry === "rateLimited") {
          yield* stats.add(host, { rateLimited: 1 })
          yield* limiter.onRateLimited(host, clampRetryAfterMs(failure.retryAfterMs, policy))
        }
        return yield* Effect.fail(failure)
      })

    const attempt = limiter.withPermit(host)(Effect.zipRight(stats.add(host, { requests: 1 }), exchange)).pipe(
      Effect.flatMap(understand),
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
    return Effect.retryOrElse(attempt, schedule, (failure, state) => {
      if (failure.error.reason !== "Auth") return Effect.zipRight(stats.add(host, { failures: 1 }), Effect.fail(giveUpError(failure, state, scrub)))
      const error = authError(settings, request.url, failure.error, scrub)
      authStop.record(host, error)
      return Effect.zipRight(stats.add(host, { failures: 1 }), Effect.fail(error))
    }).pipe(Effect.withSpan("chainetl.source.request", { attributes: { "chainetl.request": label } }))
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
    SourceConfig | HttpClient.HttpClient | RateLimiter | SourceStats
  > = Layer.effect(SourceHttp, makeSourceHttp)
}
