/**
 * `chainetl verify`: is the output whole? Reads the output folder (files, manifests, checkpoints,
 * run reports) and prints each failure with the exact command that re-crawls it; exit 0 when every
 * check holds, 1 when one fails, 2 on bad usage. `--repair` runs those commands here and checks
 * again; `--metrics-file` writes the figures for node_exporter's textfile collector. The checks are
 * src/verify/'s.
 */
import { Data, Effect, Either } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { AnyDataset } from "../crawl/Dataset.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { ConfigError, type SinkError } from "../Errors.ts"
import { replaceFile } from "../files/Durable.ts"
import { defaultJob, loadJobFile } from "../Job.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { readRuns } from "../status/read.ts"
import { withGrain } from "../transform/Grain.ts"
import { commandOf, type CommandContext, type Finding, listingText, repairsOf } from "../verify/Finding.ts"
import { checkFreshness } from "../verify/Freshness.ts"
import { metricsText } from "../verify/Metrics.ts"
import type { Verdict } from "../verify/Verify.ts"
import { checkIncremental, checkPartitionGrain } from "./backfillPlan.ts"
import { resolveOut } from "./output.ts"

export interface VerifyArgs {
  readonly datasets: ReadonlyArray<string>
  readonly out: string | undefined
  readonly job: string | undefined
  readonly json: boolean
  readonly repair: boolean
  readonly metricsFile: string | undefined
}

export class VerifyFailed extends Data.TaggedError("VerifyFailed")<{ readonly findings: ReadonlyArray<Finding>; readonly repaired: boolean }> {
  override get message(): string {
    const datasets = [...new Set(this.findings.map((f) => f.dataset))]
    return `verify: ${this.findings.length} check(s) failed in ${datasets.join(", ")}${this.repaired ? " after --repair" : ""}; each line above names its re-crawl${this.repaired ? "" : " (or run verify --repair)"}`
  }
}

const render = (verdict: Verdict, ctx: CommandContext, checked: ReadonlyArray<string>) => {
  for (const f of verdict.findings) {
    const where = listingText(f.listing)
    console.log(`FAIL ${f.dataset}${where === "" ? "" : ` ${where}`} ${f.check}: ${f.what}`)
    console.log(f.repair === undefined ? `     fix: ${f.fix ?? "see docs/operations.md, Verify"}` : `     re-crawl: ${commandOf(f.repair, ctx)}`)
  }
  for (const n of verdict.notes) console.log(`note ${n.dataset}${listingText(n.listing) === "" ? "" : ` ${listingText(n.listing)}`}: ${n.what}`)
  const failed = new Set(verdict.findings.map((f) => f.dataset))
  const rows = new Map(verdict.metrics.map((m) => [m.dataset, m.rows]))
  console.log(`verify ${ctx.out}: ${checked.length} dataset(s) checked, ${failed.size} failing, ${verdict.findings.length} failure(s)`)
  for (const d of checked) console.log(`${failed.has(d) ? "FAIL" : "ok  "} ${d} (${rows.get(d) ?? 0n} rows)`)
}

const asJson = (verdict: Verdict, ctx: CommandContext) => ({
  ok: verdict.findings.length === 0,
  out: ctx.out,
  findings: verdict.findings.map((f) => ({ ...f, ...(f.repair === undefined ? {} : { command: commandOf(f.repair, ctx) }) })),
  notes: verdict.notes,
  datasets: verdict.metrics.map((m) => ({ ...m, rows: m.rows.toString(), holes: m.holes.toString(), rejects: m.rejects.toString() }))
})

/** The datasets with anything on disk: a checkpoint or a folder. */
const present = async (out: string, registry: ReadonlyArray<AnyDataset>, checkpointed: ReadonlySet<string>) => {
  const folders = new Set(await fs.readdir(out).catch(() => [] as string[]))
  return registry.filter((d) => checkpointed.has(d.name) || folders.has(d.name))
}

