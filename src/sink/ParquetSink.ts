/**
 * Writes a dataset's rows as Hive-partitioned Parquet parts with deterministic names, so a rerun of
 * the same (slice, seq) replaces exactly the files it wrote before.
 *
 * Layout under `outDir`:
 * - `<dataset>/<k1>=<v1>/…/part-<slice>-<seq, 6 digits>.parquet`: committed parts (values encoded
 *   by HivePath; partition columns live in the path only);
 * - `_staging/`: parts being written (StagingAreas.ts). Outside every table folder so no DuckDB
 *   glob reads a half file, and on the same filesystem so the final rename is atomic.
 *
 * A part's rows may come in one call (`writePart`) or page by page (`stage`, then `writePart`):
 * staged rows wait in the part's DuckDB table (PartWriter's OpenPart), so the caller holds none
 * of them in JavaScript; `discard` drops a part that will not be written.
 *
 * Crash recovery is the caller's: on start, `removePartsAfter(dataset, slice, lastCommittedSeq)`
 * deletes parts renamed into place after the last checkpoint (their rows will be written again),
 * and `clearStaging()` drops files a killed run left half-written.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import type * as arrow from "../ArrowTypes.ts"
import { Context, Effect, Either, Layer, Option } from "effect"
import { rmSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import type { Row } from "../../schemas/common.ts"
import { type ConfigError, SinkError } from "../Errors.ts"
import { OutputStore, type OutputStoreService } from "../store/OutputStore.ts"
import { fsyncFile, fsyncPath, renameInto } from "../files/Durable.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"
import { type PartFence, QUICK_WRITE_MS, isFenceLost, underFence } from "./PartFence.ts"
import { assertDatasetName, isInside, partitionDir } from "./HivePath.ts"
import { holdsPartOf, readManifest } from "../compact/Manifest.ts"
import { SEQ_DIGITS, partFileName } from "../files/PartName.ts"
import { type OpenPart, makePartWriter } from "./PartWriter.ts"
import { type CompiledRows, EncodeIssue, compileRows } from "./RowEncoder.ts"
import { makeStagingAreas } from "./StagingAreas.ts"
import { duckdbOptionsOf, sinkMemoryFromEnv } from "./SinkMemory.ts"

export interface PartitionSpec {
  /**
   * snake_case; becomes the Hive key. When the schema has a field of that name, the field is not
   * written into the file: the catalog reads it back from the path, cast to the field's type.
   */
  readonly key: string
  /**
   * The partition value of a row, e.g. its UTC day "2024-05-01" or its chain id "43114". For a key
   * that is also a field, it must be the text that casts back to the field's value (`String(bigint)`).
   */
  readonly value: (row: Row) => string
}

/** Rows of a (dataset, slice)'s next part, staged before the part is written. */
export interface StageInput {
  readonly dataset: string
  /** A safe id: [a-z0-9_-], at most 80 characters. */
  readonly slice: string
  readonly schema: arrow.Schema
  readonly rows: ReadonlyArray<Row>
  readonly partitionBy: ReadonlyArray<PartitionSpec>
}

export interface WritePartInput extends StageInput {
  /** Non-negative integer; a rewrite of the same (slice, seq) replaces the same files. */
  readonly seq: number
  /** The writer's right to write the slice, when it can lapse (a distributed worker's): src/sink/PartFence.ts. */
  readonly fence?: PartFence
}

export interface WrittenPart {
  /** Absolute path of the committed file. */
  readonly path: string
  readonly rows: number
  readonly bytes: number
  /** The partition's (key, original value) pairs, in `partitionBy` order. */
  readonly partition: ReadonlyArray<readonly [string, string]>
}

export interface ParquetSinkService {
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
  /** Deletes the slice's parts with seq > lastCommittedSeq (-1: all of them); returns how many. */
  readonly removePartsAfter: (
    dataset: string,
    slice: string,
    lastCommittedSeq: number
  ) => Effect.Effect<number, SinkError>
  /**
   * Deletes the slice's parts with seq < firstKeptSeq (parts superseded by a replacing listing).
   * Nothing lies below seq 0, so 0 returns without reading the folders.
   */
  readonly removePartsBefore: (dataset: string, slice: string, firstKeptSeq: number) => Effect.Effect<number, SinkError>
  readonly clearStaging: () => Effect.Effect<void, SinkError>
  /** Closes the sink's DuckDB connections (the instance stays the caller's). */
  readonly close: () => void
}

