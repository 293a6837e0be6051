/**
 * The four methods the bench measures, each as the command line of a child process: chainetl
 * through its public CLI, and the three references (reference/*.ts) a user could write instead.
 * All read the same recorded pages through the proxy, except duckdb-only, which converts the
 * pages already saved as NDJSON.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { BenchDataset } from "./datasets.ts"
import type { ReferenceSpec } from "./reference/spec.ts"

export const METHODS = ["chainetl", "plain", "duckdb-only", "naive", "baseline"] as const
export type MethodName = (typeof METHODS)[number]

/** What runs unless --methods says otherwise: `baseline` only with --baseline. */
export const DEFAULT_METHODS: ReadonlyArray<MethodName> = ["chainetl", "plain", "duckdb-only", "naive"]

export const REPO = fileURLToPath(new URL("../../", import.meta.url))

export interface RunContext {
  readonly dataset: BenchDataset
  readonly proxyUrl: string
  /** A fresh folder for this run, removed after it. */
  readonly workDir: string
  readonly jobFile: string
  /** Saved pages (NDJSON) of the dataset, for duckdb-only. */
  readonly savedPages: string
  readonly since: string
  /** Day after the emulated network's now: the end (excluded) of a windowed backfill. */
  readonly to: string
  readonly partRows: number
  readonly partMb?: number
  readonly rateLimit: number
  /** Set for the one profiled chainetl run. */
  readonly cpuProfDir?: string
  /** `--baseline`: another checkout of chainetl (built), run as the method `baseline` with chainetl's flags. */
  readonly baselineRepo?: string
}

export interface MethodRun {
  readonly argv: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  /** Where its Parquet files land. */
  readonly outputDir: string
  /** chainetl's --out, where its run report lands. */
  readonly runReportOut?: string
}

const reference = (script: string, ctx: RunContext): MethodRun => {
  const out = path.join(ctx.workDir, "out")
  const spec: ReferenceSpec = {
    baseUrl: ctx.proxyUrl,
    dataset: ctx.dataset.name,
    pageSize: ctx.dataset.pageSize,
    listings: ctx.dataset.listings,
    select: ctx.dataset.select,
    readJson: ctx.dataset.readJson,
    partitionBy: ctx.dataset.partitionBy,
    ndjson: ctx.savedPages,
    out
  }
  const specFile = path.join(ctx.workDir, "spec.json")
  fs.writeFileSync(specFile, JSON.stringify(spec))
  const file = fileURLToPath(new URL(`./reference/${script}`, import.meta.url))
  return { argv: [process.execPath, "--import", "tsx", file, specFile], env: {}, outputDir: out }
}

const chainetl = (ctx: RunContext, repo: string): MethodRun => {
  const out = path.join(ctx.workDir, "out")
  const ds = ctx.dataset.name
  const command = ctx.dataset.windowed ? ["backfill", ds, "--from", ctx.since, "--to", ctx.to] : ["run", ds]
  const profile = ctx.cpuProfDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", ctx.cpuProfDir]
  return {
    // slices and requests at once pinned at 4, the defaults of the runs before: without a rate
    // limit both would go to their caps (64), and this bench compares CPU and memory, not pace
    argv: [process.execPath, ...profile, path.join(repo, "bin", "chainetl.mjs"), ...command, "--job", ctx.jobFile, "--out", out, "--part-rows", String(ctx.partRows), ...(ctx.partMb === undefined ? [] : ["--part-mb", String(ctx.partMb)]), "--concurrency", "4", "--quiet"],
    env: {
      CHAINETL_BASE_URL: ctx.proxyUrl,
      CHAINETL_METRICS_URL: ctx.proxyUrl,
      CHAINETL_NODE_URL: ctx.proxyUrl,
      // the client's default 20 requests/s is meant for shared public services; the references
      // have no limiter, so neither does chainetl here (its CPU per row does not depend on it)
      CHAINETL_RATE_LIMIT: String(ctx.rateLimit),
      CHAINETL_CONCURRENCY: "4",
      CHAINETL_LOG_LEVEL: "info"
    },
    outputDir: path.join(out, ds),
    runReportOut: out
  }
}

export const methodRun = (name: MethodName, ctx: RunContext): MethodRun => {
  switch (name) {
    case "chainetl":
      return chainetl(ctx, REPO)
    case "baseline":
      if (ctx.baselineRepo === undefined) throw new Error("the baseline method needs --baseline DIR")
      return chainetl(ctx, ctx.baselineRepo)
    case "plain":
      return reference("plain.ts", ctx)
    case "duckdb-only":
      return reference("duckdbOnly.ts", ctx)
    case "naive":
      return reference("naive.ts", ctx)
  }
}
