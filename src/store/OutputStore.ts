/**
 * Where committed files end up. Every command works on a local folder (the output itself, or for
 * `--out s3://…` a working copy of the bucket prefix), so the pipeline, compaction and the catalog
 * keep one code path; this service is the only place the folder and the bucket differ:
 *
 *  - `publish`: after a file is durable in the local folder (fsynced, renamed), make it durable at
 *    its key. The folder's own files are already where they belong: nothing to do. The sink
 *    publishes each part before it returns, so the checkpoint that follows never points past
 *    data the bucket lacks (data first, checkpoint second).
 *  - `unpublish`: a file deleted locally (recovery, a take-back) is deleted at its key. It fails
 *    when the store refuses: recovery must not go on past an object it could not delete (the
 *    slice would finish with a part past its checkpoint in the bucket); a take-back ignores it
 *    (its slice did not advance, so its next crawl's recovery deletes the object).
 *  - `pull`: make the local copy equal to the store (under the writer lock, before reading it).
 *  - `pullSlice`: make one slice's files (and its tables' manifests) in the local copy equal to
 *    the store, for a worker about to crawl that slice (src/store/SlicePull.ts says why).
 *  - `push`: make the store equal to the local copy in an order that keeps every reader exact
 *    (data, then schemas and manifests, then run reports and the catalog, deletes last).
 *
 * The folder implementation does nothing at all, which is what keeps a folder output byte for byte
 * as it was. The bucket one is src/store/BucketStore.ts, loaded only for an s3:// output.
 */
import { Context, Effect, Layer } from "effect"
import type { SinkError } from "../Errors.ts"

export interface SyncStats {
  readonly transferred: number
  readonly deleted: number
  readonly bytes: number
}

export interface OutputStoreService {
  readonly kind: "folder" | "bucket"
  /** The folder, or `s3://bucket/prefix`: what messages name. */
  readonly location: string
  /** Interruptible: an interrupted publish abandons its uploads still under way. */
  readonly publish: (files: ReadonlyArray<string>) => Effect.Effect<void, SinkError>
  readonly unpublish: (files: ReadonlyArray<string>) => Effect.Effect<void, SinkError>
  readonly pull: Effect.Effect<SyncStats, SinkError>
  readonly pullSlice: (tables: ReadonlyArray<string>, slice: string) => Effect.Effect<SyncStats, SinkError>
  readonly push: Effect.Effect<SyncStats, SinkError>
}

const none: SyncStats = { transferred: 0, deleted: 0, bytes: 0 }

export class OutputStore extends Context.Tag("chainetl/OutputStore")<OutputStore, OutputStoreService>() {
  /** A local folder: its files are the output. */
  static folder = (dir: string): Layer.Layer<OutputStore> =>
    Layer.succeed(OutputStore, {
      kind: "folder",
      location: dir,
      publish: () => Effect.void,
      unpublish: () => Effect.void,
      pull: Effect.succeed(none),
      pullSlice: () => Effect.succeed(none),
      push: Effect.succeed(none)
    })
}

/**
 * What the bucket implementation needs of an object store: the few calls S3 has. An in-memory
 * one stands in for it in unit tests (test/store/), the SDK client in the CLI.
 */
export interface ObjectInfo {
  readonly key: string
  readonly size: number
  /** The server's ETag without quotes: the MD5 of the bytes for a single-part upload. */
  readonly etag: string | undefined
}

export interface ObjectStoreClient {
  readonly list: (prefix: string) => Promise<ReadonlyArray<ObjectInfo>>
  /** Writes the object's bytes to `file` (the caller fsyncs and renames). */
  readonly download: (key: string, file: string) => Promise<void>
  /**
   * Uploads the file's bytes; returns once the server acknowledged them. An aborted `signal`
   * abandons the request (a fenced writer's deadline, src/sink/PartFence.ts).
   */
  readonly upload: (file: string, key: string, signal?: AbortSignal) => Promise<void>
  readonly remove: (keys: ReadonlyArray<string>) => Promise<void>
  /** Creates the object only when it does not exist (servers without conditional writes overwrite). */
  readonly createIfAbsent: (key: string, body: string) => Promise<void>
  readonly read: (key: string) => Promise<string | undefined>
  /** Fails with the server's answer when the bucket cannot be reached or used. */
  readonly check: () => Promise<void>
}
