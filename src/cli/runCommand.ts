/**
 * `chainetl run`: crawl, write, catalog, then print what was written. With --emulator the
 * services are an in-process emulator on a free port (what `npm start` does).
 */
import { Effect, Either } from "effect"
import { fileURLToPath } from "node:url"
import type { SourceSettingsInput } from "../Config.ts"
import { defaultJob, loadJobFile, type Network } from "../Job.ts"
import { run, selectDatasets } from "../Runner.ts"
import { plan, printPlan } from "./dryRun.ts"
import { startScopedEmulator } from "./emulatorCommand.ts"
import { RunFailed } from "./exitCode.ts"
import { runLayers } from "./layers.ts"
import { resolveOut } from "./output.ts"
import { printSummary } from "./summary.ts"

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
  readonly partRows: number
  readonly concurrency: number
  readonly dryRun?: boolean
}

export const runCommand = (args: RunArgs) =>
  Effect.scoped(
    Effect.gen(function* () {
      const started = Date.now()
      const out = resolveOut(args.out)
      let overrides: SourceSettingsInput = { out }
      let asOf: number | undefined
      if (args.emulator) {
        const emu = yield* startScopedEmulator({ seed: args.emulatorSeed, scale: args.emulatorScale })
        console.log(`emulator: ${emu.baseUrl} (seed ${emu.options.seed}, scale ${emu.options.scale})`)
        // a local emulator allows 200 requests/s without a key: the client's default 20/s, meant
        // for shared public services, would only make the demo slow
        overrides = { ...overrides, baseUrl: emu.baseUrl, metricsUrl: emu.metricsUrl, nodeUrl: emu.nodeUrl, rateLimit: 150, concurrency: 8 }
        // the emulator's network has its own clock: snapshots and open periods follow it
        asOf = emu.clock.now()
      }
      const jobFile = args.job ?? (args.emulator ? EMULATOR_JOB : undefined)
      const loaded = jobFile === undefined ? Either.right(defaultJob) : yield* Effect.promise(() => loadJobFile(jobFile))
      if (Either.isLeft(loaded)) return yield* Effect.fail(loaded.left)
      const job = { ...loaded.right, ...(args.networks.length > 0 ? { networks: args.networks } : {}) }
      if (args.dryRun === true) {
        const effectiveAsOf = asOf ?? Math.floor(Date.now() / 1000)
        printPlan(plan(selectDatasets(args.datasets, job), job, effectiveAsOf), effectiveAsOf)
        return
      }
      const report = yield* run({ out, job, datasets: args.datasets, partRows: args.partRows, sliceConcurrency: args.concurrency, ...(asOf === undefined ? {} : { asOf }) }).pipe(
        Effect.provide(runLayers(out, overrides, { out: "--out" }))
      )
      yield* printSummary(out, report, Date.now() - started)
      if (report.status === "failed") {
        return yield* Effect.fail(
          new RunFailed({
            reason: "SlicesFailed",
            failed: report.slices.filter((s) => s.status === "failed").map((s) => `${s.dataset}/${s.slice}`),
            report: `${out}/_runs/${report.runId}.json`
          })
        )
      }
    })
  )
