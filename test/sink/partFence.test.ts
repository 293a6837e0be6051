/**
 * A fenced part (src/sink/PartFence.ts): the sink renames and uploads only within the fence's
 * deadline, and once the right is lost it touches nothing more, not even its own take-back, since
 * a file of the same name may be the successor's by then. Without a fence, a failed part is taken
 * back as before.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Either } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { defineSchema, int64, lineage, str } from "../../schemas/common.ts"
import type { Row } from "../../schemas/common.ts"
import type { SinkError } from "../../src/Errors.ts"
import { type WritePartInput, makeParquetSink } from "../../src/sink/ParquetSink.ts"
import type { PartPublisherService } from "../../src/sink/Publisher.ts"
import { type PartFence, fenceLost, isFenceLost } from "../../src/sink/PartFence.ts"

const schema = defineSchema([str("chain", "Chain name", { nullable: false }), int64("height", "Block height", { nullable: false })], "Fence test rows")

/** Three partitions (chains a, b, c): three files, so three renames. */
const part = (fence?: PartFence): WritePartInput => ({
  dataset: "blocks",
  slice: "s-1",
  seq: 0,
  schema,
  rows: ["a", "b", "c"].map((chain, i): Row => ({ chain, height: BigInt(i), ...lineage("run-f", new Date(0)) })),
  partitionBy: [{ key: "chain", value: (row) => row["chain"] as string }],
  ...(fence === undefined ? {} : { fence })
})

/** Grants `grants` deadlines of `windowMs`, then says the right is lost; counts what it was asked. */
const fenceOf = (grants: number, windowMs = 60_000) => {
  const asked: number[] = []
  const fence: PartFence = {
    deadline: async (needMs) => {
      asked.push(needMs)
      if (asked.length > grants) throw fenceLost("/out (blocks/s-1)", "test")
      return performance.now() + windowMs
    }
  }
  return { fence, asked }
}

const files = async (root: string): Promise<string[]> =>
  (await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort()

describe("a fenced part", () => {
  let dir: string
  let db: DuckDBInstance
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "chainetl-fence-"))
    db = await DuckDBInstance.create(":memory:")
  })
  afterEach(async () => {
    db.closeSync()
    await fs.rm(dir, { recursive: true, force: true })
  })

  const write = (input: WritePartInput, publisher?: PartPublisherService) => {
    const sink = makeParquetSink(dir, db, publisher)
    return Effect.runPromise(Effect.either(sink.writePart(input))).finally(() => sink.close())
  }

  it("given a fence that holds, when the part is written, then every file is in place and the fence was asked before renaming", async () => {
    const { fence, asked } = fenceOf(Infinity)
    const written = await write(part(fence))
    expect(Either.isRight(written)).toBe(true)
    expect(await files(path.join(dir, "blocks"))).toEqual(["chain=a/part-s-1-000000.parquet", "chain=b/part-s-1-000000.parquet", "chain=c/part-s-1-000000.parquet"])
    // asked before each rename (a real fence answers from its last confirmation without a round trip)
    expect(asked).toEqual([1_000, 1_000, 1_000])
  })

  it("given a fence lost before the first rename, when the part is written, then it fails as lost and no file is in place", async () => {
    const { fence } = fenceOf(0)
    const written = await write(part(fence))
    expect(Either.isLeft(written) && isFenceLost(written.left)).toBe(true)
    expect(await files(path.join(dir, "blocks"))).toEqual([])
  })

  it("given a fence lost after the first rename, when the part is written, then the renamed file stays (it may be the successor's by now) and the rest are not renamed", async () => {
    const { fence, asked } = fenceOf(1)
    const written = await write(part(fence))
    expect(Either.isLeft(written) && isFenceLost(written.left)).toBe(true)
    expect(asked).toEqual([1_000, 1_000])
    expect(await files(path.join(dir, "blocks"))).toEqual(["chain=a/part-s-1-000000.parquet"])
  })

  it("given an unfenced part whose second file cannot be renamed, when it is written, then the first is taken back as before", async () => {
    // a folder where the second partition's file must go makes its rename fail
    await fs.mkdir(path.join(dir, "blocks", "chain=b", "part-s-1-000000.parquet", "x"), { recursive: true })
    const written = await write(part())
    expect(Either.isLeft(written) && !isFenceLost(written.left)).toBe(true)
    // chain=a's file was renamed, then taken back; chain=b's folder in the way holds no file
    expect(await files(path.join(dir, "blocks"))).toEqual([])
  })

  /** A publisher whose uploads take `ms` (forever when undefined), noting whether they were interrupted and what was unpublished. */
  const slowPublisher = (ms?: number) => {
    const seen = { interrupted: false, published: 0, unpublished: [] as string[] }
    const publisher: PartPublisherService = {
      publish: (files) =>
        (ms === undefined ? Effect.never : Effect.sleep(ms)).pipe(
          Effect.andThen(Effect.sync(() => void (seen.published += files.length))),
          Effect.onInterrupt(() => Effect.sync(() => void (seen.interrupted = true)))
        ),
      unpublish: (files) => Effect.sync(() => void seen.unpublished.push(...files))
    }
    return { publisher, seen }
  }

  it("given uploads longer than one confirmation's window while the fence keeps holding, when the part is published, then the right is confirmed again as they go and they finish", async () => {
    const { fence, asked } = fenceOf(Infinity, 300)
    const { publisher, seen } = slowPublisher(1_000)
    const written = await write(part(fence), publisher)
    expect(Either.isRight(written)).toBe(true)
    expect(seen).toEqual({ interrupted: false, published: 3, unpublished: [] })
    // three renames, the uploads' first deadline, then fresh confirmations (Infinity) while they went on
    expect(asked.slice(0, 4)).toEqual([1_000, 1_000, 1_000, 1_000])
    expect(asked.filter((n) => n === Infinity).length).toBeGreaterThanOrEqual(3)
  })

  it("given the right lost while uploads go on, when the part is published, then they are abandoned (interrupted), the part fails as lost and nothing is unpublished", async () => {
    const { fence } = fenceOf(6, 300)
    const { publisher, seen } = slowPublisher()
    const written = await write(part(fence), publisher)
    expect(Either.isLeft(written) && isFenceLost(written.left)).toBe(true)
    expect(seen).toEqual({ interrupted: true, published: 0, unpublished: [] })
    // the files renamed before stay: they were written within the fence
    expect(await files(path.join(dir, "blocks"))).toHaveLength(3)
  })

  it("given a confirmation that does not come back before the last deadline, when the part is published, then the uploads are abandoned at that deadline", async () => {
    const asked: number[] = []
    const fence: PartFence = {
      deadline: (needMs) => {
        asked.push(needMs)
        // the renames' and the uploads' first deadline, then a confirmation that never answers
        return asked.length <= 4 ? Promise.resolve(performance.now() + 300) : new Promise<number>(() => undefined)
      }
    }
    const { publisher, seen } = slowPublisher()
    const written = await write(part(fence), publisher)
    expect(Either.isLeft(written) && isFenceLost(written.left)).toBe(true)
    expect(Either.isLeft(written) && (written.left as SinkError).detail).toMatch(/its uploads outlasted the lock's last confirmation/)
    expect(seen).toEqual({ interrupted: true, published: 0, unpublished: [] })
  })
})
