/**
 * The output store of an s3:// output: a local working copy (S3Settings.workDir) kept equal to the
 * bucket prefix. Parts are published one by one as the sink commits them (before their
 * checkpoint); everything else (compacted files, manifests, schemas, run reports, the catalog) by
 * `push` at the end of a command, in reader-safe order (Sync.ts).
 */
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { ConfigError, SinkError } from "../Errors.ts"
import { replaceFile } from "../files/Durable.ts"
import { PartPublisher } from "../sink/Publisher.ts"
import { OUTPUT_ID_FILE } from "../state/OutputId.ts"
import { type ObjectStoreClient, OutputStore, type OutputStoreService } from "./OutputStore.ts"
import { type BucketTarget, keyOf, type S3Settings, S3_ENDPOINT_ENV } from "./OutputTarget.ts"
import { describeS3Error, makeS3Client, s3Objects } from "./S3Objects.ts"
import { pullSlice } from "./SlicePull.ts"
import { OUTPUT_ID_REL, pool, pull, push, type SyncTarget } from "./Sync.ts"

export interface BucketOutput {
  readonly target: BucketTarget
  readonly settings: S3Settings
  readonly client: ObjectStoreClient
  readonly sync: SyncTarget
}

const ioError = (where: string, e: unknown) =>
  e instanceof SinkError ? e : new SinkError({ reason: "Io", path: where, detail: describeS3Error(e) })

export const bucketOutputOf = (target: BucketTarget, settings: S3Settings, client?: ObjectStoreClient): BucketOutput => {
  const objects = client ?? s3Objects(makeS3Client(settings), target.bucket)
  return {
    target,
    settings,
    client: objects,
    sync: {
      client: objects,
      dir: settings.workDir,
      keyOf: (rel) => keyOf(target, rel),
      listPrefix: target.prefix === "" ? "" : `${target.prefix}/`
    }
  }
}

/**
 * Whether the bucket can be used with these settings and credentials: a missing bucket, refused
 * credentials or an unreachable endpoint is a configuration mistake (exit 2), found before anything
 * is written. Names the variables, never a credential.
 */
export const checkBucket = (b: BucketOutput, label: string): Effect.Effect<void, ConfigError> =>
  Effect.tryPromise({
    try: () => b.client.check(),
    catch: (e) => {
      const said = describeS3Error(e)
      const where = `${b.target.url}${b.settings.endpoint === undefined ? "" : ` at ${b.settings.endpoint}`} (region ${b.settings.region})`
      const credentials = /credential|Forbidden|403|AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/i.test(said)
      const missing = /NotFound|404|NoSuchBucket/i.test(said)
      return new ConfigError({
        reason: "Invalid",
        field: credentials ? "AWS credentials" : missing ? label : S3_ENDPOINT_ENV,
        detail: `cannot use ${where}: ${said}`,
        fix: credentials
          ? "give the SDK credentials that may read and write the bucket (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a role)"
          : missing
            ? "create the bucket, or pass the name of an existing one"
            : `check ${S3_ENDPOINT_ENV}, AWS_REGION and CHAINETL_S3_FORCE_PATH_STYLE`
      })
    }
  })

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const writeLocalId = (dir: string, id: string) => replaceFile(path.join(dir, OUTPUT_ID_FILE), `${id}\n`)

/**
 * The output's id (src/state/OutputId.ts) is an object of the bucket: created once with a
 * conditional write, so two first runs on two machines agree on one id (and so on one PostgreSQL
 * lock), then copied into the working copy where the state layer reads it. A server without
 * conditional writes (s3rver) lets the later of two simultaneous first runs win; each reads the
 * id back after writing, but the earlier may have read its own
 * (docs/scale-out.md#output-in-a-bucket, limits).
 */
export const ensureBucketOutputId = (b: BucketOutput): Effect.Effect<string, SinkError> => {
  const key = keyOf(b.target, OUTPUT_ID_REL)
  const where = `${b.target.url}/${OUTPUT_ID_REL}`
  return Effect.tryPromise({
    try: async () => {
      let text = await b.client.read(key)
      if (text === undefined) {
        await b.client.createIfAbsent(key, `${randomUUID()}\n`)
        text = await b.client.read(key)
      }
      const id = (text ?? "").trim()
      if (!ID.test(id)) {
        throw new SinkError({ reason: "Io", path: where, detail: "not an output id (chainetl writes one UUID there). It keys this output's state in PostgreSQL: restore it, or delete the prefix's objects to start over" })
      }
      await writeLocalId(b.settings.workDir, id)
      return id
    },
    catch: (e) => ioError(where, e)
  })
}

const relOf = (b: BucketOutput, file: string): string => path.relative(b.settings.workDir, file).split(path.sep).join("/")

export const bucketStore = (b: BucketOutput): OutputStoreService => ({
  kind: "bucket",
  location: b.target.url,
  publish: (files) =>
    Effect.tryPromise({
      try: (signal) => pool(files, 4, (f) => b.client.upload(f, keyOf(b.target, relOf(b, f)), signal)),
      catch: (e) => ioError(`${b.target.url}/${files.length === 1 ? relOf(b, files[0]!) : ""}`, e)
    }),
  unpublish: (files) =>
    files.length === 0
      ? Effect.void
      : Effect.tryPromise({
          try: () => b.client.remove(files.map((f) => keyOf(b.target, relOf(b, f)))),
          catch: (e) => ioError(b.target.url, e)
        }),
  pull: Effect.tryPromise({ try: () => pull(b.sync), catch: (e) => ioError(b.target.url, e) }).pipe(
    Effect.tap((s) => Effect.logDebug(`bucket: pulled ${s.transferred} objects (${s.bytes} bytes), dropped ${s.deleted} local files`))
  ),
  pullSlice: (tables, slice) =>
    Effect.tryPromise({ try: () => pullSlice(b.sync, tables, slice), catch: (e) => ioError(b.target.url, e) }).pipe(
      Effect.tap((s) => Effect.logDebug(`bucket: slice ${slice}: pulled ${s.transferred} objects (${s.bytes} bytes), dropped ${s.deleted} local files`))
    ),
  push: Effect.tryPromise({ try: () => push(b.sync, b.target.url), catch: (e) => ioError(b.target.url, e) }).pipe(
    Effect.tap((s) => Effect.logDebug(`bucket: pushed ${s.transferred} files (${s.bytes} bytes), deleted ${s.deleted} objects`))
  )
})

/** The bucket as the output store and as the sink's publisher (src/sink/Publisher.ts). */
export const bucketStoreLayer = (b: BucketOutput): Layer.Layer<OutputStore | PartPublisher> => {
  const store = bucketStore(b)
  return Layer.merge(Layer.succeed(OutputStore, store), Layer.succeed(PartPublisher, store))
}
