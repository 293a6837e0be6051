/**
 * The folder a command that removes files works in, with the store that publishes what it does and
 * the output's state (checkpoints, writer lock): the output folder itself, or for an s3:// output
 * the shared working copy (its state in PostgreSQL, the bucket's id checked before anything in it
 * changes).
 */
import { Effect, Layer } from "effect"
import { stateLayer } from "../state/StateLayer.ts"
import { OutputStore } from "../store/OutputStore.ts"
import { bucketOut, openBucket } from "./bucketOutput.ts"
import { resolveOut } from "./output.ts"

export const inOutputFolder = <A, E, R>(flag: string | undefined, use: (dir: string) => Effect.Effect<A, E, R>) => {
  const within = (dir: string, store: Layer.Layer<OutputStore>) =>
    Effect.provide(use(dir), Layer.merge(stateLayer(dir), store))
  const bucket = bucketOut(flag)
  if (bucket === undefined) {
    const out = resolveOut(flag)
    return within(out, OutputStore.folder(out))
  }
  return Effect.scoped(
    Effect.gen(function* () {
      const opened = yield* openBucket(bucket, { needsState: true })
      yield* opened.ensureId
      return yield* within(opened.dir, opened.store)
    })
  )
}
