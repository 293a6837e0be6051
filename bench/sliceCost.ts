/**
 * `npm run bench -- --slice-cost`: a one-page slice's fixed cost. Two backfills of
 * `staking_transactions` in one-day windows, a short range and a long one (one request and a row
 * or two a slice), one slice at a time, against pages recorded from the emulator and replayed from
 * memory with no latency (bench/pace/replay.ts). The crawl's CPU is the run report's `pace.cpuMs`
 * (start-up and catalog work after the crawl left out); the difference between the two, over the
 * difference in slices, is a slice's cost beyond its rows. Rounds alternate short and long runs,
 * and with `--against` this checkout's and another's on the same recorded pages.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { measureChild } from "./e2e/measure.ts"
import { REPO } from "./e2e/methods.ts"
import { lazyEmulator } from "./e2e/upstream.ts"
import { median } from "./median.ts"
import { startReplay, type PaceReplay } from "./pace/replay.ts"

export const SLICE_COST_USAGE = `npm run bench -- --slice-cost [flags]   a one-page slice's fixed CPU
  --rounds N            short/long pairs, alternated (default 3)
  --from D              first day (default 2024-06-27)
  --short N --long N    days of each run (default 28, 188)
  --cpu-prof DIR        write the long runs' CPU profiles there (node --cpu-prof)
  --keep DIR            keep each run's output folder there (to compare rows)
  --against DIR         another checkout (e.g. the commit before a change): each round runs both
  --checkouts A,B       the checkouts to run instead of this one (e.g. two built copies of two commits)`

interface Report {
  readonly slices: ReadonlyArray<{ readonly requests: number; readonly status: string }>
  readonly pace: { readonly cpuMs: number; readonly crawlMs: number }
}

const readReport = (out: string): Report => {
  const dir = path.join(out, "_runs")
  const file = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort().at(-1)!
  return JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Report
}

const dayAfter = (from: string, days: number): string => new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

interface Run {
  readonly repo: string
  readonly days: number
  readonly slices: number
  readonly requests: number
  readonly cpuMs: number
  readonly crawlMs: number
}

const runOnce = async (repo: string, replay: PaceReplay, from: string, days: number, prof: string | undefined, keep: string | undefined, tag: string): Promise<Run> => {
  const out = keep === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-slice-cost-")) : path.join(keep, tag)
  fs.rmSync(out, { recursive: true, force: true })
  try {
    const argv = [
      process.execPath,
      ...(prof === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", prof]),
      path.join(repo, "bin", "chainetl.mjs"),
      "backfill", "staking_transactions",
      "--from", from, "--to", dayAfter(from, days), "--window", "1d",
      "--job", path.join(REPO, "pipelines", "jobs", "emulator.json"),
      "--out", out, "--concurrency", "1", "--quiet", "--no-compact"
    ]
    const env = { CHAINETL_BASE_URL: replay.url, CHAINETL_METRICS_URL: replay.url, CHAINETL_NODE_URL: replay.url, CHAINETL_CONCURRENCY: "1" }
    const m = await measureChild(argv, env, repo)
    if (m.exitCode !== 0) throw new Error(`run of ${days} days failed: ${m.stderrTail}`)
    const r = readReport(out)
    const failed = r.slices.filter((s) => s.status === "failed").length
    if (failed > 0) throw new Error(`run of ${days} days: ${failed} slices failed`)
    return { repo, days, slices: r.slices.length, requests: r.slices.reduce((n, s) => n + s.requests, 0), cpuMs: r.pace.cpuMs, crawlMs: r.pace.crawlMs }
  } finally {
    if (keep === undefined) fs.rmSync(out, { recursive: true, force: true })
  }
}

export const runSliceCost = async (args: ReadonlyArray<string>): Promise<void> => {
  const value = (f: string) => {
    const i = args.indexOf(f)
    return i < 0 ? undefined : args[i + 1]
  }
  const rounds = Number(value("--rounds") ?? 3)
  const from = value("--from") ?? "2024-06-27"
  const short = Number(value("--short") ?? 28)
  const long = Number(value("--long") ?? 188)
  const prof = value("--cpu-prof")
  const keep = value("--keep")
  const against = value("--against")
  const checkouts = value("--checkouts")
  const repos = checkouts !== undefined ? checkouts.split(",").map((c) => path.resolve(c)) : against === undefined ? [REPO] : [REPO, path.resolve(against)]
  const upstream = lazyEmulator(1, 2)
  const replay = await startReplay(upstream.url)
  try {
    // recording: the long range once against the emulator (it covers the short one)
    await runOnce(repos[0]!, replay, from, long, undefined, undefined, "record")
    replay.mode = "replay"
    const runs: Run[] = []
    for (let i = 0; i < rounds; i++) {
      for (const [k, repo] of repos.entries()) {
        for (const days of [short, long]) {
          const r = await runOnce(repo, replay, from, days, days === long ? prof : undefined, keep, `${k}-${days}d-${i}`)
          runs.push(r)
          console.log(`${repo}  ${String(r.days).padStart(4)} days  ${String(r.slices).padStart(4)} slices  ${String(r.requests).padStart(4)} requests  crawl CPU ${(r.cpuMs / 1000).toFixed(2)} s  wall ${(r.crawlMs / 1000).toFixed(2)} s`)
        }
      }
    }
    for (const repo of repos) {
      const of = (days: number) => runs.filter((r) => r.repo === repo && r.days === days)
      const mid = (days: number, f: (r: Run) => number) => median(of(days).map(f))
      const slices = of(long)[0]!.slices - of(short)[0]!.slices
      const perSlice = (mid(long, (r) => r.cpuMs) - mid(short, (r) => r.cpuMs)) / slices
      const wallPerSlice = (mid(long, (r) => r.crawlMs) - mid(short, (r) => r.crawlMs)) / slices
      console.log(`${repo}: median crawl CPU ${(mid(short, (r) => r.cpuMs) / 1000).toFixed(2)} s (${short} days) and ${(mid(long, (r) => r.cpuMs) / 1000).toFixed(2)} s (${long} days): ${perSlice.toFixed(1)} ms CPU and ${wallPerSlice.toFixed(1)} ms wall a slice`)
    }
    console.log(`load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`)
  } finally {
    await replay.close()
    await upstream.close()
  }
}
