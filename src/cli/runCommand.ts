/**
 * `chainetl run` and `chainetl backfill`: plan, crawl, write, catalog, then print what was
 * written. With --emulator the services are an in-process emulator on a free port (what
 * `npm start` does). Progress goes to stderr (live on a terminal, a line per part and slice
 * otherwise), or as JSON lines to stdout with --json; --quiet prints nothing but errors.
 */
import { Effect, Either, Layer } from "effect"
import { fileURLToPath } from "node:url"
import { allowedRate, allServices, loadSourceSettings, SourceConfig, type SourceSettingsInput } from "../Config.ts"
import { sourceLayer } from "../source/SourceLayer.ts"
import { OutputReader } from "../crawl/OutputReader.ts"
import { catalogEntries } from "../catalogEntries.ts"
import { dryRunPace } from "./dryRunPace.ts"
import type { SinkError } from "../Errors.ts"
import { stateLayer } from "../state/StateLayer.ts"
import type { OutputStore } from "../store/OutputStore.ts"
import { bucketOut, openBucket } from "./bucketOutput.ts"
import { loadStateUrl } from "../state/StateConfig.ts"
import type { Backfill } from "../crawl/Dataset.ts"
import { defaultJob, loadJobFile, type Network } from "../Job.ts"
import { NIGHTLY_COMPACT, planRun, run, type RunOptions, selectDatasets } from "../Runner.ts"
import { ConfigError } from "../Errors.ts"
import { requireStateUrl } from "./workerCommand.ts"
import { isoSeconds } from "../Time.ts"
import { advanceFor, type AsOf } from "./asOf.ts"
import { checkIncremental, checkPartitionGrain, checkStoredGrains } from "./backfillPlan.ts"
import { plan, printPlan } from "./dryRun.ts"
import { startScopedEmulator } from "./emulatorCommand.ts"
import { brokenCheckpoints, RunFailed, RunRejected } from "./exitCode.ts"
import { runLayers } from "./layers.ts"
import { checkOutWritable, createOut } from "./outPath.ts"
import { resolveOut } from "./output.ts"
import { sinkMemoryFromEnv } from "../sink/SinkMemory.ts"
import { servicesFor } from "./services.ts"
import { progressLayer } from "./progress/index.ts"
import { printSummary, rejectedIn } from "./summary.ts"

/** The job `npm start` runs: entities that exist in the emulator's default world. */
export const EMULATOR_JOB = fileURLToPath(new URL("../../pipelines/jobs/emulator.json", import.meta.url))

export interface RunArgs {
  readonly datasets: ReadonlyArray<string>
  readonly networks: ReadonlyArray<Network>
  readonly job: string | undefined
  readonly out: string | undefined
  readonly emulator: boolean
  readonly emulatorSeed: number | undefined
  readonly emulatorScale: number | undefined
  /** `--as-of` (with --emulator): where the emulated network's clock is moved before the run. */
  readonly asOf?: AsOf
  readonly partRows: number
  /** `--part-mb` in bytes (absent: PartSize.ts's default). */
  readonly partBytes?: number
  readonly concurrency: number
  readonly dryRun?: boolean
  /** With dryRun: no request at all (no round trip measured). */
  readonly offline?: boolean
  readonly quiet?: boolean
  readonly json?: boolean
  /** `--no-compact`: no compaction after the crawl. */
  readonly noCompact?: boolean
  /** `chainetl backfill`: the range, already checked. */
  readonly backfill?: Backfill
  /** An s3:// output's store (`out` is then its working copy); a folder's own files otherwise. */
  readonly store?: Layer.Layer<OutputStore>
  /** Runs once every check passed, before the output is created (an s3:// output: its id in the bucket). */
  readonly prepare?: Effect.Effect<void, SinkError>
  /** `--distributed`: enqueue the slices for `chainetl worker` processes and wait for them. */
  readonly distributed?: boolean
}

/**
 * `--out s3://…`: the run works on the bucket's working copy (bucketOutput.ts), else on the folder.
 * With --distributed too: the enqueuer's copy is the one that is pulled, compacted, catalogued and
 * pushed; workers publish their parts to the bucket from copies of their own (workerCommand.ts).
 */
