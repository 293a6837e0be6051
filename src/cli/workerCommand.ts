/**
 * `chainetl worker`: serve the slices of distributed runs on one output (a folder shared by every
 * worker and the enqueuer, or an s3:// prefix) until stopped (Ctrl-C, SIGTERM or a kill: a killed
 * worker's slices go to the others within the lease, docs/scale-out.md#distributed-slices). Needs
 * CHAINETL_STATE_URL and the URLs of the services its slices call.
 */
import { Effect, Layer, Option } from "effect"
import { loadSourceSettings } from "../Config.ts"
import { sinkMemoryFromEnv } from "../sink/SinkMemory.ts"
import { ConfigError } from "../Errors.ts"
import { loadStateUrl, STATE_URL_ENV } from "../state/StateConfig.ts"
import type { OutputStore } from "../store/OutputStore.ts"
import { bucketOut, openBucket } from "./bucketOutput.ts"
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

/**
 * `--out s3://…`: the worker opens a working copy of its own (no lock shared with other processes
 * on the machine, nothing pulled at start: each slice's files are pulled before it is crawled, and
 * every part is published before its checkpoint), then serves the queue as on a folder.
 */
export const workerCommand = (args: WorkerArgs) => {
  const bucket = bucketOut(args.out)
  if (bucket === undefined) return workerOnFolder(args, undefined)
  return Effect.scoped(
    Effect.gen(function* () {
      yield* requireStateUrl("chainetl worker")
      const opened = yield* openBucket(bucket, { needsState: true, dir: { kind: "worker" } })
      // the queue is named by the output's id: the bucket's, as the enqueuer's copy has it
      yield* opened.ensureId
      return yield* workerOnFolder({ ...args, out: opened.dir }, opened.store, opened.target.url)
    })
  )
}

const workerOnFolder = (args: WorkerArgs, store: Layer.Layer<OutputStore> | undefined, location?: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const out = resolveOut(args.out)
      const outLabel = args.out === undefined && process.env["CHAINETL_OUT"] !== undefined ? "CHAINETL_OUT" : "--out"
      yield* checkOutWritable(out, outLabel)
      const url = yield* requireStateUrl("chainetl worker")
      const { loadDistributedSettings } = yield* Effect.promise(() => import("../distributed/Settings.ts"))
      const distributed = yield* loadDistributedSettings
      // which services a slice needs is known per job: a missing URL fails that slice, saying so
      const settings = yield* loadSourceSettings({ out }, { out: outLabel }, [])
      yield* sinkMemoryFromEnv
      yield* createOut(out, outLabel)
      const [{ runWorker }, { distributedLayer }] = yield* Effect.promise(() => Promise.all([import("../distributed/Worker.ts"), import("../distributed/Layers.ts")]))
      // the keys' rows keep the budgets jobs wrote: this worker's defaults only fill missing ones
      yield* runWorker({ out, concurrency: args.concurrency, settings, distributed, quiet: args.quiet, ...(location === undefined ? {} : { location }) }).pipe(
        Effect.provide(Layer.merge(runLayers(out, settings, store, { keyBudgets: "keep" }), distributedLayer(out, url, distributed)))
      )
    })
  )
