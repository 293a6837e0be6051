/**
 * The end-to-end bench: for each dataset and size, record the emulator's pages once (kept in the
 * cache folder across bench runs), then run chainetl and the references as child processes on
 * the replayed pages, interleaved (the order rotates every repeat), and report medians.
 */
import { DuckDBInstance, quotedString } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { defaultNow } from "@chainetl/emulator"
import { RecordStore } from "./cache.ts"
import { formatProfile, summarizeProfile } from "./cpuProfile.ts"
import { type BenchDataset, type BenchSize, scaleFor } from "./datasets.ts"
import { measureChild } from "./measure.ts"
import type { E2eArgs } from "./args.ts"
import { type MethodName, methodRun, REPO, type RunContext } from "./methods.ts"
import { failedSlices, listingRequests, readRunReport } from "./listings.ts"
import { outputStats } from "./outputs.ts"
import { startProxy, type ReplayProxy } from "./proxy.ts"
import { type CaseResult, mediansOf, ratiosOf, type RunResult } from "./report.ts"
import { savePages } from "./reference/savePages.ts"
import { repeatedPages } from "./repeatedPages.ts"
import { lazyEmulator, type Upstream } from "./upstream.ts"

/** The bench's flags (all but where results go) and where its progress lines go. */
export interface E2eOptions extends Omit<E2eArgs, "resultsFile"> {
  readonly log: (line: string) => void
}

/** What recording a case's pages established; kept beside the recording. */
interface Prep {
  readonly rowsPerListing: ReadonlyArray<number>
  readonly since: string
  readonly to: string
}

const DAY = 86_400
const isoDay = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 10)

const oldestRecord = async (ndjson: string): Promise<number> => {
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  const result = await connection.runAndReadAll(`SELECT min(blockTimestamp)::BIGINT AS t FROM read_json(${quotedString(ndjson)}, format = 'newline_delimited')`)
  const t = Number(result.getRowObjectsJS()[0]?.["t"])
  connection.closeSync()
  db.closeSync()
  return t
}

/**
 * The prep of a case served as it is made (`--stream-pages`): the source case's, each listing's
 * rows `times` times (every record is served `times` times), nothing saved.
 */
const streamedPrep = (sourceDir: string, times: number): Prep => {
  const file = path.join(sourceDir, "prep.json")
  if (!fs.existsSync(file)) throw new Error(`--stream-pages: no ${file}; run the bench at the --pages-of size first`)
  const source = JSON.parse(fs.readFileSync(file, "utf8")) as Prep
  return { ...source, rowsPerListing: source.rowsPerListing.map((n) => n * times) }
}

/** Saves the pages the references read (recording them on the way), once per cache folder. */
const prepare = async (dataset: BenchDataset, dir: string, proxy: ReplayProxy, seed: number): Promise<Prep> => {
  const prepFile = path.join(dir, "prep.json")
  const saved = path.join(dir, "pages.ndjson")
  if (fs.existsSync(prepFile) && fs.existsSync(saved)) return JSON.parse(fs.readFileSync(prepFile, "utf8")) as Prep
  const spec = { baseUrl: proxy.url, dataset: dataset.name, pageSize: dataset.pageSize, listings: dataset.listings, select: dataset.select, readJson: dataset.readJson, partitionBy: dataset.partitionBy, ndjson: saved, out: "" }
  const rowsPerListing = await savePages(spec, saved)
  const oldest = await oldestRecord(saved)
  // the emulated network's clock stands still at defaultNow(seed): its newest block is at most then
  const prep: Prep = { rowsPerListing, since: isoDay(oldest), to: isoDay(defaultNow(seed) + DAY) }
  fs.writeFileSync(prepFile, JSON.stringify(prep))
  return prep
}

const rotate = <A>(xs: ReadonlyArray<A>, by: number): A[] => xs.map((_, i) => xs[(i + by) % xs.length]!)

const runOnce = async (method: MethodName, ctx: Omit<RunContext, "workDir">, proxy: ReplayProxy, repeat: number): Promise<RunResult> => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `chainetl-bench-${method}-`))
  try {
    const run = methodRun(method, { ...ctx, workDir })
    proxy.reset()
    const m = await measureChild(run.argv, run.env, REPO)
    const out = await outputStats(run.outputDir)
    // the run report goes with the work folder: a failed chainetl run's reasons are kept here
    const error = m.exitCode === 0 ? undefined : [m.stderrTail.split("\n").slice(-5).join("\n"), ...(run.runReportOut === undefined ? [] : failedSlices(run.runReportOut))].join("\n")
    const listings =
      run.runReportOut === undefined || m.exitCode !== 0
        ? undefined
        : listingRequests(readRunReport(run.runReportOut).slices, ctx.dataset.pageSize, proxy.counters.requests)
    return {
      method,
      repeat,
      exitCode: m.exitCode,
      ...(error === undefined ? {} : { error }),
      wallSeconds: m.wallSeconds,
      cpuSeconds: m.cpuSeconds,
      systemSeconds: m.systemSeconds,
      peakRssBytes: m.peakRssBytes,
      ...out,
      requests: proxy.counters.requests,
      misses: proxy.counters.misses,
      rowsPerSecond: out.rows / m.wallSeconds,
      rowsPerCpuSecond: out.rows / m.cpuSeconds,
      load: os.loadavg()[0]!,
      ...(listings === undefined ? {} : { listings })
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true })
  }
}

