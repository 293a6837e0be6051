/**
 * What a distributed run hands a worker: one slice, with everything the crawler needs that a
 * local run would have passed in memory (the run's id, as-of and ingestion instant, part size, the
 * grain the dataset is written at). Plain JSON: it travels through the queue's table.
 */
import { createHash } from "node:crypto"
import type { Grain } from "../transform/Grain.ts"
import type { KeyBudgetOf } from "../source/KeyBuckets.ts"
import type { Slice } from "../crawl/Slice.ts"

export interface SliceJob {
  /** The output folder's id (state/OutputId.ts): a worker serves only jobs of the folder it was given. */
  readonly outputId: string
  readonly runId: string
  readonly dataset: string
  readonly grain: Grain | undefined
  readonly slice: Slice
  readonly asOf: number
  readonly ingestedAt: string
  readonly partRows: number
  /** Absent from jobs enqueued before parts were bounded by bytes: the worker's default then. */
  readonly partBytes?: number
  /**
   * The budgets the run's job gives its API keys (`apiKeys`), by the keys' digests, never their
   * secrets: a worker reads no job file, so it writes these into the keys' shared rows before it
   * crawls the slice. Absent from jobs enqueued before budgets travelled, and when the job gives none.
   */
  readonly keyBudgets?: ReadonlyArray<KeyBudgetOf>
}

/**
 * The job's key: the same for the same slice of the same output whatever run enqueues it, so
 * enqueueing again (a rerun after the enqueuer died) never queues a slice twice. A UUID, as the
 * engine's ids are, cut from a SHA-256 of the three names.
 */
export const jobId = (outputId: string, dataset: string, sliceId: string): string => {
  const h = createHash("sha256").update(JSON.stringify(["chainetl slice", outputId, dataset, sliceId])).digest("hex")
  // version 5-like and RFC 4122 variant bits, so the value is a well-formed UUID
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** One queue per output folder: workers started on a folder take only its slices. */
export const queueName = (outputId: string): string => `chainetl-slices-${outputId}`
