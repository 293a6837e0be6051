/**
 * Where the sink tells a bucket about the files it committed and deleted: an s3:// output's
 * store (src/store/BucketStore.ts provides it); a folder output has none, its files already
 * being where they belong. A part is published before `writePart` returns, so the checkpoint its
 * caller saves next never points past data the bucket lacks.
 */
import { Context, Effect, Either } from "effect"
import type { SinkError } from "../Errors.ts"
import { type PartFence, underFence } from "./PartFence.ts"

export interface PartPublisherService {
  /** Makes committed files durable at their keys. Interruptible: an interrupted publish abandons its uploads. */
  readonly publish: (files: ReadonlyArray<string>) => Effect.Effect<void, SinkError>
  /** Deletes the keys of files deleted locally; fails when the store refuses. */
  readonly unpublish: (files: ReadonlyArray<string>) => Effect.Effect<void, SinkError>
}

/** Optional: the sink looks for it and publishes nothing without it. */
export class PartPublisher extends Context.Tag("chainetl/PartPublisher")<PartPublisher, PartPublisherService>() {}

/** Publishes a part's files, a fenced writer's uploads ending with its right (PartFence.ts); rejects with the SinkError. */
export const publishPart = async (publisher: PartPublisherService, files: ReadonlyArray<string>, fence: PartFence | undefined, where: string): Promise<void> => {
  const publish = publisher.publish(files)
  const published = await Effect.runPromise(Effect.either(fence === undefined ? publish : underFence(publish, fence, where)))
  if (Either.isLeft(published)) throw published.left
}

/** Deletes the keys of removed files, strictly: recovery must not go on past an object it could not delete. */
export const unpublishStrictly = async (publisher: PartPublisherService, files: ReadonlyArray<string>): Promise<void> => {
  const unpublished = await Effect.runPromise(Effect.either(publisher.unpublish(files)))
  if (Either.isLeft(unpublished)) throw unpublished.left
}

/**
 * A take-back's deletion in the bucket: its slice did not advance past the part, so the next crawl
 * of the slice pulls the object and its recovery deletes it; meanwhile it is only said.
 */
export const unpublishLater = (publisher: PartPublisherService, files: ReadonlyArray<string>): Effect.Effect<void> =>
  publisher
    .unpublish(files)
    .pipe(Effect.catchAll((e) => Effect.logWarning(`not deleted from the bucket yet (the slice's next recovery does): ${e.message}`)))
