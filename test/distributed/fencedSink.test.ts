/**
 * The sink a worker crawls through (src/distributed/FencedSink.ts): parts carry the slice's fence,
 * recovery's deletions need the right first, and a take-back is skipped once the right is lost.
 */
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { fencedSink } from "../../src/distributed/FencedSink.ts"
import type { ParquetSinkService, WritePartInput, WrittenPart } from "../../src/sink/ParquetSink.ts"
import { type PartFence, fenceLost, isFenceLost } from "../../src/sink/PartFence.ts"

const recording = () => {
  const calls: string[] = []
  const sink: ParquetSinkService = {
    outDir: "/out",
    stage: (input) => Effect.sync(() => (calls.push(`stage ${input.rows.length}`), 0)),
    discard: () => Effect.sync(() => void calls.push("discard")),
    writePart: (input) => Effect.sync(() => (calls.push(`write ${input.seq} fenced=${input.fence !== undefined}`), [])),
    takeBack: (parts) => Effect.sync(() => void calls.push(`takeBack ${parts.length}`)),
    removePartsAfter: (_d, _s, seq) => Effect.sync(() => (calls.push(`removeAfter ${seq}`), 0)),
    removePartsBefore: (_d, _s, seq) => Effect.sync(() => (calls.push(`removeBefore ${seq}`), 0)),
    clearStaging: () => Effect.void,
    close: () => undefined
  }
  return { sink, calls }
}

const holding: PartFence = { deadline: async () => performance.now() + 60_000 }
const lost: PartFence = { deadline: async () => Promise.reject(fenceLost("/out (d/s)", "test")) }
const input = { dataset: "d", slice: "s", seq: 4 } as unknown as WritePartInput
const parts = [{ path: "/out/d/part-s-000004.parquet" }] as unknown as ReadonlyArray<WrittenPart>

describe("a worker's fenced sink", () => {
  it("given the right held, when it writes, recovers and takes back, then every call goes through, the part carrying the fence", async () => {
    const { sink, calls } = recording()
    const fenced = fencedSink(sink, holding)
    await Effect.runPromise(Effect.all([fenced.writePart(input), fenced.removePartsAfter("d", "s", 2), fenced.removePartsBefore("d", "s", 1), fenced.takeBack(parts)]))
    expect(calls).toEqual(["write 4 fenced=true", "removeAfter 2", "removeBefore 1", "takeBack 1"])
  })

  it("given the right lost, when it recovers or takes back, then recovery fails as lost and the take-back deletes nothing", async () => {
    const { sink, calls } = recording()
    const fenced = fencedSink(sink, lost)
    const recovered = await Effect.runPromise(Effect.either(fenced.removePartsAfter("d", "s", 2)))
    await Effect.runPromise(fenced.takeBack(parts))
    expect(Either.isLeft(recovered) && isFenceLost(recovered.left)).toBe(true)
    expect(calls).toEqual([])
  })
})
