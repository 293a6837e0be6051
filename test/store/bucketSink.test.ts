/**
 * The sink of an s3:// output: a part is in the bucket before `writePart` returns (so the
 * checkpoint its caller saves next never points past the bucket), a refused upload fails the part
 * whole, and parts removed by recovery leave the bucket too. Over an in-memory object store.
 */
import { Effect, Either, Layer } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import { ParquetSink, type WritePartInput } from "../../src/sink/ParquetSink.ts"
import { bucketOutputOf, bucketStoreLayer } from "../../src/store/BucketStore.ts"
import { memoryObjects } from "../../src/store/MemoryObjects.ts"
import { tempFolders } from "../support/fixtures.ts"

const schema = defineSchema([str("chain", "Chain name", { nullable: false }), int64("height", "Block height", { nullable: false })], "Small dataset for bucket sink tests")

const input = (seq: number, chains: ReadonlyArray<string>): WritePartInput => ({
  dataset: "blocks",
  slice: "s-1",
  seq,
  schema,
  rows: chains.map((chain, i): Row => ({ chain, height: BigInt(i), ...lineage("run-t", new Date(0)) })),
  partitionBy: [{ key: "chain", value: (row) => row["chain"] as string }]
})

const sinkDir = tempFolders("bucket-sink")

const setup = async () => {
  const dir = await sinkDir()
  const store = memoryObjects()
  const bucket = bucketOutputOf(
    { kind: "bucket", url: "s3://b/pre", bucket: "b", prefix: "pre" },
    { endpoint: undefined, region: "us-east-1", forcePathStyle: false, workDir: dir },
    store.client
  )
  const layer = ParquetSink.layer(dir).pipe(Layer.provide(bucketStoreLayer(bucket)))
  const run = <A, E>(effect: Effect.Effect<A, E, ParquetSink>) => Effect.runPromise(Effect.provide(effect, layer))
  return { dir, store, run }
}

describe("the sink of a bucket output", () => {
  it("given a part spanning two partitions, when writePart returns, then both files are objects at their relative paths with the same bytes; when recovery removes the part, then the objects go too", async () => {
    const { dir, store, run } = await setup()
    const written = await run(Effect.flatMap(ParquetSink, (sink) => sink.writePart(input(0, ["a", "b", "a"]))))
    const rels = written.map((w) => path.relative(dir, w.path)).sort()
    expect(rels).toEqual(["blocks/chain=a/part-s-1-000000.parquet", "blocks/chain=b/part-s-1-000000.parquet"])
    for (const rel of rels) expect(store.objects.get(`pre/${rel}`)).toEqual(await fs.readFile(path.join(dir, rel)))

    const removed = await run(Effect.flatMap(ParquetSink, (sink) => sink.removePartsAfter("blocks", "s-1", -1)))
    expect(removed).toBe(2)
    expect([...store.objects.keys()]).toEqual([])
  })

  it("given the bucket refuses an upload, when a part is written, then writePart fails naming the bucket, and neither the working copy nor the bucket keeps any file of the part", async () => {
    const { dir, store, run } = await setup()
    store.failUploads = /chain=b\//
    const result = await run(Effect.either(Effect.flatMap(ParquetSink, (sink) => sink.writePart(input(0, ["a", "b"])))))
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) expect(result.left).toMatchObject({ _tag: "SinkError", reason: "Io" })
    if (Either.isLeft(result)) expect(result.left.message).toContain("s3://b/pre")
    const left = (await fs.readdir(path.join(dir, "blocks"), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile())
    expect(left).toEqual([])
    expect([...store.objects.keys()]).toEqual([])
  })
})
