/**
 * `npm run bench -- --pace`: how close a backfill comes to what the service allows. The pages of
 * `backfill primary_blocks staking_transactions` are recorded from the emulator once (an
 * unmeasured run), then every case replays them from memory after a fixed latency
 * (bench/pace/replay.ts) under a client rate limit, and the run is measured against the ideal
 * max(requests / rate, longest listing × round trip) (src/pace/Bound.ts): the run's bound, its
 * datasets crawled side by side. The sum of each dataset's own bound (the bound of a run that
 * crawled them one after the other, as runs did before) is reported beside it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { allowanceShare, boundOf, sequentialBound, type Load } from "../../src/pace/Bound.ts"
import { measureChild } from "../e2e/measure.ts"
import { REPO } from "../e2e/methods.ts"
import { lazyEmulator } from "../e2e/upstream.ts"
import { startReplay, type PaceReplay } from "./replay.ts"

export const PACE_USAGE = `npm run bench -- --pace [flags]   a backfill against a replayed service with a fixed latency
  --rates 10,20,50          CHAINETL_RATE_LIMIT of each case (default 10,20,50)
  --latencies 100,300,1000  the service's round trip, ms (default 100,300,1000)
  --scale X --seed N        emulator scale and seed (default 2, 1)
  --from D --to D           the backfill's range (default 2024-06-27 .. 2025-01-03: 14 windows of 14d)
  --window 14d              the backfill's window
  --concurrency N           pass --concurrency N and CHAINETL_CONCURRENCY=N (default: not passed, chainetl's defaults)
  --estimate                also run --dry-run per case (its printed estimate against the measured run)
  --results FILE            default bench/results-pace.json`

const DATASETS = ["primary_blocks", "staking_transactions"]

interface PaceArgs {
  readonly rates: ReadonlyArray<number>
  readonly latencies: ReadonlyArray<number>
  readonly scale: number
  readonly seed: number
  readonly from: string
  readonly to: string
  readonly window: string
  readonly concurrency?: number
  readonly estimate: boolean
  readonly results: string
}

const parseArgs = (args: ReadonlyArray<string>): PaceArgs => {
  const value = (f: string) => {
    const i = args.indexOf(f)
    return i < 0 ? undefined : args[i + 1]
  }
  const list = (f: string, d: string) => (value(f) ?? d).split(",").map(Number)
  const c = value("--concurrency")
  return {
    rates: list("--rates", "10,20,50"),
    latencies: list("--latencies", "100,300,1000"),
    scale: Number(value("--scale") ?? 2),
    seed: Number(value("--seed") ?? 1),
    from: value("--from") ?? "2024-06-27",
    to: value("--to") ?? "2025-01-03",
    window: value("--window") ?? "14d",
    ...(c === undefined ? {} : { concurrency: Number(c) }),
    estimate: args.includes("--estimate"),
    results: value("--results") ?? path.join(REPO, "bench", "results-pace.json")
  }
}

interface SliceLine {
  readonly dataset: string
  readonly requests: number
  readonly pages: number
  readonly status: string
}

const readReport = (out: string): { slices: ReadonlyArray<SliceLine>; summary: unknown } => {
  const dir = path.join(out, "_runs")
  const file = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort().at(-1)!
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { slices: SliceLine[]; pace?: unknown }
  return { slices: report.slices, summary: report.pace ?? null }
}

/** Per dataset: its requests and its longest listing (a slice's requests: one listing each). */
const loadsOf = (slices: ReadonlyArray<SliceLine>): ReadonlyArray<Load & { dataset: string }> =>
  DATASETS.map((dataset) => {
    const mine = slices.filter((s) => s.dataset === dataset)
    return { dataset, requests: mine.reduce((n, s) => n + s.requests, 0), longestListing: Math.max(0, ...mine.map((s) => s.requests)) }
  })

const backfill = (a: PaceArgs, replay: PaceReplay, out: string, rate: number, extra: ReadonlyArray<string> = []) => ({
  argv: [
    process.execPath,
    path.join(REPO, "bin", "chainetl.mjs"),
    "backfill",
    ...DATASETS,
    "--from", a.from, "--to", a.to, "--window", a.window,
    "--job", path.join(REPO, "pipelines", "jobs", "emulator.json"),
    "--out", out,
    ...(a.concurrency === undefined ? [] : ["--concurrency", String(a.concurrency)]),
    ...extra
  ],
  env: {
    CHAINETL_BASE_URL: replay.url,
    CHAINETL_METRICS_URL: replay.url,
    CHAINETL_NODE_URL: replay.url,
    CHAINETL_RATE_LIMIT: String(rate),
    ...(a.concurrency === undefined ? {} : { CHAINETL_CONCURRENCY: String(a.concurrency) })
  }
})

interface DryEstimate {
  readonly wallMs: { readonly likely: number }
  readonly by: string
  /** The share of a core the dry run measured, and the crawl's CPU it expects (ms). */
  readonly coreShare?: number
  readonly cpuMs?: number
}

