/**
 * Deleting a slice's committed parts again, by seq: recovery deletes those past the slice's last
 * checkpoint (renamed into place by a run killed before its checkpoint: their rows are written
 * again), a replacing listing those its new version supersedes. A bucket is told strictly: a
 * slice must not go on (and finish) with an object past its checkpoint.
 *
 * Compaction merges only parts no recovery or replacement will remove (src/CompactionPolicy.ts).
 * Should one be merged all the same, deleting its part file would leave its rows in place in the
 * compacted file, so the compaction manifest is read first and such a removal refused.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { holdsPartOf, readManifest } from "../compact/Manifest.ts"
import { fsyncPath } from "../files/Durable.ts"
import { SEQ_DIGITS } from "../files/PartName.ts"
import { type PartPublisherService, unpublishStrictly } from "./Publisher.ts"
import { asSinkError, badPartId } from "./SinkFailure.ts"

export interface Recovery {
  /** Deletes the slice's parts with seq > lastCommittedSeq (-1: all of them); returns how many. */
  readonly removePartsAfter: (dataset: string, slice: string, lastCommittedSeq: number) => Effect.Effect<number, SinkError>
  /**
   * Deletes the slice's parts with seq < firstKeptSeq (parts superseded by a replacing listing).
   * Nothing lies below seq 0, so 0 returns without reading the folders.
   */
  readonly removePartsBefore: (dataset: string, slice: string, firstKeptSeq: number) => Effect.Effect<number, SinkError>
}

const partFilePattern = (slice: string): RegExp => new RegExp(`^part-${slice}-(\\d{${SEQ_DIGITS},})\\.parquet$`)

export const makeRecovery = (outDir: string, publisher: PartPublisherService | undefined): Recovery => {
  const removePartsWhere = (dataset: string, slice: string, seq: number, remove: (partSeq: number) => boolean) =>
    Effect.suspend(() => {
      const bad = badPartId(dataset, slice, seq, outDir)
      if (bad !== undefined) return Effect.fail(bad)
      const root = path.join(outDir, dataset)
      const pattern = partFilePattern(slice)
      return Effect.tryPromise({
        try: async () => {
          const merged = holdsPartOf(await readManifest(outDir, dataset), slice, remove)
          if (merged !== undefined) {
            throw new SinkError({
              reason: "Io",
              path: path.join(root, merged),
              detail: `parts of slice ${slice} to be removed were merged into this compacted file; restore the slice's checkpoint or delete the dataset's compacted files and manifest`
            })
          }
          const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
            if (e.code === "ENOENT") return []
            throw e
          })
          const dirs = new Set<string>()
          const removed: string[] = []
          for (const entry of entries) {
            const m = entry.isFile() ? pattern.exec(entry.name) : null
            if (m === null || !remove(Number(m[1]))) continue
            await fs.unlink(path.join(entry.parentPath, entry.name))
            dirs.add(entry.parentPath)
            removed.push(path.join(entry.parentPath, entry.name))
          }
          for (const dir of dirs) await fsyncPath(dir)
          if (publisher !== undefined) await unpublishStrictly(publisher, removed)
          return removed.length
        },
        catch: asSinkError("Io", root)
      })
    })

  return {
    removePartsAfter: (dataset, slice, lastCommittedSeq) => removePartsWhere(dataset, slice, lastCommittedSeq, (partSeq) => partSeq > lastCommittedSeq),
    removePartsBefore: (dataset, slice, firstKeptSeq) =>
      // seqs start at 0: a replacing listing's first part supersedes nothing, and walking the
      // dataset's folders to find so was most of the walks of a nightly run (a new snapshot slice
      // per dataset, chain and day)
      firstKeptSeq <= 0 && badPartId(dataset, slice, firstKeptSeq, outDir) === undefined
        ? Effect.succeed(0)
        : removePartsWhere(dataset, slice, firstKeptSeq, (partSeq) => partSeq < firstKeptSeq)
  }
}
