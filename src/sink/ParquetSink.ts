/**
 * Writes a dataset's rows as Hive-partitioned Parquet parts with deterministic names, so a rerun of
 * the same (slice, seq) replaces exactly the files it wrote before.
 *
 * Layout under `outDir`:
 * - `<dataset>/<k1>=<v1>/…/part-<slice>-<seq, 6 digits>.parquet`: committed parts (values encoded
 *   by HivePath; partition columns live in the path only);
 * - `_staging/`: parts being written (StagingAreas.ts, src/files/StagingDir.ts).
 *
 * A part's rows may come in one call (`writePart`) or page by page (`stage`, then `writePart`):
 * staged rows wait in the part's DuckDB table (PartWriter's OpenPart), so the caller holds none
 * of them in JavaScript; `discard` drops a part that will not be written.
 *
 * Crash recovery is the caller's: on start, `removePartsAfter(dataset, slice, lastCommittedSeq)`
 * deletes parts renamed into place after the last checkpoint (their rows will be written again),
 * and `clearStaging()` drops files a killed run left half-written.
 *
 * This module puts the sink together; each step has its own: the parts being filled
 * (StagedParts.ts, grouped by PartGroups.ts), their one COPY (PartWriter.ts), the durable commit
 * (Committer.ts), the bucket (Publisher.ts), deleting parts again (Recovery.ts), and the DuckDB
 * instance (SinkDuckDB.ts).
 */
import type { DuckDBInstance } from "@duckdb/node-api"
import { Context, Effect, Layer, Option } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import type { ConfigError, SinkError } from "../Errors.ts"
import { partFileName } from "../files/PartName.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"
import { commitFiles, takeBackFiles } from "./Committer.ts"
import { isInside, partitionDir } from "./HivePath.ts"
import { isFenceLost } from "./PartFence.ts"
import type { StageInput, WritePartInput, WrittenPart } from "./PartInput.ts"
import { makePartWriter } from "./PartWriter.ts"
import { makeSmallParts } from "./SmallParts.ts"
import { PartPublisher, type PartPublisherService, publishPart, unpublishLater } from "./Publisher.ts"
import { type Recovery, makeRecovery } from "./Recovery.ts"
import { openSinkDuckDB } from "./SinkDuckDB.ts"
import { asSinkError, badPartId, invalid } from "./SinkFailure.ts"
import { type StagedPart, makeStagedParts } from "./StagedParts.ts"
import { makeStagingAreas } from "./StagingAreas.ts"

export type { PartitionSpec, StageInput, WritePartInput, WrittenPart } from "./PartInput.ts"

export interface ParquetSinkService extends Recovery {
  readonly outDir: string
  /**
   * Appends rows to the (dataset, slice)'s next part, which is held in DuckDB, not in JavaScript,
   * until `writePart` writes it or `discard` drops it (the caller may let go of the rows). A stage
   * that fails drops the part's staged rows. Returns the bytes the part holds so far (OpenPart's
   * `append`), which bound a part as its rows do (`--part-mb`).
   */
  readonly stage: (input: StageInput) => Effect.Effect<number, SinkError>
  /** Drops the (dataset, slice)'s staged rows and frees their connection; nothing staged: nothing. */
  readonly discard: (dataset: string, slice: string) => Effect.Effect<void>
  /**
   * Writes the (dataset, slice)'s staged rows and then `rows` as one part: groups them by
   * partition and commits one file per group, all written by one bulk operation; `[]` for no rows.
   * A part that fails takes back the files of it already renamed into place; staged rows are
   * gone after a write, failed or not.
   */
  readonly writePart: (input: WritePartInput) => Effect.Effect<ReadonlyArray<WrittenPart>, SinkError>
  /**
   * Deletes committed parts again (best effort, never fails): a commit whose later step failed
   * (another table's part, the checkpoint) takes back what it renamed into place.
   */
  readonly takeBack: (parts: ReadonlyArray<WrittenPart>) => Effect.Effect<void>
  readonly clearStaging: () => Effect.Effect<void, SinkError>
  /** Closes the sink's DuckDB connections (the instance stays the caller's). */
  readonly close: () => void
}

/**
 * The sink over an open DuckDB instance; the instance's lifetime is the caller's. With a
 * publisher (an s3:// output), a part is also published before `writePart` returns.
 */
