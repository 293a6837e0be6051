/**
 * `--out s3://bucket/prefix` for the CLI: every command works on a local working copy of the
 * prefix (S3Settings.workDir), which this module opens, checks and fills before handing its path to
 * the command as if it were a folder output. Loaded by the commands only when their output is an
 * s3:// URL, and it loads the SDK only then (status on a folder never pays for it).
 *
 * An s3:// output keeps checkpoints and the writer lock in PostgreSQL (CHAINETL_STATE_URL): a
 * bucket has no lock and no atomic rename, so a lock file or checkpoint files in it could not make
 * two writers exclusive nor a checkpoint atomic.
 */
import { Effect, Either, type Layer, Option, type Scope } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { ConfigError, type SinkError } from "../Errors.ts"
import { acquireOutputLock } from "../sink/OutputLock.ts"
import { loadStateUrl, STATE_URL_ENV } from "../state/StateConfig.ts"
import type { OutputStore } from "../store/OutputStore.ts"
import { type BucketTarget, isBucketUrl, loadS3Settings, parseBucketUrl, type S3Settings, STAGING_DIR_ENV } from "../store/OutputTarget.ts"
import { checkOutWritable, createOut } from "./outPath.ts"
import { removeDeadWorkerCopies, workerCopyOf } from "./workerCopies.ts"

export interface OpenedBucket {
  readonly target: BucketTarget
  readonly settings: S3Settings
  /** The working copy every command reads and writes. */
  readonly dir: string
  /** The bucket as the output store; it also provides the sink's PartPublisher (src/sink/Publisher.ts), which the sink looks for. */
  readonly store: Layer.Layer<OutputStore>
  /** Creates (or reads) the output's id in the bucket and copies it into the working copy. */
  readonly ensureId: Effect.Effect<void, SinkError>
  readonly pull: Effect.Effect<void, SinkError>
}

/** The raw `--out` (or $CHAINETL_OUT) when it names a bucket, with the label errors should name. */
export const bucketOut = (flag: string | undefined): { readonly raw: string; readonly label: string } | undefined => {
  const raw = flag ?? process.env["CHAINETL_OUT"]
  if (raw === undefined || !isBucketUrl(raw)) return undefined
  return { raw, label: flag === undefined ? "CHAINETL_OUT" : "--out" }
}

const fromEither = <A, E>(e: Either.Either<A, E>) => (Either.isLeft(e) ? Effect.fail(e.left) : Effect.succeed(e.right))

export interface OpenOptions {
  /** Run, backfill and compact write: they need the state in PostgreSQL. */
  readonly needsState: boolean
  /**
   * Where the working copy is: the shared one (default; locked while in use, so two commands on
   * this machine never change it at once), a folder of the caller's (`catalog --mirror`, locked
   * the same way), a private temporary one removed at the end (`status`, which only reads), or
   * a worker's: its own folder beside the shared copy (so any number of workers share a machine),
   * not filled at start (a worker pulls each slice's files before crawling it, SlicePull.ts) and
   * removed when the worker stops.
   */
  readonly dir?:
    | { readonly kind: "shared" }
    | { readonly kind: "given"; readonly path: string; readonly label: string }
    | { readonly kind: "private" }
    | { readonly kind: "worker" }
}

/** Parses and checks everything about the bucket output, then locks and fills the working copy. */
export const openBucket = (
  out: { readonly raw: string; readonly label: string },
  options: OpenOptions
): Effect.Effect<OpenedBucket, ConfigError | SinkError, Scope.Scope> =>
  Effect.gen(function* () {
    const target = yield* fromEither(parseBucketUrl(out.raw, out.label))
    if (options.needsState && Option.isNone(yield* loadStateUrl)) {
      return yield* Effect.fail(
        new ConfigError({
          reason: "Missing",
          field: STATE_URL_ENV,
          detail: `an s3:// output (${target.url}) keeps its checkpoints and writer lock in PostgreSQL: a bucket has no lock and no atomic rename`,
          fix: `export ${STATE_URL_ENV}=postgres://user:password@host:5432/database`
        })
      )
    }
    const loaded = yield* loadS3Settings(target)
    const where = options.dir ?? { kind: "shared" }
    let dir = loaded.workDir
    let label = STAGING_DIR_ENV
    if (where.kind === "given") {
      dir = path.resolve(where.path)
      label = where.label
    } else if (where.kind === "worker") {
      const mine = workerCopyOf(loaded.workDir, process.pid)
      dir = yield* Effect.acquireRelease(
        // killed workers left their copies (ours too, if one had this pid): nothing in them is trusted
        Effect.promise(() => removeDeadWorkerCopies(loaded.workDir).then(() => fs.rm(mine, { recursive: true, force: true })).then(() => mine)),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
    } else if (where.kind === "private") {
      dir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "chainetl-s3-read-"))),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
    }
    const settings: S3Settings = { ...loaded, workDir: dir }
    yield* checkOutWritable(dir, label)
    const bucketModule = yield* Effect.promise(() => import("../store/BucketStore.ts"))
    const bucket = bucketModule.bucketOutputOf(target, settings)
    yield* bucketModule.checkBucket(bucket, out.label)
    yield* createOut(dir, label)
    // one command at a time changes a working copy on this machine (the PostgreSQL lock is the
    // output's; this one is the copy's, which pulls would otherwise change under a run)
    if (where.kind === "shared" || where.kind === "given") yield* acquireOutputLock(dir, `working-copy-${process.pid}`)
    const store = bucketModule.bucketStore(bucket)
    if (where.kind !== "worker") yield* store.pull
    return {
      target,
      settings,
      dir,
      store: bucketModule.bucketStoreLayer(bucket),
      ensureId: Effect.asVoid(bucketModule.ensureBucketOutputId(bucket)),
      pull: Effect.asVoid(store.pull)
    }
  })
