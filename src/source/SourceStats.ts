/**
 * Per-host counters of what the source side did, read by the run report. Every HTTP attempt
 * counts as a request, so `requests - retries` is the number of logical requests.
 */
import { Context, Effect, Layer, Ref } from "effect"

export interface HostStats {
  /** HTTP attempts sent, retries included. */
  readonly requests: number
  /** Attempts that were a retry of an earlier failed attempt. */
  readonly retries: number
  readonly rateLimited: number
  /** Responses with a 5xx status. */
  readonly serverErrors: number
  /** Logical requests that failed for good (after retries, where retrying applies). */
  readonly failures: number
  readonly bytesReceived: number
  /** Time spent waiting for a concurrency slot or a rate token. */
  readonly limiterWaitMs: number
  /** Time slept because a 429 asked to come back later. */
  readonly retryAfterWaitMs: number
}

export const emptyHostStats: HostStats = {
  requests: 0,
  retries: 0,
  rateLimited: 0,
  serverErrors: 0,
  failures: 0,
  bytesReceived: 0,
  limiterWaitMs: 0,
  retryAfterWaitMs: 0
}

/** Keyed by `host:port` as in the request URL. */
export type StatsSnapshot = Readonly<Record<string, HostStats>>

export class SourceStats extends Context.Tag("chainetl/SourceStats")<
  SourceStats,
  {
    /** Adds `delta` to the counters of `host`. */
    readonly add: (host: string, delta: Partial<HostStats>) => Effect.Effect<void>
    readonly snapshot: Effect.Effect<StatsSnapshot>
  }
>() {
  static readonly layer: Layer.Layer<SourceStats> = Layer.effect(
    SourceStats,
    Effect.map(Ref.make<StatsSnapshot>({}), (ref) =>
      SourceStats.of({
        add: (host, delta) =>
          Ref.update(ref, (all) => {
            const current = all[host] ?? emptyHostStats
            const next: { -readonly [K in keyof HostStats]: number } = { ...current }
            for (const key of Object.keys(delta) as Array<keyof HostStats>) next[key] += delta[key] ?? 0
            return { ...all, [host]: next }
          }),
        snapshot: Ref.get(ref)
      })
    )
  )
}