const SLICE_ID = /^[a-z0-9_-]{1,80}$/

export { partFileName }

const partFilePattern = (slice: string): RegExp =>
  new RegExp(`^part-${slice}-(\\d{${SEQ_DIGITS},})\\.parquet$`)

const invalid = (where: string, detail: string) => new SinkError({ reason: "Encode", path: where, detail })

const validateIds = (dataset: string, slice: string, seq: number, outDir: string): SinkError | undefined => {
  try {
    assertDatasetName(dataset)
  } catch (e) {
    return invalid(outDir, (e as Error).message)
  }
  if (!SLICE_ID.test(slice)) return invalid(outDir, `slice id "${slice}" must match ${SLICE_ID.source}`)
  if (!Number.isSafeInteger(seq) || seq < -1) return invalid(outDir, `seq ${seq} must be a non-negative integer`)
  return undefined
}

const asSinkError = (reason: "Io" | "Encode", where: string) => (e: unknown): SinkError =>
  e instanceof SinkError
    ? e
    : new SinkError({
        reason: e instanceof EncodeIssue ? "Encode" : reason,
        path: where,
        detail: e instanceof Error ? e.message : String(e)
      })

/**
 * A part's partition groups, kept as its rows come (page by page): group k is the k-th distinct
 * tuple of partition values met, so the groups of rows given in one go or over many calls agree.
 */
class PartGroups {
  readonly partitions: Array<ReadonlyArray<readonly [string, string]>> = []
  readonly counts: number[] = []
  private readonly ids = new Map<string, number>()
  private readonly values: string[]
  private previous = -1

  constructor(private readonly partitionBy: ReadonlyArray<PartitionSpec>) {
    this.values = new Array<string>(partitionBy.length)
  }

  /** The group of each of `rows`, adding groups for tuples not met before. */
  add(rows: ReadonlyArray<Row>): Int32Array {
    const { partitionBy, values, partitions, counts, ids } = this
    const groupOf = new Int32Array(rows.length)
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!
      let same = this.previous >= 0
      for (let k = 0; k < partitionBy.length; k++) {
        const v = partitionBy[k]!.value(row)
        if (typeof v !== "string") throw new EncodeIssue(partitionBy[k]!.key, `partition value is ${typeof v}, not a string`, r)
        same &&= values[k] === v
        values[k] = v
      }
      // rows come in listing order, so neighbours mostly share a partition: no key text to build
      if (same) {
        groupOf[r] = this.previous
        counts[this.previous]!++
        continue
      }
      // NUL cannot be part of a value that reaches a path (HivePath escapes it), but may be sent:
      // JSON keeps the tuple unambiguous whatever the values hold
      const id = values.length === 1 ? values[0]! : JSON.stringify(values)
      let group = ids.get(id)
      if (group === undefined) {
        group = partitions.length
        ids.set(id, group)
        partitions.push(partitionBy.map((spec, i) => [spec.key, values[i]!] as const))
        counts.push(0)
      }
      groupOf[r] = group
      counts[group]!++
      this.previous = group
    }
    return groupOf
  }
}

/** A (dataset, slice)'s part being filled: its rows are in DuckDB, its groups here. */
interface StagedPart {
  readonly compiled: CompiledRows
  readonly groups: PartGroups
  /** Opened on the first rows; every append goes through it in call order. */
  readonly part: Promise<OpenPart>
  rows: number
  /** What its appends handed to DuckDB so far (OpenPart's `append`). */
  bytes: number
}

/** What the sink tells the output store (a bucket) about committed and deleted files. */
export type SinkPublisher = Pick<OutputStoreService, "publish" | "unpublish">

/**
 * The sink over an open DuckDB instance; the instance's lifetime is the caller's. With a
 * publisher (an s3:// output), a part is also published before `writePart` returns, so the
 * checkpoint its caller saves next never points past data the bucket lacks.
 */