const describe = (r: RunResult, recording = false): string =>
  r.exitCode !== 0
    ? `FAILED (exit ${r.exitCode}): ${r.error ?? ""}`
    : `${r.wallSeconds.toFixed(1)} s, CPU ${r.cpuSeconds.toFixed(1)} s${r.systemSeconds === undefined ? "" : ` (system ${r.systemSeconds.toFixed(1)})`}, ${r.rows.toLocaleString("en-US")} rows, ${r.requests} requests` +
      `${r.misses === 0 ? "" : recording ? ` (${r.misses} recorded now)` : ` (${r.misses} NOT RECORDED: refused)`}, RSS ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MB, load ${r.load.toFixed(1)}`

/** One profiled chainetl run (main thread), summarized; the profile is kept as `keepAs`. */
const profileChainetl = async (ctx: Omit<RunContext, "workDir">, proxy: ReplayProxy, keepAs: string, log: (l: string) => void) => {
  const cpuProfDir = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-bench-prof-"))
  try {
    const r = await runOnce("chainetl", { ...ctx, cpuProfDir }, proxy, -1)
    if (r.exitCode !== 0) throw new Error(`profiled chainetl run failed: ${r.error}`)
    const profiles = fs.readdirSync(cpuProfDir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(cpuProfDir, f))
    // one file per thread that ran JavaScript: the main thread's is the busiest
    const summaries = profiles.map((file) => ({ file, summary: summarizeProfile(file) })).sort((a, b) => b.summary.totalMs - a.summary.totalMs)
    const main = summaries[0]
    if (main === undefined) return undefined
    fs.copyFileSync(main.file, keepAs)
    log(`\ncpu profile of chainetl, ${ctx.dataset.name} (${keepAs}):\n${formatProfile(main.summary)}\n`)
    return { file: keepAs, ...main.summary }
  } finally {
    fs.rmSync(cpuProfDir, { recursive: true, force: true })
  }
}

/** Where a case's pages come from: the emulator at a scale, or a smaller case's recording repeated. */
interface CaseSource {
  readonly dir: string
  readonly scale: number
  readonly upstream: Upstream
  readonly pagesOf?: CaseResult["pagesOf"]
  /** Served as made (`--stream-pages`): the case's prep, from the source case's. */
  readonly streamed?: Prep
}

const caseSource = (o: E2eOptions, dataset: BenchDataset, size: BenchSize): CaseSource => {
  const caseDir = (s: BenchSize, scale: number) => path.join(o.cacheDir, `${dataset.name}-${s.label}-seed${o.seed}-scale${scale}`)
  if (o.pagesOf === undefined) {
    const scale = scaleFor(dataset, size.rows)
    return { dir: caseDir(size, scale), scale, upstream: lazyEmulator(o.seed, scale) }
  }
  const scale = scaleFor(dataset, o.pagesOf.rows)
  const recording = path.join(caseDir(o.pagesOf, scale), "recording")
  const times = Math.round(size.rows / o.pagesOf.rows)
  if (dataset.repeat === undefined) throw new Error(`--pages-of: ${dataset.name} cannot be repeated (it has no RepeatRule in bench/e2e/datasets.ts)`)
  if (times < 2) throw new Error(`--pages-of ${o.pagesOf.label}: ${size.label} is not at least twice that`)
  if (!fs.existsSync(path.join(recording, "index.ndjson"))) throw new Error(`--pages-of ${o.pagesOf.label}: no recording in ${recording}; run the bench at --sizes ${o.pagesOf.label} first`)
  return {
    // "spread": copies side by side (the first --pages-of chained whole copies: other pages, another folder)
    dir: path.join(o.cacheDir, `${dataset.name}-${size.label}-seed${o.seed}-pagesof${o.pagesOf.label}x${times}-spread`),
    scale,
    upstream: repeatedPages(recording, times, new Map(dataset.listings.map((l) => [l.path, l.items])), dataset.repeat, dataset.pageSize),
    ...(o.streamPages
      ? { pagesOf: { size: o.pagesOf.label, times, streamed: true as const }, streamed: streamedPrep(caseDir(o.pagesOf, scale), times) }
      : { pagesOf: { size: o.pagesOf.label, times } })
  }
}

