/**
 * A listing's typed cursor (src/crawl/Cursor.ts): kept as text in the checkpoint, decoded when the
 * checkpoint is read, handed to the listing's fetch as a value. A checkpoint whose cursor does not
 * decode is a broken checkpoint: the slice fails before any request, the error names the file and
 * the fix, the file stays as it was, and its refetch marker holds until the file is deleted.
 */
import { describe, expect, it } from "@effect/vitest"
import * as arrow from "apache-arrow"
import { Effect, Either, Exit, Layer, Schema } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { checkpointsRoot, CheckpointStore } from "../../src/crawl/Checkpoint.ts"
import { replaceFile } from "../../src/files/Durable.ts"
import { crawlSlice } from "../../src/crawl/Crawler.ts"
import { cursorListing, cursorProblem, DecimalText, jsonCursor, tokenCursor } from "../../src/crawl/Cursor.ts"
import type { DatasetDef } from "../../src/crawl/Dataset.ts"
import { keyedListing } from "../../src/crawl/KeyedListing.ts"
import { restListing } from "../../src/crawl/RestListing.ts"
import { makeSlice } from "../../src/crawl/Slice.ts"
import { KillSwitch, layers, newDisk, rowsOf } from "./fakes.ts"
import { tempFolders } from "../support/fixtures.ts"

/** A walk over heights [0, end) in windows of 3, the way pipelines/_shared/heightWalk.ts pages. */
const Walk = Schema.Struct({ next: DecimalText, end: DecimalText, islands: Schema.Array(Schema.Tuple(DecimalText, DecimalText)) })
const codec = jsonCursor(Walk)

const walk = (end: bigint, asked: Array<typeof Walk.Type | undefined>) =>
  cursorListing({
    cursor: codec,
    fetch: (_slice, at: typeof Walk.Type | undefined) =>
      Effect.sync(() => {
        asked.push(at)
        const from = BigInt(at?.next ?? "0")
        const stop = from + 3n < end ? from + 3n : end
        const records = Array.from({ length: Number(stop - from) }, (_, i) => ({ height: String(from + BigInt(i)) }))
        return { records, next: stop < end ? { next: String(stop), end: String(end), islands: at?.islands ?? [] } : undefined }
      })
  })

const dataset = (listing: ReturnType<typeof walk>): DatasetDef<never> => ({
  name: "blocks",
  description: "test",
  schema: new arrow.Schema([]),
  partitionBy: [],
  key: ["height"],
  slices: () => [],
  listing,
  toRow: (raw) => ({ height: BigInt((raw as { height: string }).height) })
})

const slice = makeSlice("blocks", { network: "mainnet" })
const options = { runId: "run-1", asOf: 1_000_000, ingestedAt: new Date(0), partRows: 3 }

describe("a cursor codec", () => {
  it("given a walk's cursor, when encoded, then its fields are written in the schema's order and decode to the same value", () => {
    const text = codec.encode({ islands: [["5", "9"]], end: "20", next: "3" })
    expect(text).toBe('{"next":"3","end":"20","islands":[["5","9"]]}')
    expect(codec.decode(text)).toEqual(Either.right({ next: "3", end: "20", islands: [["5", "9"]] }))
  })

  it("given texts that are not the walk's cursor, when decoded, then the problem names the field and what is wrong", () => {
    expect(cursorProblem(codec)('{"next":"1.5","end":"20","islands":[]}')).toBe("next: expected an integer as decimal text")
    expect(cursorProblem(codec)('{"next":"1","islands":[]}')).toBe("end: is missing")
    expect(cursorProblem(codec)("abc")).toContain("is not valid JSON")
    expect(cursorProblem(codec)('{"next":"1","end":"2","islands":[]}')).toBeUndefined()
  })
})

