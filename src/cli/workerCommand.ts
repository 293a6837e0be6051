/**
 * `chainetl worker`: serve the slices of distributed runs on one output folder (shared by every
 * worker and the enqueuer) until stopped (Ctrl-C, SIGTERM or a kill: a killed worker's slices go
 * to the others within the lease, README "Distributed slices"). Needs CHAINETL_STATE_URL and the
 * URLs of the services its slices call.
 */
import { Effect, Layer, Option } from "effect"
import { loadSourceSettings } from "../Config.ts"
import { ConfigError } from "../Errors.ts"
import { loadStateUrl, STATE_URL_ENV } from "../state/StateConfig.ts"
import { bucketNotDistributed, bucketOut } from "./bucketOutput.ts"
import { runLayers } from "./layers.ts"
import { checkOutWritable, createOut } from "./outPath.ts"
import { resolveOut } from "./output.ts"

export interface WorkerArgs {
  readonly out: string | undefined
  readonly concurrency: number
  readonly quiet: boolean
}

export const requireStateUrl = (what: string) =>
  Effect.flatMap(loadStateUrl, (url) =>
    Option.match(url, {
      onSome: Effect.succeed,
      onNone: () =>
        Effect.fail(
          new ConfigError({
            reason: "Missing",
            field: STATE_URL_ENV,
            detail: `${what} keeps its job queue, slice locks and checkpoints in PostgreSQL`,
            fix: `export ${STATE_URL_ENV}=postgres://user:password@host:5432/database, the same database for the enqueuer and every worker`
          })
        )
    })
  )

export const workerCommand = (args: WorkerArgs) =>
  Effect.scoped(
    Effect.gen(function* () {
      if (bucketOut(args.out) !== undefined) return yield* Effect.fail(bucketNotDistributed("--out"))
      const out = resolveOut(args.out)
      const outLabel = args.out === undefined && process.env["CHAINETL_OUT"] !== undefined ? "CHAINETL_OUT" : "--out"
      yield* checkOutWritable(out, outLabel)
      const url = yield* requireStateUrl("chainetl worker")
      const { loadDistributedSettings } = yield* Effect.promise(() => import("../distributed/Settings.ts"))
      const distributed = yield* loadDistributedSettings
      // which services a slice needs is known per job: a missing URL fails that slice, saying so
      const settings = yield* loadSourceSettings({ out }, { out: outLabel }, [])
      yield* createOut(out, outLabel)
      const [{ runWorker }, { distributedLayer }] = yield* Effect.promise(() => Promise.all([import("../distributed/Worker.ts"), import("../distributed/Layers.ts")]))
      yield* runWorker({ out, concurrency: args.concurrency, settings, distributed, quiet: args.quiet }).pipe(
        Effect.provide(Layer.merge(runLayers(out, settings), distributedLayer(out, url, distributed)))
      )
    })
  )
