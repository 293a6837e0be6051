/**
 * `chainetl run <dataset> --refetch-slice <slice>`: before the run, the slices' checkpoints are
 * set back to nothing committed (src/verify/RefetchSlice.ts), so the run's recovery removes their
 * parts and lists them whole. What `chainetl verify` prints for a slice of a dataset that takes no
 * range whose files lost rows its checkpoint committed.
 */
import { Effect, Either } from "effect"
import { ConfigError } from "../Errors.ts"
import { defaultJob, loadJobFile } from "../Job.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { resolveOut } from "./output.ts"
import type { RunArgs } from "./runCommand.ts"

export const refetchSlicesFirst = (args: Pick<RunArgs, "datasets" | "networks" | "job" | "out" | "emulator" | "dryRun">, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const refused = (detail: string, fix: string) => Effect.fail(new ConfigError({ reason: "Invalid", field: "--refetch-slice", detail, fix }))
    if (args.dryRun === true) return yield* refused("--refetch-slice sets the slices' checkpoints back, which --dry-run must not", "drop one of them")
    // the emulator's clock, which decides the snapshot day a run plans, is known only once it started
    if (args.emulator) return yield* refused("the in-process emulator's day is not known before it starts", "start `chainetl emulator` and point CHAINETL_BASE_URL, CHAINETL_METRICS_URL and CHAINETL_NODE_URL at it")
    if (/^s3:\/\//i.test(args.out ?? process.env["CHAINETL_OUT"] ?? "")) return yield* refused("an output in a bucket is not refetched by slice yet", "re-crawl the slice into a folder output")
    const loaded = args.job === undefined ? Either.right(defaultJob) : yield* Effect.promise(() => loadJobFile(args.job!))
    if (Either.isLeft(loaded)) return yield* Effect.fail(loaded.left)
    const job = { ...loaded.right, ...(args.networks.length > 0 ? { networks: args.networks } : {}) }
    const [{ selectDatasets }, { refetchSlices }] = yield* Effect.promise(() => Promise.all([import("../Runner.ts"), import("../verify/RefetchSlice.ts")]))
    const out = resolveOut(args.out)
    return yield* refetchSlices(out, job, selectDatasets(args.datasets, job), ids, Math.floor(Date.now() / 1000)).pipe(Effect.provide(stateLayer(out)))
  })