describe("a listing with a typed cursor", () => {
  const cursorDir = tempFolders("cursor")
  it.effect("given a walk of 8 heights killed after its first part, when resumed, then the listing is handed the checkpoint's cursor as a value and every height lands once", () =>
    Effect.gen(function* () {
      const disk = newDisk()
      // the fake store counts saves, the sink part renames: 1 running, 2 part 0, 3 its checkpoint, 4 part 1
      const killed = yield* Effect.exit(crawlSlice(dataset(walk(8n, [])), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(4)))))
      expect(Exit.isFailure(killed)).toBe(true)
      expect(disk.checkpoints.get(`blocks/${slice.id}`)?.cursor).toBe('{"next":"3","end":"8","islands":[]}')
      const asked: Array<typeof Walk.Type | undefined> = []
      const resumed = yield* crawlSlice(dataset(walk(8n, asked)), slice, options).pipe(Effect.provide(layers(disk, new KillSwitch(undefined))))
      expect(resumed).toMatchObject({ status: "done", rows: 5 })
      expect(asked).toEqual([
        { next: "3", end: "8", islands: [] },
        { next: "6", end: "8", islands: [] }
      ])
      expect(rowsOf(disk, "blocks", "height").map((r) => r["height"])).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n])
    })
  )

  it.effect("given a checkpoint file whose cursor does not decode, when the slice is crawled, then it fails before any request, naming the file and the fix, and leaves the file and a refetch marker", () =>
    Effect.gen(function* () {
      const out = yield* Effect.promise(() => cursorDir())
      const file = path.join(checkpointsRoot(out), "blocks", `${slice.id}.json`)
      const broken = JSON.stringify({
        dataset: "blocks",
        slice: slice.id,
        params: slice.params,
        cursor: '{"next":"3","end":"eight","islands":[]}',
        cursorIssuedAt: null,
        pagesCommitted: 1,
        rowsCommitted: 3,
        rejectsCommitted: 0,
        lastSeq: 0,
        keepFromSeq: null,
        status: "running",
        completedAsOf: null,
        restarts: 0,
        runId: "run-0",
        updatedAt: "2026-12-01T00:00:00.000Z",
        error: null
      })
      yield* Effect.promise(() => replaceFile(file, broken))
      const asked: Array<typeof Walk.Type | undefined> = []
      const result = yield* crawlSlice(dataset(walk(8n, asked)), slice, options).pipe(
        Effect.provide(Layer.merge(layers(newDisk(), new KillSwitch(undefined)), CheckpointStore.layer(out)))
      )
      expect(result.status).toBe("failed")
      expect(result.error).toBe(
        `checkpoint ${file} is broken ("cursor" is "{\\"next\\":\\"3\\",\\"end\\":\\"eight\\",\\"islands\\":[]}", which its listing cannot read: end: expected an integer as decimal text). Fix: delete it to refetch that slice (the next run removes the slice's parts and fetches it again)`
      )
      expect(asked).toEqual([])
      expect(yield* Effect.promise(() => fs.readFile(file, "utf8"))).toBe(broken)
      // the marker stays while the cursor is unreadable to its listing, which a check without the codec would not see
      const store = yield* Effect.provide(CheckpointStore, CheckpointStore.layer(out))
      expect(yield* store.marked("blocks", cursorProblem(codec))).toEqual([{ slice: slice.id, checkpoint: "broken" }])
      expect(yield* store.marked("blocks")).toEqual([{ slice: slice.id, checkpoint: "readable" }])
      yield* Effect.promise(() => fs.rm(file))
      expect(yield* store.marked("blocks", cursorProblem(codec))).toEqual([{ slice: slice.id, checkpoint: "absent" }])
    })
  )
})

describe("a page token", () => {
  it("given a REST listing's or a keyed listing's cursor, when checked, then any token reads as itself and only the empty one, which no listing hands out, is refused", () => {
    expect(tokenCursor.decode("eyJvZmZzZXQiOjEwMH0=")).toEqual(Either.right("eyJvZmZzZXQiOjEwMH0="))
    expect(cursorProblem(restListing({ service: "data", path: () => "/v1/x", items: "xs" }).cursor)("")).toBe("an empty page token")
    expect(cursorProblem(keyedListing({ nextKeys: () => Effect.succeed([]), fetch: () => Effect.succeed([]), batch: 1, concurrency: 1 }).cursor)("0x12")).toBeUndefined()
  })
})
