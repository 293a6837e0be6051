/**
 * `chainetl status`: how far each windowed listing's history is complete (watermark), how far
 * that is behind (with --live, behind the service's newest block), the windows still pending;
 * how far each height-ordered listing got (with --live, blocks behind the tip); every other
 * dataset's slices, the last runs and every failed slice. Reads only the output folder unless
 * --live; never writes.
 */
import { Config, Data, Effect, Either, Layer } from "effect"
import { ConfigError } from "../Errors.ts"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { datasets as registry } from "../../pipelines/index.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { scannedHeights } from "../crawl/Heights.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import type { RunReport } from "../Runner.ts"
import { envNames, loadSourceSettings, type Service, SourceConfig } from "../Config.ts"
import { sourceLayer } from "../source/SourceLayer.ts"
import { isoSeconds } from "../Time.ts"
import { resolveOut } from "./output.ts"
import { servicesFor, servicesOf } from "./services.ts"
import { shorten } from "./progress/format.ts"
import { type ListingStatus, type Status, statusOf } from "./status/model.ts"
import { table } from "./table.ts"

export interface StatusArgs {
  readonly out: string | undefined
  readonly live: boolean
  readonly json: boolean
}

const span = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  if (s < 3_600) return `${Math.floor(s / 60)}m`
  if (s < 86_400) return `${Math.floor(s / 3_600)}h ${Math.floor((s % 3_600) / 60)}m`
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3_600)}h`
}

const readRuns = (out: string) =>
  Effect.promise(async () => {
    const dir = path.join(out, "_runs")
    const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"))
    const runs = await Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(dir, f), "utf8")) as RunReport))
    return runs
  })

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

/** A probe that did not answer: which dataset's service, and why. */
interface Unreachable {
  readonly dataset: string
  readonly error: string
}

const isUnreachable = (x: unknown): x is Unreachable => typeof x === "object" && x !== null && "error" in x && "dataset" in x

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

/** A height-ordered listing: committed through which height, and (--live) the service's tip. */
interface HeightLine {
  readonly dataset: string
  readonly listing: Readonly<Record<string, string>>
  readonly height: string
  readonly latest: string | null
  readonly lagBlocks: string | null
  readonly error?: string
  /** Why lagBlocks is 0 although the tip is below the height: the clamp explained. */
  readonly lagNote?: string
}

const committedHeights = Effect.gen(function* () {
  const lines: HeightLine[] = []
  for (const d of registry) {
    if (d.heights === undefined) continue
    for (const { listing, height } of yield* scannedHeights(d.name, d.heights)) lines.push({ dataset: d.name, listing, height, latest: null, lagBlocks: null })
  }
  return lines
})

export const TIP_BELOW = "the service's tip is below the height scanned (a node behind, or another service than the one crawled): nothing to fetch, lag 0"
export const NEWEST_BEFORE = "complete up to the as-of of the run that last finished it, which is past the service's newest block (nothing newer to fetch): lag 0"
export const AS_OF_AHEAD = "the run's as-of (service time; the emulated network's under --emulator) is ahead of this machine's clock: age 0"

/** --live: each listing's tip, one small request each, all at once; an unreachable one is marked. */
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

/** Seconds behind, never negative: the clamp's reason when it applies. */
export const behind = (newer: number, older: number, note: string): { readonly seconds: number; readonly note?: string } =>
  newer >= older ? { seconds: newer - older } : { seconds: 0, note }

/** Rows each dataset's view returns now (one query over the views; see `reader` for which views). */
const liveRows = (names: ReadonlyArray<string>) =>
  Effect.map(
    Effect.flatMap(OutputReader, (reader) =>
      names.length === 0
        ? Effect.succeed([])
        : reader.query(names.map((n) => `SELECT '${n}' AS dataset, count(*)::BIGINT AS n FROM ${n}`).join(" UNION ALL "), {}, names)
    ),
    (rows) => new Map(rows.map((r) => [String(r["dataset"]), Number(r["n"])]))
  )

const render = (status: Status, heights: ReadonlyArray<HeightLine>, latest: ReadonlyArray<number | Unreachable | undefined> | undefined, now: number): void => {
  const notes = new Set<string>()
  const lagCell = (l: ListingStatus, newest: number | Unreachable | undefined): string => {
    if (l.watermark === null) return ""
    if (isUnreachable(newest)) return "unreachable (below)"
    const b = newest === undefined ? (latest === undefined ? behind(now, l.watermark, AS_OF_AHEAD) : undefined) : behind(newest, l.watermark, NEWEST_BEFORE)
    if (b === undefined) return ""
    if (b.note !== undefined) notes.add(b.note)
    return `${span(b.seconds)}${b.note === undefined ? "" : " *"}`
  }
  if (status.listings.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "windows", "done", "since", "complete through", latest === undefined ? "age" : "lag", "pending", "last run"],
        status.listings.map((l, i) => {
          const lag = lagCell(l, latest?.[i])
          const pending = l.pending.length === 0 ? "" : `${l.pending.length}: ${l.pending.slice(0, 2).map((p) => `[${isoSeconds(p.from)}, ${isoSeconds(p.to)}) ${p.status}`).join(", ")}${l.pending.length > 2 ? ", …" : ""}`
          return [l.dataset, shorten(Object.values(l.listing).join("/"), 24), l.windows, l.done, l.since === null ? "" : isoSeconds(l.since), l.watermark === null ? "" : isoSeconds(l.watermark), lag, pending, l.lastRun ?? ""]
        })
      )
    )
    console.log(latest === undefined ? "(age: behind this machine's clock; --live measures the lag behind the service's newest block)" : "")
    for (const n of notes) console.log(`* ${n}`)
    console.log("")
  }
  if (heights.length > 0) {
    console.log(
      table(
        ["dataset", "listing", "scanned through", "latest", "lag (blocks)"],
        heights.map((h) => [h.dataset, shorten(Object.values(h.listing).join("/"), 56), h.height, h.latest ?? (h.error === undefined ? "" : "unreachable (below)"), `${h.lagBlocks ?? ""}${h.lagNote === undefined ? "" : " *"}`])
      )
    )
    console.log(heights.every((h) => h.latest === null && h.error === undefined) ? "(scanned through: the highest block the crawl has looked at; --live asks each service for its latest height)" : "")
    if (heights.some((h) => h.lagNote !== undefined)) console.log(`* ${TIP_BELOW}`)
    console.log("")
  }
  if (status.datasets.length > 0) {
    console.log(
      table(
        ["dataset", "slices", "done", "failed", "running", "rows", "last run", "updated"],
        status.datasets.map((d) => [d.dataset, d.slices, d.done, d.failed, d.running, d.rows ?? "?", d.lastRun ?? "", d.updatedAt === null ? "" : `${d.updatedAt.slice(0, 19)}Z`])
      )
    )
    console.log("(rows: what the dataset's view returns now; a replacing slice's earlier versions are not counted)\n")
  }
  if (status.runs.length > 0) {
    console.log(
      table(
        ["run", "mode", "status", "started", "slices", "failed", "rows", "requests", "429s", "waited"],
        status.runs.map((r) => [r.runId, r.mode, r.status, `${r.startedAt.slice(0, 19)}Z`, r.slices, r.failed, r.rows, r.requests, r.rateLimited, `${(r.waitMs / 1000).toFixed(1)}s`])
      )
    )
    console.log("")
  }
  if (status.failures.length > 0) {
    console.log(`failed slices (${status.failures.length}); rerun the same command to resume them:`)
    for (const f of status.failures) console.log(`  ${f.dataset}/${f.slice} (run ${f.runId}): ${f.error}`)
  }
}

export const statusCommand = (args: StatusArgs) =>
  Effect.gen(function* () {
    const out = resolveOut(args.out)
    const store = yield* CheckpointStore
    const checkpoints = yield* store.list()
    const runs = yield* readRuns(out)
    if (checkpoints.length === 0 && runs.length === 0) {
      console.log(`no checkpoints under ${out}/_state: nothing has run here yet`)
      return
    }
    // the catalog's own views when it has every dataset: what readers query, and cheap to open
    const reader = OutputReader.layerPreferringCatalog(out, Effect.sync(catalogEntries))
    const names = registry.map((d) => d.name).filter((n) => checkpoints.some((c) => c.dataset === n))
    const counted = yield* Effect.either(liveRows(names).pipe(Effect.provide(reader)))
    if (Either.isLeft(counted)) yield* Effect.logWarning(`rows not counted (the output could not be read): ${counted.left.message}`)
    const status = statusOf(checkpoints, runs, registry.filter((d) => d.windows !== undefined).map((d) => d.name), 5, Either.getOrUndefined(counted))
    const committed = yield* committedHeights.pipe(Effect.provide(reader))
    let latest: ReadonlyArray<number | Unreachable | undefined> | undefined
    let heights: ReadonlyArray<HeightLine> = committed
    let unreachable: StatusProbeFailed | undefined
    if (args.live) {
      const asked = [...new Set([...status.listings.map((l) => l.dataset), ...committed.map((h) => h.dataset)])]
      const required = servicesFor(asked)
      // short and single: a probe that cannot reach a service says so in seconds
      const timeoutMs = yield* probeTimeout
      const settings = yield* loadSourceSettings({ out, timeoutMs, maxRetries: 0, retry: { maxRateLimitedRetries: 0 } }, { out: "--out" }, required)
      const source = sourceLayer.pipe(Layer.provideMerge(SourceConfig.layerOf(settings)))
      const probed = yield* Effect.all([latestOf(status.listings), withTips(committed)], { concurrency: 2 }).pipe(Effect.provide(source))
      latest = probed[0]
      heights = probed[1]
      const failed = [
        ...probed[0].filter(isUnreachable),
        ...probed[1].filter((h) => h.error !== undefined).map((h) => ({ dataset: h.dataset, error: (h.error ?? "").replace(/^unreachable: /, "") }))
      ]
      const byService = new Map<Service, string>()
      for (const f of failed) {
        const service = servicesOf[f.dataset]?.[0] ?? "data"
        if (!byService.has(service)) byService.set(service, f.error)
      }
      const url = (s: Service) => (s === "data" ? settings.baseUrl : s === "metrics" ? settings.metricsUrl : settings.nodeUrl)
      if (byService.size > 0) unreachable = new StatusProbeFailed({ reason: "Unreachable", timeoutMs, services: [...byService].map(([service, error]) => ({ service, url: url(service), error })) })
    }
    if (args.json) {
      const now = Math.floor(Date.now() / 1000)
      const withLag = status.listings.map((l, i) => {
        const newest = latest?.[i]
        const lag = typeof newest === "number" && l.watermark !== null ? behind(newest, l.watermark, NEWEST_BEFORE) : undefined
        const age = latest === undefined && l.watermark !== null ? behind(now, l.watermark, AS_OF_AHEAD) : undefined
        return {
          ...l,
          latest: typeof newest === "number" ? newest : null,
          lagSeconds: lag?.seconds ?? null,
          ...(lag?.note === undefined ? {} : { lagNote: lag.note }),
          ...(isUnreachable(newest) ? { error: `unreachable: ${newest.error}` } : {}),
          ...(age === undefined ? {} : { ageSeconds: age.seconds, ...(age.note === undefined ? {} : { ageNote: age.note }) })
        }
      })
      console.log(JSON.stringify({ ...status, listings: withLag, heights }, null, 2))
    } else {
      render(status, heights, latest, Math.floor(Date.now() / 1000))
    }
    if (unreachable !== undefined) return yield* Effect.fail(unreachable)
  }).pipe(Effect.provide(Layer.orDie(CheckpointStore.layer(resolveOut(args.out)))))
