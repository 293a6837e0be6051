/**
 * What a run compacts, for the nightly run and `chainetl compact`: each dataset's tables (its own
 * folder, its child tables', its folder of `_rejects`) and which of their parts compaction may
 * merge; src/compact/ merges only those. A part may be merged when no later step of the crawler
 * needs it as a file of its own. The crawler touches a slice's part files in three ways
 * (src/crawl/Crawler.ts):
 *  - recovery deletes parts past the checkpoint (`removePartsAfter(lastSeq)`; lastSeq never goes
 *    down), so a part at or below lastSeq is never deleted by it;
 *  - a replacing listing deletes the parts its new version supersedes (`removePartsBefore`), so a
 *    replacing slice is merged only once final (never run again), and never its superseded parts;
 *  - a listing that restarts from its first page reads back the keys in its slice's part files
 *    (CommittedKeys), unless it excludes committed keys by itself; so such a slice is merged only
 *    once final.
 * A part that satisfies none of these dangers can be merged with any other of its folder. Parts of
 * no known slice (no checkpoint) are never merged: recovery owns them.
 */
import { Effect, Runtime } from "effect"
import { datasets as registry } from "../pipelines/index.ts"
import { compactTables } from "./compact/Compaction.ts"
import type { CompactSettings, CompactTable, MayMerge, PartId } from "./compact/Compactor.ts"
import { type CheckpointState, CheckpointStore, isFinal } from "./crawl/Checkpoint.ts"
import type { AnyDataset } from "./crawl/Dataset.ts"
import { rejectsDataset } from "./transform/Rejects.ts"

export interface Owner {
  readonly rerun: "never" | "always" | "replace"
  /** The listing skips committed keys by itself (it never reads a slice's parts back). */
  readonly excludesCommitted: boolean
}

export const mergeable = (seq: number, checkpoint: CheckpointState | undefined, owner: Owner): boolean => {
  if (checkpoint === undefined || seq > checkpoint.lastSeq) return false
  if (checkpoint.keepFromSeq !== null && checkpoint.keepFromSeq !== undefined && seq < checkpoint.keepFromSeq) return false
  // final as the crawler judges it (the checkpoint keeps the slice's finalAfter): it never reopens the slice
  if (isFinal(checkpoint, { finalAfter: checkpoint.finalAfter ?? undefined }, owner.rerun)) return true
  // runs again, but only appends parts past lastSeq and never reads its parts back
  return owner.rerun === "always" && owner.excludesCommitted
}

/** The parts of a dataset that may merge, given its checkpoints by slice. */
export const mergeableParts =
  (checkpoints: ReadonlyMap<string, CheckpointState>, owner: Owner) =>
  (part: PartId): boolean =>
    mergeable(part.seq, checkpoints.get(part.slice), owner)

const ownerOf = (d: AnyDataset): Owner => ({ rerun: d.rerun ?? "never", excludesCommitted: d.listing.excludesCommitted === true })

/** The folders of these datasets: each dataset, its child tables, and its folder of `_rejects`. */
export const compactionTables = (datasets: ReadonlyArray<AnyDataset>): CompactTable[] => {
  const tables: CompactTable[] = []
  for (const d of datasets) {
    tables.push({ name: d.name, sortBy: d.sortBy ?? d.key, tieBreak: d.key, ownerOf: () => d.name })
    for (const c of d.children ?? []) tables.push({ name: c.name, sortBy: c.sortBy ?? d.sortBy ?? [], ownerOf: () => d.name })
  }
  const names = new Set(datasets.map((d) => d.name))
  tables.push({
    name: rejectsDataset.name,
    sortBy: ["slice", "page"].filter((c) => rejectsDataset.schema.fields.some((f) => f.name === c)),
    // `_rejects/dataset=<name>`: dataset names are plain snake_case, never percent-encoded
    ownerOf: (rel) => {
      const m = /^dataset=([a-z0-9_]+)$/.exec(rel)
      return m !== null && names.has(m[1]!) ? m[1]! : undefined
    }
  })
  return tables
}

/** Every registered dataset's tables (what `chainetl compact` without arguments takes). */
export const allTables = (): CompactTable[] => compactionTables(registry)

/**
 * What these datasets may merge, from their checkpoints: each dataset's read once. A dataset with a
 * broken checkpoint has nothing merged until it is mended (no checkpoint, no merge); one not among
 * them has nothing merged.
 */
export const mayMergeOf = (datasets: ReadonlyArray<AnyDataset>) =>
  Effect.gen(function* () {
    const store = yield* CheckpointStore
    const runtime = yield* Effect.runtime<never>()
    const owners = new Map(datasets.map((d) => [d.name, ownerOf(d)]))
    const cache = new Map<string, (part: PartId) => boolean>()
    const mayMerge: MayMerge = async (dataset) => {
      const hit = cache.get(dataset)
      if (hit !== undefined) return hit
      const owner = owners.get(dataset)
      const list = owner === undefined ? [] : await Runtime.runPromise(runtime)(store.list(dataset).pipe(Effect.catchIf((e) => e.reason === "Corrupt", () => Effect.succeed([]))))
      const made = owner === undefined ? () => false : mergeableParts(new Map(list.map((c) => [c.slice, c])), owner)
      cache.set(dataset, made)
      return made
    }
    return mayMerge
  })

/** Steps 1–3 of compaction (src/compact/Compaction.ts) over these datasets' tables. */
export const compactDatasets = (outDir: string, datasets: ReadonlyArray<AnyDataset>, settings: CompactSettings) =>
  Effect.flatMap(mayMergeOf(datasets), (mayMerge) => compactTables(outDir, compactionTables(datasets), settings, mayMerge))
