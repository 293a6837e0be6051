/**
 * A worker's pull of one slice (src/store/SlicePull.ts), over an in-memory object store: a worker
 * taking over a slice another worker started sees that worker's parts, so recovery deletes the
 * objects past the checkpoint, whatever their names; other slices' files are not touched.
 */
import { Effect, Layer } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { ParquetSink, type WritePartInput } from "../../src/sink/ParquetSink.ts"
import { bucketOutputOf, bucketStoreLayer } from "../../src/store/BucketStore.ts"
import { memoryObjects } from "../../src/store/MemoryObjects.ts"
import { OutputStore } from "../../src/store/OutputStore.ts"
import { tempFolders } from "../support/fixtures.ts"

const schema = defineSchema([str("chain", "Chain name", { nullable: false }), int64("height", "Block height", { nullable: false })], "Small dataset for slice pull tests")

const input = (slice: string, seq: number, chains: ReadonlyArray<string>): WritePartInput => ({
  dataset: "blocks",
  slice,
  seq,
  schema,
  rows: chains.map((chain, i): Row => ({ chain, height: BigInt(seq * 10 + i), ...lineage("run-t", new Date(0)) })),
  partitionBy: [{ key: "chain", value: (row) => row["chain"] as string }]
})

const workerDir = tempFolders("slice-pull")

/** A worker's working copy of `objects` (the one bucket of a test): its own folder, the shared objects. */
const worker = async (objects: ReturnType<typeof memoryObjects>) => {
  const dir = await workerDir()
  const bucket = bucketOutputOf(
    { kind: "bucket", url: "s3://b/pre", bucket: "b", prefix: "pre" },
    { endpoint: undefined, region: "us-east-1", forcePathStyle: false, workDir: dir },
    objects.client
  )
  const store = bucketStoreLayer(bucket)
  const layer = Layer.merge(ParquetSink.layer(dir).pipe(Layer.provide(store)), store)
  const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink | OutputStore>) => Effect.runPromise(Effect.provide(effect, layer))
  return { dir, run }
}

const keys = (objects: ReturnType<typeof memoryObjects>) => [...objects.objects.keys()].sort()

describe("a worker's pull of one slice", () => {
  it("given parts 0..2 of a slice published by a worker now dead (its checkpoint at 0), when another worker pulls the slice and recovers past the checkpoint, then parts 1 and 2 leave the bucket, part 0 stays, and another slice's objects and files are untouched", async () => {
    const objects = memoryObjects()
    const dead = await worker(objects)
    await dead.run(
      Effect.gen(function* () {
        const sink = yield* ParquetSink
        yield* sink.writePart(input("s-1", 0, ["a"]))
        // part 1 spans a partition the rewrite may not reach: its object must go by recovery, not by an overwrite
        yield* sink.writePart(input("s-1", 1, ["a", "b"]))
        yield* sink.writePart(input("s-1", 2, ["c"]))
        yield* sink.writePart(input("s-10", 0, ["a"]))
      })
    )
    const successor = await worker(objects)
    // a file of another slice in the successor's copy (a slice it crawls at the same time): not the pull's business
    const other = path.join(successor.dir, "blocks", "chain=z", "part-s-2-000000.parquet")
    await fs.mkdir(path.dirname(other), { recursive: true })
    await fs.writeFile(other, "other slice")

    const pulled = await successor.run(Effect.flatMap(OutputStore, (store) => store.pullSlice(["blocks", "_rejects"], "s-1")))
    expect(pulled).toMatchObject({ transferred: 4, deleted: 0 })
    // only s-1's parts came: not those of s-10, whose name begins the same
    const local = (await fs.readdir(path.join(successor.dir, "blocks"), { recursive: true })).filter((f) => f.endsWith(".parquet")).sort()
    expect(local).toEqual(["chain=a/part-s-1-000000.parquet", "chain=a/part-s-1-000001.parquet", "chain=b/part-s-1-000001.parquet", "chain=c/part-s-1-000002.parquet", "chain=z/part-s-2-000000.parquet"])

    const removed = await successor.run(Effect.flatMap(ParquetSink, (sink) => sink.removePartsAfter("blocks", "s-1", 0)))
    expect(removed).toBe(3)
    expect(keys(objects)).toEqual(["pre/blocks/chain=a/part-s-1-000000.parquet", "pre/blocks/chain=a/part-s-10-000000.parquet"])
    expect(await fs.readFile(other, "utf8")).toBe("other slice")
  })

  it("given a slice file in a worker's copy that the bucket no longer has, when the slice is pulled, then the file is dropped (the bucket is the truth)", async () => {
    const w = await worker(memoryObjects())
    const stale = path.join(w.dir, "blocks", "chain=q", "part-s-9-000004.parquet")
    await fs.mkdir(path.dirname(stale), { recursive: true })
    await fs.writeFile(stale, "gone from the bucket")
    const pulled = await w.run(Effect.flatMap(OutputStore, (store) => store.pullSlice(["blocks"], "s-9")))
    expect(pulled).toMatchObject({ transferred: 0, deleted: 1 })
    expect(await fs.stat(stale).catch(() => undefined)).toBeUndefined()
  })

  it("given the bucket refuses to delete an object past the checkpoint, when recovery runs, then it fails naming the bucket (the slice does not go on with that object in place), and a later recovery deletes it", async () => {
    const objects = memoryObjects()
    const dead = await worker(objects)
    await dead.run(Effect.flatMap(ParquetSink, (sink) => Effect.zipRight(sink.writePart(input("s-3", 0, ["a"])), sink.writePart(input("s-3", 1, ["a"])))))
    const successor = await worker(objects)
    objects.failRemovals = /part-s-3-000001/
    const refused = await successor.run(
      Effect.either(Effect.zipRight(Effect.flatMap(OutputStore, (store) => store.pullSlice(["blocks"], "s-3")), Effect.flatMap(ParquetSink, (sink) => sink.removePartsAfter("blocks", "s-3", 0))))
    )
    objects.failRemovals = undefined
    expect(refused).toMatchObject({ _tag: "Left", left: { _tag: "SinkError", reason: "Io" } })
    expect(keys(objects).filter((k) => k.includes("part-s-3-"))).toEqual(["pre/blocks/chain=a/part-s-3-000000.parquet", "pre/blocks/chain=a/part-s-3-000001.parquet"])
    await successor.run(Effect.zipRight(Effect.flatMap(OutputStore, (store) => store.pullSlice(["blocks"], "s-3")), Effect.flatMap(ParquetSink, (sink) => sink.removePartsAfter("blocks", "s-3", 0))))
    expect(keys(objects).filter((k) => k.includes("part-s-3-"))).toEqual(["pre/blocks/chain=a/part-s-3-000000.parquet"])
  })
})