/** The dry run's estimate, from its JSON (absent when it prints none). */
const estimateOf = async (a: PaceArgs, replay: PaceReplay, rate: number): Promise<DryEstimate | null> => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-pace-dry-"))
  try {
    const run = backfill(a, replay, out, rate, ["--dry-run", "--json"])
    // not execFileSync: the replay server answering the dry run's probes runs in this process
    const { execFile } = await import("node:child_process")
    const { promisify } = await import("node:util")
    const { stdout: text } = await promisify(execFile)(run.argv[0]!, run.argv.slice(1), { env: { ...process.env, ...run.env }, encoding: "utf8", maxBuffer: 64 * 2 ** 20 })
    const dry = JSON.parse(text) as { estimate?: DryEstimate }
    return dry.estimate ?? null
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
}

export const runPace = async (args: ReadonlyArray<string>): Promise<void> => {
  const a = parseArgs(args)
  const upstream = lazyEmulator(a.seed, a.scale)
  const replay = await startReplay(upstream.url)
  const cases: unknown[] = []
  try {
    // recording: an unmeasured run against the emulator through the replay server, no latency
    const rec = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-pace-rec-"))
    const recording = backfill(a, replay, rec, 100_000)
    const r = await measureChild(recording.argv, recording.env, REPO)
    fs.rmSync(rec, { recursive: true, force: true })
    if (r.exitCode !== 0) throw new Error(`recording run failed: ${r.stderrTail}`)
    replay.mode = "replay"
    console.log(`recorded ${replay.pages} pages (emulator seed ${a.seed} scale ${a.scale}), ${a.from}..${a.to} in ${a.window} windows`)
    console.log("rate  latency  requests  longest  ideal s  ideal(seq) s  span s  wall s  ideal/span  share  in flight  cpu s  estimate s  load")
    for (const latency of a.latencies) {
      for (const rate of a.rates) {
        replay.latencyMs = latency
        replay.reset()
        const out = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-pace-"))
        const run = backfill(a, replay, out, rate, ["--quiet"])
        const m = await measureChild(run.argv, run.env, REPO)
        // copied before the dry run, whose probes the same server answers
        const c = { ...replay.counters, arrivals: [...replay.counters.arrivals] }
        if (m.exitCode !== 0 || c.misses > 0) console.log(`  rate ${rate} latency ${latency}: exit ${m.exitCode}, ${c.misses} misses: ${m.stderrTail.slice(-500)}`)
        const { slices, summary } = readReport(out)
        fs.rmSync(out, { recursive: true, force: true })
        const loads = loadsOf(slices)
        const service = { rate, roundTripMs: latency }
        const total: Load = { requests: c.requests, longestListing: Math.max(...loads.map((l) => l.longestListing)) }
        const ideal = boundOf(total, service)
        const seq = sequentialBound(loads, service)
        const spanMs = c.last - c.first
        const dry = a.estimate ? await estimateOf(a, replay, rate) : null
        const estimateMs = dry?.wallMs.likely ?? null
        const row = {
          rate,
          latencyMs: latency,
          requests: c.requests,
          slices: slices.length,
          longestListing: total.longestListing,
          loads,
          idealMs: ideal.ms,
          boundBy: ideal.by,
          sequentialIdealMs: seq.ms,
          spanMs,
          wallMs: m.wallSeconds * 1000,
          idealOverSpan: ideal.ms / spanMs,
          share: allowanceShare(c.requests, spanMs, rate),
          maxInFlight: c.maxInFlight,
          cpuSeconds: m.cpuSeconds,
          peakRssMb: m.peakRssBytes / 2 ** 20,
          estimateMs,
          estimateBy: dry?.by ?? null,
          estimateCoreShare: dry?.coreShare ?? null,
          estimateCpuMs: dry?.cpuMs ?? null,
          // the machine's load average when the case ended: a shared machine's cores go to others too
          load: os.loadavg(),
          summary,
          // requests arriving in each second of the span
          perSecond: c.arrivals.reduce<number[]>((acc, t) => {
            const i = Math.floor(t / 1000)
            while (acc.length <= i) acc.push(0)
            acc[i]! += 1
            return acc
          }, [])
        }
        cases.push(row)
        const f = (ms: number) => (ms / 1000).toFixed(1).padStart(6)
        console.log(
          `${String(rate).padStart(4)}  ${String(latency).padStart(7)}  ${String(c.requests).padStart(8)}  ${String(total.longestListing).padStart(7)}  ${f(ideal.ms)} (${ideal.by === "rate" ? "r" : "t"})  ${f(seq.ms)}  ${f(spanMs)}  ${f(row.wallMs)}  ${(row.idealOverSpan * 100).toFixed(0).padStart(9)} %  ${(row.share * 100).toFixed(0).padStart(3)} %  ${String(c.maxInFlight).padStart(9)}  ${m.cpuSeconds.toFixed(1).padStart(5)}  ${estimateMs === null ? "      " : f(estimateMs)}  ${row.load[0]!.toFixed(1)}`
        )
      }
    }
  } finally {
    await replay.close()
    await upstream.close()
  }
  const settings = { ...a, results: undefined, node: process.version, cores: os.cpus().length, load: os.loadavg(), at: new Date().toISOString() }
  fs.writeFileSync(a.results, JSON.stringify({ settings, cases }, null, 2))
  console.log(`results: ${a.results}`)
}