export const runCommand = (args: RunArgs) => {
  const bucket = bucketOut(args.out)
  if (bucket === undefined || args.store !== undefined) return runOnFolder(args)
  return Effect.scoped(
    Effect.flatMap(openBucket(bucket, { needsState: true }), (opened) =>
      runOnFolder({ ...args, out: opened.dir, store: opened.store, prepare: opened.ensureId })
    )
  )
}

const runOnFolder = (args: RunArgs) =>
  Effect.scoped(
    Effect.gen(function* () {
      const started = Date.now()
      const out = resolveOut(args.out)
      const outLabel = args.out === undefined && process.env["CHAINETL_OUT"] !== undefined ? "CHAINETL_OUT" : "--out"
      const human = args.quiet !== true && args.json !== true
      // everything a user can get wrong is checked before anything is started or written
      yield* checkOutWritable(out, outLabel)
      const distributed = args.distributed === true && args.dryRun !== true
      if (distributed && args.emulator) {
        return yield* Effect.fail(
          new ConfigError({
            reason: "Invalid",
            field: "--distributed",
            detail: "workers cannot reach an emulator started inside this process",
            fix: "start `chainetl emulator` and set CHAINETL_BASE_URL, CHAINETL_METRICS_URL and CHAINETL_NODE_URL to it on every worker, or drop --emulator"
          })
        )
      }
      const stateUrl = distributed ? yield* requireStateUrl(`${args.backfill === undefined ? "run" : "backfill"} --distributed`) : undefined
      const jobFile = args.job ?? (args.emulator ? EMULATOR_JOB : undefined)
      const loaded = jobFile === undefined ? Either.right(defaultJob) : yield* Effect.promise(() => loadJobFile(jobFile))
      const checked = Either.flatMap(
        Either.flatMap(loaded, (job) => checkIncremental(job, jobFile ?? "job")),
        (job) => checkPartitionGrain(job, jobFile ?? "job")
      )
      if (Either.isLeft(checked)) return yield* Effect.fail(checked.left)
      const job = { ...checked.right, ...(args.networks.length > 0 ? { networks: args.networks } : {}) }
      const selected = selectDatasets(args.datasets, job)
      yield* checkStoredGrains(out, selected, jobFile ?? "job")
      // only the services these datasets call must be configured (the emulator brings its own)
      // (a distributed run's requests are the workers': they need the URLs, the enqueuer does not)
      const required = args.emulator || args.dryRun === true || distributed ? [] : servicesFor(selected.map((d) => d.name))
      const labels = { out: outLabel }
      // the job's budgets name keys of the environment (CHAINETL_API_KEYS); checked together
      const keyBudgets = { keyBudgets: job.apiKeys, keyBudgetsField: jobFile ?? "job" }
      yield* loadSourceSettings({ out, ...keyBudgets }, labels, required)
      // a bad CHAINETL_STATE_URL is refused before anything is created (it is checked again, and
      // connected to, when the run's layers are built)
      yield* loadStateUrl
      // and a bad CHAINETL_SINK_MEMORY (read again when the sink opens)
      yield* sinkMemoryFromEnv
      let overrides: SourceSettingsInput = { out, ...keyBudgets }
      let asOf: number | undefined
      if (args.emulator) {
        const emu = yield* startScopedEmulator({ seed: args.emulatorSeed, scale: args.emulatorScale })
        if (args.asOf !== undefined) {
          const seconds = advanceFor(args.asOf, emu.clock.now())
          if (Either.isLeft(seconds)) return yield* Effect.fail(seconds.left)
          emu.advance(seconds.right)
        }
        if (human) console.log(`emulator: ${emu.baseUrl} (seed ${emu.options.seed}, scale ${emu.options.scale}, now ${isoSeconds(emu.clock.now())}${args.asOf === undefined ? "" : ` = --as-of ${args.asOf.text}`})`)
        // a local emulator allows 200 requests/s without a key: the client's default 20/s, meant
        // for shared public services, would only make the demo slow
        overrides = { ...overrides, baseUrl: emu.baseUrl, metricsUrl: emu.metricsUrl, nodeUrl: emu.nodeUrl, rateLimit: 150, concurrency: 8 }
        // the emulator's network has its own clock: snapshots and open periods follow it
        asOf = emu.clock.now()
      }
      if (args.dryRun === true) {
        const effectiveAsOf = asOf ?? Math.floor(Date.now() / 1000)
        // reads checkpoints (windowed datasets plan around them); sends and writes nothing
        const { planned, dry } = yield* Effect.gen(function* () {
          const planned = yield* planRun(selected, job, effectiveAsOf, args.backfill)
          return { planned, dry: yield* plan(planned, effectiveAsOf) }
        }).pipe(Effect.provide(stateLayer(out)))
        // --quiet prints nothing, so no estimate is wanted: nothing is sent (the plan above still
        // reads the checkpoints, and its errors still set the exit code)
        if (args.quiet === true) return
        // the pace: first pages of windows spread over each windowed listing (unless --offline),
        // read and dropped; services whose URL is not set are not asked (dryRunPace.ts)
        const settings = yield* loadSourceSettings(overrides, labels, [])
        const pace = yield* dryRunPace(planned, dry, settings, args.offline === true, args.backfill?.unit === "time").pipe(
          Effect.provide(Layer.merge(sourceLayer.pipe(Layer.provide(SourceConfig.layerOf(settings))), OutputReader.layer(out, catalogEntries())))
        )
        printPlan(dry, args.json === true, pace)
        return
      }
      const settings = yield* loadSourceSettings(overrides, labels, args.emulator ? allServices : required)
      if (args.prepare !== undefined) yield* args.prepare
      yield* createOut(out, outLabel)
      const progress = progressLayer(args.quiet === true ? "quiet" : args.json === true ? "json" : "auto")
      const runOptions: RunOptions = {
        out,
        job,
        datasets: args.datasets,
        partRows: args.partRows,
        ...(args.partBytes === undefined ? {} : { partBytes: args.partBytes }),
        sliceConcurrency: args.concurrency,
        ...(args.noCompact === true ? {} : { compact: NIGHTLY_COMPACT }),
        ...(asOf === undefined ? {} : { asOf }),
        ...(args.backfill === undefined ? {} : { backfill: args.backfill }),
        // a backfill's long listings are cut into windows of their own (src/crawl/SplitListings.ts)
        ...(args.backfill?.unit === "time" ? { cutListings: { rate: allowedRate(settings) } } : {})
      }
      const layers = Layer.merge(runLayers(out, settings, args.store), progress)
      const report =
        stateUrl === undefined
          ? yield* run(runOptions).pipe(Effect.provide(layers))
          : yield* Effect.gen(function* () {
              // the queue's engine loads only here: local runs never import it
              const [{ runDistributed }, { distributedLayer }, { loadDistributedSettings }] = yield* Effect.promise(() =>
                Promise.all([import("../distributed/Enqueuer.ts"), import("../distributed/Layers.ts"), import("../distributed/Settings.ts")])
              )
              const d = yield* loadDistributedSettings
              return yield* runDistributed(runOptions, d).pipe(Effect.provide(Layer.merge(layers, distributedLayer(out, stateUrl, d))))
            })
      if (human) yield* printSummary(out, report, Date.now() - started)
      if (report.status === "failed") {
        return yield* Effect.fail(
          new RunFailed({
            reason: "SlicesFailed",
            failed: report.slices.filter((s) => s.status === "failed").map((s) => `${s.dataset}/${s.slice}`),
            ...(report.error === null ? {} : { error: report.error }),
            broken: brokenCheckpoints(report.slices),
            report: `${out}/_runs/${report.runId}.json`
          })
        )
      }
      // done, but records that could not be mapped leave holes: cron must see it (exit 3)
      const rejected = rejectedIn(report)
      if (rejected.length > 0) return yield* Effect.fail(new RunRejected({ reason: "Rejects", datasets: rejected, runId: report.runId, out }))
    })
  )