export const verifyCommand = (args: VerifyArgs) =>
  Effect.gen(function* () {
    if (/^s3:\/\//i.test(args.out ?? process.env["CHAINETL_OUT"] ?? "")) {
      const m = yield* Effect.promise(() => import("./bucketOutput.ts"))
      // verified from a private copy; the repairs write to the bucket, so the copy is pulled again before the second verdict
      return yield* Effect.scoped(Effect.flatMap(m.openBucket(m.bucketOut(args.out)!, { needsState: true, dir: { kind: "private" } }), (opened) => verifyFolder(args, opened.dir, args.out!, opened.pull)))
    }
    return yield* verifyFolder(args, resolveOut(args.out), args.out ?? resolveOut(args.out))
  })

const verifyFolder = (args: VerifyArgs, out: string, shown: string, refresh: Effect.Effect<void, SinkError> = Effect.void) =>
  Effect.gen(function* () {
    const ctx: CommandContext = { out: shown, ...(args.job === undefined ? {} : { job: args.job }) }
    const exists = yield* Effect.promise(() => fs.stat(path.join(out, "_state")).then(() => true, () => false))
    if (!exists) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--out", detail: `${out} holds no chainetl output (no _state folder)`, fix: "pass the --out of a run" }))
    const source = args.job ?? "job"
    const loaded = args.job === undefined ? Either.right(defaultJob) : yield* Effect.promise(() => loadJobFile(args.job!))
    const { datasets: registry } = yield* Effect.promise(() => import("../../pipelines/index.ts"))
    const checked = Either.flatMap(
      Either.flatMap(
        Either.flatMap(loaded, (job) => checkIncremental(job, source)),
        (job) => checkPartitionGrain(job, source)
      ),
      (job) => checkFreshness(job, registry.map((d) => d.name), source)
    )
    if (Either.isLeft(checked)) return yield* Effect.fail(checked.left)
    const job = checked.right
    const { catalogEntries } = yield* Effect.promise(() => import("../catalogEntries.ts"))
    const { verify } = yield* Effect.promise(() => import("../verify/Verify.ts"))
    const check = Effect.gen(function* () {
      const checkpoints = yield* (yield* CheckpointStore).list()
      const chosen =
        args.datasets.length > 0
          ? registry.filter((d) => args.datasets.includes(d.name))
          : // a dataset with an SLA is checked even when the output holds nothing of it: that is its failure
            yield* Effect.promise(() => present(out, registry, new Set([...checkpoints.map((c) => c.dataset), ...Object.keys(job.freshness)])))
      const datasets = chosen.map((d) => withGrain(d, job.partitionGrain[d.name]))
      const runs = yield* readRuns(out)
      const verdict = yield* Effect.promise(() => verify({ out, job, datasets, entries: catalogEntries(), checkpoints, runs, now: Math.floor(Date.now() / 1000) }))
      return { verdict, names: datasets.map((d) => d.name) }
    })
    let { verdict, names } = yield* check
    const repaired = args.repair && repairsOf(verdict.findings).length > 0
    if (repaired) {
      if (!args.json) render(verdict, ctx, names)
      const { runRepairs } = yield* Effect.promise(() => import("./verifyRepair.ts"))
      yield* runRepairs(repairsOf(verdict.findings), ctx, (line) => process.stderr.write(`${line}\n`))
      yield* refresh
      ;({ verdict, names } = yield* check)
      if (!args.json) console.log("after --repair:")
    }
    if (args.json) console.log(JSON.stringify(asJson(verdict, ctx), null, 2))
    else render(verdict, ctx, names)
    if (args.metricsFile !== undefined) {
      const text = metricsText(verdict.metrics, verdict.findings, Math.floor(Date.now() / 1000))
      yield* Effect.promise(() => replaceFile(path.resolve(args.metricsFile!), text))
    }
    if (verdict.findings.length > 0) return yield* Effect.fail(new VerifyFailed({ findings: verdict.findings, repaired }))
  }).pipe(Effect.provide(stateLayer(out)))
