/**
 * The retry policy of every source request, as one Schedule fed with the failure of each attempt.
 * Transient failures (5xx gateway/server errors, transport, timeout, bad JSON) back off
 * exponentially with jitter up to `maxRetries`; 429s wait for Retry-After, clamped so that a
 * missing, zero or absurd value neither busy-loops nor stalls, and spend their own budget
 * because being throttled says nothing about the service failing. Anything else is final.
 */
import { Effect, Random, Schedule, ScheduleDecision, ScheduleInterval } from "effect"
import type { RetryTuning } from "../Config.ts"
import type { SourceError } from "../Errors.ts"

/** Why an attempt failed, decided where the response is understood. */
export type Retryability = "transient" | "rateLimited" | "never"

export interface AttemptFailure {
  readonly error: SourceError
  readonly retry: Retryability
  /** Retry-After as sent, in ms (429 only); the schedule clamps it. */
  readonly retryAfterMs?: number
}

export const attemptFailure = (
  error: SourceError,
  retry: Retryability,
  retryAfterMs?: number
): AttemptFailure => (retryAfterMs === undefined ? { error, retry } : { error, retry, retryAfterMs })

export interface RetryPolicy extends RetryTuning {
  readonly maxRetries: number
}

/** The schedule's output: budgets spent so far and the wait it decided on. */
export interface RetryState {
  readonly retries: number
  readonly rateLimitedRetries: number
  /** The wait before the next attempt; 0 when the schedule gave up. */
  readonly delayMs: number
  /** What the last decision was about; "none" when it gave up. */
  readonly kind: "transient" | "rateLimited" | "none"
}

export const initialRetryState: RetryState = { retries: 0, rateLimitedRetries: 0, delayMs: 0, kind: "none" }

/** Equal jitter: half the exponential step fixed, half random, so retries of many callers spread out. */
export const backoffMs = (retry: number, tuning: RetryTuning, random: number): number => {
  const step = Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** retry)
  return step / 2 + (random * step) / 2
}

/** Retry-After clamped into [min, max]; missing or unparsable counts as the minimum. */
export const clampRetryAfterMs = (retryAfterMs: number | undefined, tuning: RetryTuning): number =>
  Math.min(tuning.retryAfterMaxMs, Math.max(tuning.retryAfterMinMs, retryAfterMs ?? 0))

/** The clamped Retry-After plus up to one minimum of jitter, so throttled callers do not return in step. */
export const rateLimitWaitMs = (retryAfterMs: number | undefined, tuning: RetryTuning, random: number): number =>
  clampRetryAfterMs(retryAfterMs, tuning) + random * tuning.retryAfterMinMs

/**
 * Retry-After as milliseconds from `nowMs`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable.
 */
export const parseRetryAfter = (header: string | undefined, nowMs: number): number | undefined => {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

const giveUp = (state: RetryState) => {
  const stopped: RetryState = { ...state, delayMs: 0, kind: "none" }
  return [stopped, stopped, ScheduleDecision.done] as const
}

export const retrySchedule = (policy: RetryPolicy): Schedule.Schedule<RetryState, AttemptFailure> =>
  Schedule.makeWithState(initialRetryState, (now, failure: AttemptFailure, state: RetryState) =>
    Random.next.pipe(
      Effect.map((random) => {
        let next: RetryState
        if (failure.retry === "transient" && state.retries < policy.maxRetries) {
          next = {
            ...state,
            retries: state.retries + 1,
            delayMs: backoffMs(state.retries, policy, random),
            kind: "transient"
          }
        } else if (failure.retry === "rateLimited" && state.rateLimitedRetries < policy.maxRateLimitedRetries) {
          next = {
            ...state,
            rateLimitedRetries: state.rateLimitedRetries + 1,
            delayMs: rateLimitWaitMs(failure.retryAfterMs, policy, random),
            kind: "rateLimited"
          }
        } else {
          return giveUp(state)
        }
        return [next, next, ScheduleDecision.continueWith(ScheduleInterval.after(now + next.delayMs))] as const
      })
    )
  )