export const makeParquetSink = (outDirInput: string, db: DuckDBInstance, publisher?: SinkPublisher): ParquetSinkService => {
  const outDir = path.resolve(outDirInput)
  const stagingDir = path.join(outDir, STAGING_DIR)
  const compiled = new WeakMap<arrow.Schema, Map<string, CompiledRows>>()
  const writer = makePartWriter(db)
  const areas = makeStagingAreas(stagingDir)

  const compile = (schema: arrow.Schema, omit: ReadonlyArray<string>): CompiledRows => {
    const bySchema = compiled.get(schema) ?? new Map<string, CompiledRows>()
    compiled.set(schema, bySchema)
    const id = omit.join("/")
    const hit = bySchema.get(id)
    if (hit !== undefined) return hit
    const made = compileRows(schema, new Set(omit))
    bySchema.set(id, made)
    return made
  }

  const staged = new Map<string, StagedPart>()
  const stagedKey = (dataset: string, slice: string) => `${dataset}/${slice}`

  /** A part for `input`'s schema and partitions; its connection is being taken. */
  const openPart = (input: StageInput): StagedPart => {
    const compiled = compile(input.schema, input.partitionBy.map((p) => p.key))
    const part = writer.open(compiled)
    part.catch(() => undefined) // awaited by whoever appends, writes or drops
    return { compiled, groups: new PartGroups(input.partitionBy), part, rows: 0, bytes: 0 }
  }

  /** Counts `input`'s rows into the part's groups (synchronously, so calls keep their order). */
  const groupInto = (target: StagedPart, input: StageInput): Int32Array => {
    if (compile(input.schema, input.partitionBy.map((p) => p.key)) !== target.compiled) {
      throw invalid(path.join(outDir, input.dataset), "rows of another schema or partitioning than the rows staged before them")
    }
    const groupOf = target.groups.add(input.rows)
    target.rows += input.rows.length
    return groupOf
  }

  const dropPart = (target: StagedPart): Promise<void> => target.part.then((p) => p.discard(), () => undefined)

  /** One bulk write for the whole part, then each group's file fsynced and renamed to its final name. */
  const writeAll = async (input: WritePartInput, target: StagedPart): Promise<ReadonlyArray<WrittenPart>> => {
    let part: OpenPart
    let dests: string[]
    try {
      const groupOf = input.rows.length === 0 ? undefined : groupInto(target, input)
      dests = target.groups.partitions.map((partition) => {
        const dest = path.join(outDir, partitionDir(input.dataset, partition), partFileName(input.slice, input.seq))
        if (!isInside(outDir, dest) || !isInside(path.join(outDir, input.dataset), dest)) {
          throw invalid(dest, "partition path escapes the dataset folder")
        }
        return dest
      })
      part = await target.part
      if (groupOf !== undefined) {
        await part.append(input.rows, groupOf).catch((e: unknown) => {
          throw asSinkError("Io", dests[0]!)(e)
        })
      }
      await fs.mkdir(stagingDir, { recursive: true })
    } catch (e) {
      await dropPart(target)
      throw e
    }
    const groups = target.groups
    const staged = areas.take()
    let emptied = false
    const renamed: string[] = []
    const fence = input.fence
    try {
      const files = await part.write(groups.partitions.length, staged).catch((e: unknown) => {
        throw asSinkError("Io", dests[0]!)(e)
      })
      // bytes first, all at once (the disk queues them); then the names, one folder at a time
      const sizes = await Promise.all(
        files.map(async (f, k) => {
          try {
            return await fsyncFile(f)
          } catch (e) {
            throw asSinkError("Io", dests[k]!)(e)
          }
        })
      )
      for (let k = 0; k < files.length; k++) {
        // a fenced writer renames only within its right (PartFence.ts); the fence answers from its
        // last confirmation while enough of it is left
        if (fence !== undefined) await fence.deadline(QUICK_WRITE_MS)
        try {
          await renameInto(files[k]!, dests[k]!)
          renamed.push(dests[k]!)
        } catch (e) {
          throw asSinkError("Io", dests[k]!)(e)
        }
      }
      await Promise.all(
        [...new Set(renamed.map((d) => path.dirname(d)))].map((dir) =>
          fsyncPath(dir).catch((e: unknown) => {
            throw asSinkError("Io", dir)(e)
          })
        )
      )
      if (publisher !== undefined) {
        const publish = publisher.publish(renamed)
        // a fenced writer's uploads end with its right (PartFence.ts)
        const bounded = fence === undefined ? publish : underFence(publish, fence, renamed[0] ?? outDir)
        const published = await Effect.runPromise(Effect.either(bounded))
        if (Either.isLeft(published)) throw published.left
      }
      emptied = true
      return files.map((_, k) => ({ path: dests[k]!, rows: groups.counts[k]!, bytes: sizes[k]!, partition: groups.partitions[k]! }))
    } catch (e) {
      // the part fails whole (e.g. the disk filled up at its third partition): take back the
      // files of it already in place, so that no row past the checkpoint shows meanwhile
      // (a kill leaves them to the next run's recovery instead). Not a writer that lost its
      // right: a file of the same name may be its successor's by now (PartFence.ts)
      if (!isFenceLost(e)) {
        await takeBackFiles(renamed)
        if (publisher !== undefined) await Effect.runPromise(bestEffort(publisher.unpublish(renamed)))
      }
      throw e
    } finally {
      if (emptied) areas.give(staged)
      else await areas.spoiled(staged)
    }
  }

  const writePart = (input: WritePartInput): Effect.Effect<ReadonlyArray<WrittenPart>, SinkError> =>
    Effect.suspend(() => {
      const bad = validateIds(input.dataset, input.slice, input.seq, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      if (input.seq < 0) return Effect.fail(invalid(outDir, `seq ${input.seq} must be a non-negative integer`))
      const where = path.join(outDir, input.dataset)
      return Effect.tryPromise({
        try: async () => {
          const key = stagedKey(input.dataset, input.slice)
          const target = staged.get(key)
          staged.delete(key)
          if (target === undefined) return input.rows.length === 0 ? [] : writeAll(input, openPart(input))
          return writeAll(input, target)
        },
        catch: asSinkError("Encode", where)
      })
    })

  const stage = (input: StageInput): Effect.Effect<number, SinkError> =>
    Effect.suspend(() => {
      const bad = validateIds(input.dataset, input.slice, 0, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      const key = stagedKey(input.dataset, input.slice)
      if (input.rows.length === 0) return Effect.succeed(staged.get(key)?.bytes ?? 0)
      const where = path.join(outDir, input.dataset)
      return Effect.tryPromise({
        try: async () => {
          let target = staged.get(key)
          if (target === undefined) staged.set(key, (target = openPart(input)))
          try {
            const groupOf = groupInto(target, input)
            target.bytes = await (await target.part).append(input.rows, groupOf)
            return target.bytes
          } catch (e) {
            // a part missing some of its rows is never written
            if (staged.get(key) === target) staged.delete(key)
            await dropPart(target)
            throw e
          }
        },
        catch: asSinkError("Io", where)
      })
    })

  const discard = (dataset: string, slice: string): Effect.Effect<void> =>
    Effect.promise(() => {
      const key = stagedKey(dataset, slice)
      const target = staged.get(key)
      if (target === undefined) return Promise.resolve()
      staged.delete(key)
      return dropPart(target)
    })

  const takeBack = (parts: ReadonlyArray<WrittenPart>): Effect.Effect<void> =>
    Effect.promise(() => takeBackFiles(parts.map((p) => p.path))).pipe(
      Effect.zipRight(publisher === undefined ? Effect.void : bestEffort(publisher.unpublish(parts.map((p) => p.path))))
    )

  const removePartsWhere = (dataset: string, slice: string, seq: number, remove: (partSeq: number) => boolean) =>
    Effect.suspend(() => {
      const bad = validateIds(dataset, slice, seq, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      const root = path.join(outDir, dataset)
      const pattern = partFilePattern(slice)
      return Effect.tryPromise({
        try: async () => {
          // compaction merges only parts no recovery or replacement will remove (src/compact/Eligible.ts);
          // should one be merged all the same, deleting its part file would leave its rows in place
          const merged = holdsPartOf(await readManifest(outDir, dataset), slice, remove)
          if (merged !== undefined) {
            throw new SinkError({
              reason: "Io",
              path: path.join(root, merged),
              detail: `parts of slice ${slice} to be removed were merged into this compacted file; restore the slice's checkpoint or delete the dataset's compacted files and manifest`
            })
          }
          const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
            if (e.code === "ENOENT") return []
            throw e
          })
          const dirs = new Set<string>()
          const removed: string[] = []
          for (const entry of entries) {
            const m = entry.isFile() ? pattern.exec(entry.name) : null
            if (m === null || !remove(Number(m[1]))) continue
            await fs.unlink(path.join(entry.parentPath, entry.name))
            dirs.add(entry.parentPath)
            removed.push(path.join(entry.parentPath, entry.name))
          }
          for (const dir of dirs) await fsyncPath(dir)
          // strict: a slice must not go on (and finish) with an object past its checkpoint
          if (publisher !== undefined) {
            const unpublished = await Effect.runPromise(Effect.either(publisher.unpublish(removed)))
            if (Either.isLeft(unpublished)) throw unpublished.left
          }
          return removed.length
        },
        catch: asSinkError("Io", root)
      })
    })

  const clearStaging = () =>
    Effect.tryPromise({
      try: async () => {
        areas.forget()
        await fs.rm(stagingDir, { recursive: true, force: true })
        await fs.mkdir(stagingDir, { recursive: true })
      },
      catch: asSinkError("Io", stagingDir)
    })

  const removePartsAfter = (dataset: string, slice: string, lastCommittedSeq: number) =>
    removePartsWhere(dataset, slice, lastCommittedSeq, (partSeq) => partSeq > lastCommittedSeq)
  const removePartsBefore = (dataset: string, slice: string, firstKeptSeq: number) =>
    // seqs start at 0: a replacing listing's first part supersedes nothing, and walking the
    // dataset's folders to find so was most of the walks of a nightly run (a new snapshot slice
    // per dataset, chain and day)
    firstKeptSeq <= 0 && validateIds(dataset, slice, firstKeptSeq, outDir) === undefined
      ? Effect.succeed(0)
      : removePartsWhere(dataset, slice, firstKeptSeq, (partSeq) => partSeq < firstKeptSeq)

  const close = () => {
    staged.clear()
    writer.close()
    // only empty partition folders are left in them
    for (const dir of areas.forget()) rmSync(dir, { recursive: true, force: true })
  }

  return { outDir, stage, discard, writePart, takeBack, removePartsAfter, removePartsBefore, clearStaging, close }
}

/**
 * A take-back's deletion in the bucket: its slice did not advance past the part, so the next crawl
 * of the slice pulls the object and its recovery deletes it; meanwhile it is only said.
 */
const bestEffort = (unpublish: Effect.Effect<void, SinkError>): Effect.Effect<void> =>
  unpublish.pipe(Effect.catchAll((e) => Effect.logWarning(`not deleted from the bucket yet (the slice's next recovery does): ${e.message}`)))

/** Best effort: deletes committed files again and fsyncs their folders; never fails. */
const takeBackFiles = async (files: ReadonlyArray<string>): Promise<void> => {
  for (const f of files) await fs.rm(f, { force: true }).catch(() => undefined)
  for (const dir of new Set(files.map((f) => path.dirname(f)))) await fsyncPath(dir).catch(() => undefined)
}

const openDuckDB = Effect.acquireRelease(
  Effect.flatMap(sinkMemoryFromEnv, (memory) =>
    Effect.tryPromise({
      // one in-memory instance per sink: creating one costs ~20 ms, a connection ~0.5 ms. One
      // thread: the same COPYs cost about half the CPU on one thread as on two (measured on 200k
      // P-chain blocks: 2.1 vs 4.6 CPU-s), and slices already run concurrently around it. How it
      // gives memory back: CHAINETL_SINK_MEMORY (SinkMemory.ts)
      try: () => DuckDBInstance.create(":memory:", { threads: "1", ...duckdbOptionsOf(memory) }),
      catch: asSinkError("Io", ":memory:")
    })
  ),
  (db) => Effect.sync(() => db.closeSync())
)

/**
 * Connections are closed before the instance (finalizers run in reverse order). A bucket output
 * store, when one is provided, is told of every part (a folder's store needs nothing).
 */
const openSink = (outDir: string, db: DuckDBInstance) =>
  Effect.flatMap(Effect.serviceOption(OutputStore), (store) =>
    Effect.acquireRelease(
      Effect.sync(() => makeParquetSink(outDir, db, Option.isSome(store) && store.value.kind === "bucket" ? store.value : undefined)),
      (sink) => Effect.sync(() => sink.close())
    )
  )

export class ParquetSink extends Context.Tag("chainetl/ParquetSink")<ParquetSink, ParquetSinkService>() {
  /** Writes under `outDir`; the DuckDB instance is closed when the layer's scope ends. */
  static layer = (outDir: string): Layer.Layer<ParquetSink, SinkError | ConfigError> =>
    Layer.scoped(ParquetSink, Effect.flatMap(openDuckDB, (db) => openSink(outDir, db)))

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
      const db = yield* openDuckDB
      return yield* openSink(dir, db)
    })
  )
}
