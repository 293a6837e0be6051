/**
 * The removal before a refetch's crawl (src/verify/Clear.ts): parts, then checkpoints, each part
 * deleted at its key too (a bucket); when the store refuses a delete, nothing after it is done, so
 * the checkpoints still name the windows and the same command finishes the removal.
 */
import { Effect, Either, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { tempFolders } from "../support/fixtures.ts"
import { CheckpointStore, initialState } from "../../src/crawl/Checkpoint.ts"
import { SinkError } from "../../src/Errors.ts"
import { OutputStore } from "../../src/store/OutputStore.ts"
import { clearOutput } from "../../src/verify/Clear.ts"

const slice = (id: string) => ({ dataset: "primary_blocks", id, params: { network: "mainnet", id } })

/** An output with two slices' parts and checkpoints, and a store that records what it is asked to delete. */
const tempOut = tempFolders("clear")

const fixture = async (refuse: boolean) => {
  const out = await tempOut()
  const folder = path.join(out, "primary_blocks", "network=mainnet", "month=2024-12")
  await fs.mkdir(folder, { recursive: true })
  const parts = { a: path.join(folder, "part-a-000000.parquet"), b: path.join(folder, "part-b-000000.parquet") }
  for (const p of Object.values(parts)) await fs.writeFile(p, "PAR1")
  const unpublished: string[][] = []
  let pushes = 0
  const store = Layer.succeed(OutputStore, {
    ...Effect.runSync(Effect.provide(OutputStore, OutputStore.folder(out))),
    unpublish: (files: ReadonlyArray<string>) =>
      refuse && files.length > 0 ? Effect.fail(new SinkError({ reason: "Io", path: "s3://bucket/out", detail: "AccessDenied" })) : Effect.sync(() => void unpublished.push([...files])),
    push: Effect.sync(() => {
      pushes++
      return { transferred: 0, deleted: 0, bytes: 0 }
    })
  })
  const layer = Layer.merge(store, CheckpointStore.layer(out))
  await Effect.runPromise(Effect.provide(Effect.flatMap(CheckpointStore, (s) => Effect.all([s.save(initialState(slice("a"), "r1")), s.save(initialState(slice("b"), "r1"))])), layer))
  const listed = () => Effect.runPromise(Effect.provide(Effect.map(Effect.flatMap(CheckpointStore, (s) => s.list("primary_blocks")), (l) => l.map((c) => c.slice).sort()), layer))
  const exists = (p: string) => fs.stat(p).then(() => true, () => false)
  return { out, parts, unpublished, pushes: () => pushes, layer, listed, exists }
}

describe("clearOutput", () => {
  it("given two slices, when slice a is cleared, then its part goes (here and at its key), then its checkpoint; slice b keeps both, and no push is needed without compacted files", async () => {
    const f = await fixture(false)
    await Effect.runPromise(Effect.provide(clearOutput(f.out, { parts: [f.parts.a], compacted: [], checkpoints: [{ dataset: "primary_blocks", slice: "a" }] }), f.layer))
    expect([await f.exists(f.parts.a), await f.exists(f.parts.b)]).toEqual([false, true])
    expect(f.unpublished).toEqual([[f.parts.a]])
    expect(await f.listed()).toEqual(["b"])
    expect(f.pushes()).toBe(0)
  })

  it("given a bucket that refuses the delete, when slice a is cleared, then it fails naming the refusal and slice a's checkpoint stays, so verify still names the window and the same refetch finishes it", async () => {
    const f = await fixture(true)
    const result = await Effect.runPromise(Effect.either(Effect.provide(clearOutput(f.out, { parts: [f.parts.a], compacted: [], checkpoints: [{ dataset: "primary_blocks", slice: "a" }] }), f.layer)))
    expect(Either.isLeft(result) && result.left.message).toContain("AccessDenied")
    expect(await f.listed()).toEqual(["a", "b"])
  })
})
