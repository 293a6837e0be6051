/**
 * Counters of what the source side did, per host and per slice, read by the run report. Every
 * HTTP attempt counts as a request, so `requests - retries` is the number of logical requests.
 * A request counts towards the slice named by the `statsScope` FiberRef of the fiber that sent
 * it (the crawler sets it around a slice), so concurrent slices keep separate books.
 */
import { Context, Effect, FiberRef, Layer, Ref } from "effect"

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

/** The slice (`dataset/slice`) requests of this fiber count towards; undefined outside slices. */
export const statsScope: FiberRef.FiberRef<string | undefined> = FiberRef.unsafeMake<string | undefined>(undefined)

const plus = (current: HostStats, delta: Partial<HostStats>): HostStats => {
  const next: { -readonly [K in keyof HostStats]: number } = { ...current }
  for (const key of Object.keys(delta) as Array<keyof HostStats>) next[key] += delta[key] ?? 0
  return next
}

export class SourceStats extends Context.Tag("chainetl/SourceStats")<
  SourceStats,
  {
    /** Adds `delta` to the counters of `host` and of the fiber's slice (statsScope). */
    readonly add: (host: string, delta: Partial<HostStats>) => Effect.Effect<void>
    readonly snapshot: Effect.Effect<StatsSnapshot>
    /** What the requests of one slice (`dataset/slice`) cost, all hosts together. */
    readonly ofSlice: (scope: string) => Effect.Effect<HostStats>
    /**
     * Moves what the requests of scope `from` cost into the fiber's slice (a page asked before
     * the crawl and handed to it: src/crawl/ProbedPages.ts); the hosts counted them once already.
     */
    readonly claim: (from: string) => Effect.Effect<void>
  }
>() {
  static readonly layer: Layer.Layer<SourceStats> = Layer.effect(
    SourceStats,
    Effect.gen(function* () {
      const hosts = yield* Ref.make<StatsSnapshot>({})
      // slices are few per run and each entry is eight numbers: kept for the run's lifetime
      const slices = new Map<string, HostStats>()
      return SourceStats.of({
        add: (host, delta) =>
          Effect.zipRight(
            Ref.update(hosts, (all) => ({ ...all, [host]: plus(all[host] ?? emptyHostStats, delta) })),
            Effect.map(FiberRef.get(statsScope), (scope) => {
              if (scope !== undefined) slices.set(scope, plus(slices.get(scope) ?? emptyHostStats, delta))
            })
          ),
        snapshot: Ref.get(hosts),
        ofSlice: (scope) => Effect.sync(() => slices.get(scope) ?? emptyHostStats),
        claim: (from) =>
          Effect.map(FiberRef.get(statsScope), (scope) => {
            const cost = slices.get(from)
            if (scope === undefined || scope === from || cost === undefined) return
            slices.delete(from)
            slices.set(scope, plus(slices.get(scope) ?? emptyHostStats, cost))
          })
      })
    })
  )
}
