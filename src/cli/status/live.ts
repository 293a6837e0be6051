/**
 * `chainetl status --live`: each listing's service asked for its newest block or tip, one small
 * request each, all at once. Loaded only with --live: it needs the pipelines (each declares how its
 * service's newest point is read) and the HTTP clients, which plain `status` does without.
 */
import { Config, Data, Effect, Layer } from "effect"
import { datasets as registry } from "../../../pipelines/index.ts"
import { envNames, loadSourceSettings, type Service, SourceConfig } from "../../Config.ts"
import { ConfigError } from "../../Errors.ts"
import { sourceLayer } from "../../source/SourceLayer.ts"
import { servicesFor, servicesOf } from "../services.ts"
import { type HeightLine, isUnreachable, TIP_BELOW, type Unreachable } from "../../status/lag.ts"
import type { ListingStatus } from "../../status/model.ts"

/**
 * `--live` asks each service once per listing with this timeout and no retry: a monitoring probe
 * must answer in seconds, not wait out a run's retry budget (CHAINETL_TIMEOUT_MS, _MAX_RETRIES).
 * CHAINETL_STATUS_TIMEOUT_MS changes it (a far or slow service).
 */
export const PROBE_TIMEOUT_MS = 5_000

const probeTimeout = Config.integer("CHAINETL_STATUS_TIMEOUT_MS").pipe(
  Config.withDefault(PROBE_TIMEOUT_MS),
  Config.validate({ message: "a whole number of milliseconds ≥ 1", validation: (n) => n >= 1 }),
  Effect.mapError(
    () =>
      new ConfigError({
        reason: "Invalid",
        field: "CHAINETL_STATUS_TIMEOUT_MS",
        detail: `expected a whole number of milliseconds ≥ 1, got '${process.env["CHAINETL_STATUS_TIMEOUT_MS"] ?? ""}'`,
        fix: "export CHAINETL_STATUS_TIMEOUT_MS=5000"
      })
  )
)

/** A service `status --live` could not reach: exit 1, naming it. */
export class StatusProbeFailed extends Data.TaggedError("StatusProbeFailed")<{
  readonly reason: "Unreachable"
  readonly timeoutMs: number
  readonly services: ReadonlyArray<{ readonly service: Service; readonly url: string; readonly error: string }>
}> {
  override get message(): string {
    const names: Record<Service, string> = { data: "chain-data service", metrics: "metrics service", node: "node" }
    const each = this.services.map((s) => `${names[s.service]} (${envNames[s.service === "data" ? "baseUrl" : s.service === "metrics" ? "metricsUrl" : "nodeUrl"]}=${s.url}) did not answer: ${s.error}`)
    return `status --live: ${each.join("; ")}. Fix: check that the service is up and the URL is right (the probe waits ${this.timeoutMs / 1000} s, without retries: CHAINETL_STATUS_TIMEOUT_MS)`
  }
}

/** The service's newest time per listing (--live): one small request each, all at once. */
const latestOf = (listings: ReadonlyArray<ListingStatus>) =>
  Effect.forEach(
    listings,
    (l) => {
      const spec = registry.find((d) => d.name === l.dataset)?.windows
      if (spec?.latest === undefined) return Effect.succeed<number | Unreachable | undefined>(undefined)
      return spec.latest(l.listing).pipe(Effect.catchAll((e) => Effect.succeed<number | Unreachable | undefined>({ dataset: l.dataset, error: e.message })))
    },
    { concurrency: "unbounded" }
  )

/** Each height listing's tip, one small request each, all at once; an unreachable one is marked. */
const withTips = (lines: ReadonlyArray<HeightLine>) =>
  Effect.forEach(
    lines,
    (line) => {
      const latest = registry.find((d) => d.name === line.dataset)?.heights?.latest
      if (latest === undefined) return Effect.succeed(line)
      return latest(line.listing).pipe(
        Effect.map((tip): HeightLine => {
          const lag = tip - BigInt(line.height)
          return { ...line, latest: String(tip), lagBlocks: String(lag < 0n ? 0n : lag), ...(lag < 0n ? { lagNote: TIP_BELOW } : {}) }
        }),
        Effect.catchAll((e) => Effect.succeed<HeightLine>({ ...line, error: `unreachable: ${e.message}` }))
      )
    },
    { concurrency: "unbounded" }
  )

/**
 * Every listing's service asked at once, with a short timeout and no retry. The lines come back
 * with what was learnt; `unreachable` names each service that did not answer (status prints its
 * table first, then fails with it).
 */
export const probe = (out: string, listings: ReadonlyArray<ListingStatus>, committed: ReadonlyArray<HeightLine>) =>
  Effect.gen(function* () {
    const asked = [...new Set([...listings.map((l) => l.dataset), ...committed.map((h) => h.dataset)])]
    const required = servicesFor(asked)
    // short and single: a probe that cannot reach a service says so in seconds
    const timeoutMs = yield* probeTimeout
    const settings = yield* loadSourceSettings({ out, timeoutMs, maxRetries: 0, retry: { maxRateLimitedRetries: 0 } }, { out: "--out" }, required)
    const source = sourceLayer.pipe(Layer.provideMerge(SourceConfig.layerOf(settings)))
    const [latest, heights] = yield* Effect.all([latestOf(listings), withTips(committed)], { concurrency: 2 }).pipe(Effect.provide(source))
    const failed = [
      ...latest.filter(isUnreachable),
      ...heights.filter((h) => h.error !== undefined).map((h) => ({ dataset: h.dataset, error: (h.error ?? "").replace(/^unreachable: /, "") }))
    ]
    const byService = new Map<Service, string>()
    for (const f of failed) {
      const service = servicesOf[f.dataset]?.[0] ?? "data"
      if (!byService.has(service)) byService.set(service, f.error)
    }
    const url = (s: Service) => (s === "data" ? settings.baseUrl : s === "metrics" ? settings.metricsUrl : settings.nodeUrl)
    const unreachable =
      byService.size === 0 ? undefined : new StatusProbeFailed({ reason: "Unreachable", timeoutMs, services: [...byService].map(([service, error]) => ({ service, url: url(service), error })) })
    return { latest, heights, unreachable }
  })