export const makeParquetSink = (outDirInput: string, db: DuckDBInstance, publisher?: PartPublisherService): ParquetSinkService => {
  const outDir = path.resolve(outDirInput)
  const stagingDir = path.join(outDir, STAGING_DIR)
  const writer = makePartWriter(db)
  const areas = makeStagingAreas(stagingDir)
  const small = makeSmallParts(writer, areas)
  const parts = makeStagedParts(outDir, writer, small)

  /** The part's last rows added, then its one bulk write (or its small files), committed and published. */
  const writeAll = async (input: WritePartInput, target: StagedPart): Promise<ReadonlyArray<WrittenPart>> => {
    let dests: string[]
    let staged: string | undefined
    try {
      const groupOf = input.rows.length === 0 ? undefined : parts.groupInto(target, input)
      dests = target.groups.partitions.map((partition) => {
        const dest = path.join(outDir, partitionDir(input.dataset, partition), partFileName(input.slice, input.seq))
        if (!isInside(outDir, dest) || !isInside(path.join(outDir, input.dataset), dest)) {
          throw invalid(dest, "partition path escapes the dataset folder")
        }
        return dest
      })
      if (groupOf !== undefined) {
        await parts.place(target, input.rows, groupOf).catch((e: unknown) => {
          throw asSinkError("Io", dests[0]!)(e)
        })
      }
      // the part's folder exists before its COPY (a reused one already does: one call, made
      // synchronously as files/Durable.ts makes its metadata calls)
      staged = areas.take()
      mkdirSync(staged, { recursive: true })
    } catch (e) {
      if (staged !== undefined) await areas.spoiled(staged)
      await parts.drop(target)
      throw e
    }
    const groups = target.groups
    let emptied = false
    const renamed: string[] = []
    try {
      // a small part's files are fsynced as they are written; DuckDB's by the commit
      const { files, sizes: synced } = await (target.part === undefined
        ? small.write(target.files, staged)
        : target.part.then(async (part) => ({ files: await part.write(groups.partitions.length, staged!), sizes: undefined }))
      ).catch((e: unknown) => {
        throw asSinkError("Io", dests[0]!)(e)
      })
      const sizes = await commitFiles(files, dests, input.fence, renamed, synced)
      if (publisher !== undefined) await publishPart(publisher, renamed, input.fence, renamed[0] ?? outDir)
      emptied = true
      return files.map((_, k) => ({ path: dests[k]!, rows: groups.counts[k]!, bytes: sizes[k]!, partition: groups.partitions[k]! }))
    } catch (e) {
      // the part fails whole (e.g. the disk filled up at its third partition): take back the
      // files of it already in place, so that no row past the checkpoint shows meanwhile
      // (a kill leaves them to the next run's recovery instead). Not a writer that lost its
      // right: a file of the same name may be its successor's by now (PartFence.ts)
      if (!isFenceLost(e)) {
        await takeBackFiles(renamed)
        if (publisher !== undefined) await Effect.runPromise(unpublishLater(publisher, renamed))
      }
      throw e
    } finally {
      if (emptied) areas.give(staged)
      else await areas.spoiled(staged)
    }
  }

  const writePart = (input: WritePartInput): Effect.Effect<ReadonlyArray<WrittenPart>, SinkError> =>
    Effect.suspend(() => {
      const bad = badPartId(input.dataset, input.slice, input.seq, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      if (input.seq < 0) return Effect.fail(invalid(outDir, `seq ${input.seq} must be a non-negative integer`))
      return Effect.tryPromise({
        try: async () => {
          const target = parts.take(input)
          return target === undefined ? [] : writeAll(input, target)
        },
        catch: asSinkError("Encode", path.join(outDir, input.dataset))
      })
    })

  const stage = (input: StageInput): Effect.Effect<number, SinkError> =>
    Effect.suspend(() => {
      const bad = badPartId(input.dataset, input.slice, 0, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      if (input.rows.length === 0) return Effect.succeed(parts.bytes(input.dataset, input.slice))
      return Effect.tryPromise({ try: () => parts.stage(input), catch: asSinkError("Io", path.join(outDir, input.dataset)) })
    })

  const takeBack = (written: ReadonlyArray<WrittenPart>): Effect.Effect<void> =>
    Effect.promise(() => takeBackFiles(written.map((p) => p.path))).pipe(
      Effect.zipRight(publisher === undefined ? Effect.void : unpublishLater(publisher, written.map((p) => p.path)))
    )

  const clearStaging = () =>
    Effect.tryPromise({
      try: async () => {
        areas.forget()
        await fs.rm(stagingDir, { recursive: true, force: true })
        await fs.mkdir(stagingDir, { recursive: true })
      },
      catch: asSinkError("Io", stagingDir)
    })

  const close = () => {
    parts.clear()
    writer.close()
    // only empty partition folders are left in them
    for (const dir of areas.forget()) rmSync(dir, { recursive: true, force: true })
  }

  return {
    outDir,
    stage,
    discard: (dataset, slice) => Effect.promise(() => parts.discard(dataset, slice)),
    writePart,
    takeBack,
    ...makeRecovery(outDir, publisher),
    clearStaging,
    close
  }
}

/**
 * Connections are closed before the instance (finalizers run in reverse order). A bucket's
 * publisher, when one is provided (src/store/BucketStore.ts), is told of every part.
 */
const openSink = (outDir: string, db: DuckDBInstance) =>
  Effect.flatMap(Effect.serviceOption(PartPublisher), (publisher) =>
    Effect.acquireRelease(
      Effect.sync(() => makeParquetSink(outDir, db, Option.getOrUndefined(publisher))),
      (sink) => Effect.sync(() => sink.close())
    )
  )

export class ParquetSink extends Context.Tag("chainetl/ParquetSink")<ParquetSink, ParquetSinkService>() {
  /** Writes under `outDir`; the DuckDB instance is closed when the layer's scope ends. */
  static layer = (outDir: string): Layer.Layer<ParquetSink, SinkError | ConfigError> =>
    Layer.scoped(ParquetSink, Effect.flatMap(openSinkDuckDB, (db) => openSink(outDir, db)))

  /** A real sink over a fresh temporary folder, removed with the layer's scope: read `outDir` from the service. */
  static layerTest: Layer.Layer<ParquetSink, SinkError | ConfigError> = Layer.scoped(
    ParquetSink,
    Effect.gen(function* () {
      const dir = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => fs.mkdtemp(path.join(os.tmpdir(), "chainetl-sink-")),
          catch: asSinkError("Io", os.tmpdir())
        }),
        (d) => Effect.promise(() => fs.rm(d, { recursive: true, force: true }))
      )
      const db = yield* openSinkDuckDB
      return yield* openSink(dir, db)
    })
  )
}
