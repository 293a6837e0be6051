/**
 * `chainetl run <dataset> --refetch-slice <slice>[@<from>-<to>]`: before the run, under the writer
 * lock it then takes again, the slices' files are removed and their checkpoints set back (or some
 * heights of an evm_blocks chain taken out: src/verify/RefetchSlice.ts), wherever the output's
 * state is (the folder, or PostgreSQL with CHAINETL_STATE_URL). An s3:// output is cleared through
 * its working copy, pulled under the lock, each file deleted there and at its key.
 */
import { Effect, Either } from "effect"
import { ConfigError } from "../Errors.ts"
import { defaultJob, loadJobFile } from "../Job.ts"
import { inOutputFolder } from "./outputFolder.ts"
import type { RunArgs } from "./runCommand.ts"

export const refetchSlicesFirst = (args: Pick<RunArgs, "datasets" | "networks" | "job" | "out" | "emulator" | "dryRun">, specs: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const refused = (detail: string, fix: string) => Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch-slice", detail, fix }))
    if (args.dryRun === true) return yield* refused("--refetch-slice removes the slices' files, which --dry-run must not", "drop one of them")
    // the emulator's clock, which decides the snapshot day a run plans, is known only once it started
    if (args.emulator) return yield* refused("the in-process emulator's day is not known before it starts", "start `chainetl emulator` and point CHAINETL_BASE_URL, CHAINETL_METRICS_URL and CHAINETL_NODE_URL at it")
    const loaded = args.job === undefined ? Either.right(defaultJob) : yield* Effect.promise(() => loadJobFile(args.job!))
    if (Either.isLeft(loaded)) return yield* Effect.fail(loaded.left)
    const job = { ...loaded.right, ...(args.networks.length > 0 ? { networks: args.networks } : {}) }
    const [{ selectDatasets }, { refetchSlices }] = yield* Effect.promise(() => Promise.all([import("../Runner.ts"), import("../verify/RefetchSlice.ts")]))
    return yield* inOutputFolder(args.out, (out) => refetchSlices(out, job, selectDatasets(args.datasets, job), specs, Math.floor(Date.now() / 1000)))
  })
