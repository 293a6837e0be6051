/**
 * Runs the real spine (clients, crawler, Parquet sink, checkpoints, catalog) in-process against a
 * running emulator, and reads results back through DuckDB.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { SourceSettingsInput } from "../../src/Config.ts"
import { CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { CommittedKeys } from "../../src/crawl/CommittedKeys.ts"
import { OutputReader } from "../../src/crawl/OutputReader.ts"
import { catalogEntries } from "../../src/catalogEntries.ts"
import { defaultJob, type Job } from "../../src/Job.ts"
import { type RunReport, run } from "../../src/Runner.ts"
import { ParquetSink } from "../../src/sink/ParquetSink.ts"
import { WriterLock } from "../../src/sink/WriterLock.ts"
import { sourceLayerWith } from "../../src/source/SourceLayer.ts"

export interface Urls {
  readonly baseUrl: string
  readonly metricsUrl: string
  readonly nodeUrl: string
  /** An emulator's clock: runs take their as-of from it, as `chainetl run --emulator` does. */
  readonly clock?: { now(): number }
}

/** Fast retries for crawls of the emulator (or a proxy in front of it), so fault tests stay short; the policy is the production one. */
export const emulatorRetry = { baseDelayMs: 5, maxDelayMs: 50, retryAfterMinMs: 250, retryAfterMaxMs: 2000, maxRateLimitedRetries: 30 }

export const spineLayers = (out: string, urls: Urls, extra: Partial<Parameters<typeof sourceLayerWith>[0]> = {}) =>
  Layer.mergeAll(
    sourceLayerWith({ baseUrl: urls.baseUrl, metricsUrl: urls.metricsUrl, nodeUrl: urls.nodeUrl, out, retry: emulatorRetry, rateLimit: 1000, concurrency: 8, maxRetries: 12, ...extra }),
    ParquetSink.layer(out),
    CheckpointStore.layer(out),
    WriterLock.file,
    CommittedKeys.layer(out),
    OutputReader.layer(out, catalogEntries())
  )

export interface SpineRun {
  readonly datasets?: ReadonlyArray<string>
  readonly job?: Job
  readonly partRows?: number
  readonly asOf?: number
}

export const runSpine = (out: string, urls: Urls, opts: SpineRun = {}, wrap: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R> = (e) => e) =>
  wrap(
    run({
      out,
      job: opts.job ?? defaultJob,
      datasets: opts.datasets ?? [],
      partRows: opts.partRows ?? 100_000,
      sliceConcurrency: 2,
      ...(opts.asOf !== undefined ? { asOf: opts.asOf } : urls.clock !== undefined ? { asOf: urls.clock.now() } : {})
    })
  ).pipe(Effect.provide(spineLayers(out, urls)))

/** Runs the named datasets through the spine; throws, naming the failed slices, unless the run succeeded. */
export const crawl = async (out: string, urls: Urls, job: Job, datasets: ReadonlyArray<string>): Promise<RunReport> => {
  const report = await Effect.runPromise(runSpine(out, urls, { job, datasets }))
  const failed = report.slices.filter((s) => s.status === "failed")
  if (report.status !== "succeeded" || failed.length > 0) throw new Error(`the run ${report.status}: ${JSON.stringify(failed)}`)
  return report
}

export interface InProcessRun {
  readonly datasets: ReadonlyArray<string>
  readonly job: Partial<Job>
  readonly partRows?: number
  /** Source settings over the spine tests' (fast retries, high rate limit). */
  readonly source?: Partial<SourceSettingsInput>
  /** Service URLs when they differ from the emulator's (a proxy). */
  readonly urls?: { readonly baseUrl?: string; readonly metricsUrl?: string; readonly nodeUrl?: string }
}

/** One run of the real spine with the source settings a test wants; the as-of is the emulator's clock, as with `run --emulator`. */
export const runInProcess = (out: string, emu: Urls & { readonly clock: { now(): number } }, o: InProcessRun): Promise<RunReport> =>
  Effect.runPromise(
    run({
      out,
      job: { ...defaultJob, ...o.job },
      datasets: o.datasets,
      partRows: o.partRows ?? 20,
      sliceConcurrency: 2,
      asOf: emu.clock.now()
    }).pipe(Effect.provide(spineLayers(out, { ...emu, ...o.urls }, o.source ?? {})))
  )

/** Rows of a query over a catalog, values as DuckDB's JS conversion gives them. */
export const query = async (catalog: string, sql: string): Promise<Record<string, unknown>[]> => {
  const db = await DuckDBInstance.create(catalog, { access_mode: "READ_ONLY" })
  const conn = await db.connect()
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[]
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/**
 * `query` for many queries over one catalog that no longer changes: one read-only instance for
 * all of them (opening one costs tens of milliseconds). Close it when done.
 */
export const openCatalog = async (catalog: string) => {
  const db = await DuckDBInstance.create(catalog, { access_mode: "READ_ONLY" })
  const conn = await db.connect()
  return {
    query: async (sql: string): Promise<Record<string, unknown>[]> => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[],
    close: () => {
      conn.closeSync()
      db.closeSync()
    }
  }
}

/** Every file below `dir`, relative, sorted. */
export const filesUnder = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()

/** All records of a list route, fetched page by page with plain fetch: the emulator's own truth. */
export const fetchAll = async (url: string, items: string, query: Record<string, string> = {}): Promise<Record<string, unknown>[]> => {
  const out: Record<string, unknown>[] = []
  let token: string | undefined
  do {
    const u = new URL(url)
    for (const [k, v] of Object.entries({ ...query, pageSize: "100", ...(token ? { pageToken: token } : {}) })) u.searchParams.set(k, v)
    const res = await fetch(u)
    if (!res.ok) throw new Error(`${u}: ${res.status} ${await res.text()}`)
    const body = (await res.json()) as Record<string, unknown>
    out.push(...(body[items] as Record<string, unknown>[]))
    token = body["nextPageToken"] as string | undefined
  } while (token)
  return out
}