export const runCase = async (o: E2eOptions, dataset: BenchDataset, size: BenchSize): Promise<CaseResult> => {
  const { dir, scale, upstream, pagesOf, streamed } = caseSource(o, dataset, size)
  fs.mkdirSync(dir, { recursive: true })
  const store = RecordStore.open(path.join(dir, "recording"))
  // served as made: nothing is recorded, so nothing is saved or warmed up either
  const proxy = await startProxy(store, upstream.url, streamed === undefined ? "record" : "pass")
  try {
    const before = store.entries
    const t0 = performance.now()
    const prep = streamed ?? (await prepare(dataset, dir, proxy, o.seed))
    const rows = prep.rowsPerListing.reduce((a, b) => a + b, 0)
    const jobFile = path.join(dir, "job.json")
    fs.writeFileSync(jobFile, JSON.stringify(dataset.job(prep.since, o.window), null, 2))
    const ctx: Omit<RunContext, "workDir"> = {
      dataset,
      proxyUrl: proxy.url,
      jobFile,
      savedPages: path.join(dir, "pages.ndjson"),
      since: prep.since,
      to: prep.to,
      partRows: o.partRows,
      ...(o.partMb === undefined ? {} : { partMb: o.partMb }),
      rateLimit: o.rateLimit,
      ...(o.baselineRepo === undefined ? {} : { baselineRepo: o.baselineRepo })
    }
    o.log(`${dataset.name} ${size.label} (scale ${scale}${pagesOf === undefined ? "" : `, the ${pagesOf.size} case's records ×${pagesOf.times}${pagesOf.streamed ? ", served as made" : ""}`}, ${rows.toLocaleString("en-US")} rows in ${dataset.listings.length} listings, ${prep.since}..${prep.to}${dataset.windowed && o.window !== undefined ? `, chainetl's windows ${o.window}` : ""})`)
    // an unmeasured run of each chainetl build records what it asks beyond the references' pages
    // (its windows) and warms the caches every later run finds warm (tsx's transforms, the page cache)
    for (const method of ["chainetl", "baseline"] as const) {
      if (!o.methods.includes(method) || streamed !== undefined) continue
      const warm = await runOnce(method, ctx, proxy, 0)
      o.log(`  warm-up ${method}: ${describe(warm, true)}`)
      if (warm.exitCode !== 0) throw new Error(`${method} failed on ${dataset.name} ${size.label}: ${warm.error}`)
    }
    if (store.entries > before) o.log(`  recorded ${store.entries - before} responses in ${((performance.now() - t0) / 1000).toFixed(0)} s (${store.entries} in ${dir})`)
    if (streamed === undefined) proxy.mode = "replay"
    const runs: RunResult[] = []
    for (let i = 0; i < o.repeat; i++) {
      for (const method of rotate(o.methods, i)) {
        const r = await runOnce(method, ctx, proxy, i + 1)
        o.log(`  ${method.padEnd(11)} #${i + 1}: ${describe(r)}`)
        runs.push(r)
      }
    }
    const medians = Object.fromEntries(o.methods.flatMap((m) => {
      const med = mediansOf(runs.filter((r) => r.method === m))
      return med === undefined ? [] : [[m, med]]
    })) as CaseResult["medians"]
    const chainetlListings = runs.find((r) => r.method === "chainetl" && r.listings !== undefined)?.listings
    const cpuProfile = o.cpuProf && o.methods.includes("chainetl") ? await profileChainetl(ctx, proxy, path.join(dir, "chainetl.cpuprofile"), o.log) : undefined
    return {
      dataset: dataset.name,
      shape: dataset.shape,
      size: size.label,
      scale,
      ...(pagesOf === undefined ? {} : { pagesOf }),
      seed: o.seed,
      rows,
      listings: dataset.listings.length,
      minRequests: prep.rowsPerListing.reduce((n, r) => n + Math.max(1, Math.ceil(r / dataset.pageSize)), 0),
      ...(chainetlListings === undefined ? {} : { chainetlListings }),
      since: prep.since,
      to: prep.to,
      medians,
      ratios: ratiosOf(medians),
      rowsEqual: runs.every((r) => r.exitCode === 0 && r.rows === rows && r.misses === 0),
      runs,
      ...(cpuProfile === undefined ? {} : { cpuProfile })
    }
  } finally {
    await proxy.close()
    await upstream.close()
    store.close()
  }
}

export const runE2e = async (o: E2eOptions): Promise<CaseResult[]> => {
  const cases: CaseResult[] = []
  for (const size of o.sizes) for (const dataset of o.datasets) cases.push(await runCase(o, dataset, size))
  return cases
}
