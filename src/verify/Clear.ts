/**
 * The removal a `backfill --refetch` makes before it crawls again, in the order that keeps every
 * reader exact and every kill mendable by the same command:
 *  1. the parts (data first), deleted here and at their keys when the output is a bucket;
 *  2. the manifests without the compacted files being refetched, the catalog rebuilt from them,
 *     the files deleted; a bucket gets the manifests and catalog before those objects go
 *     (OutputStore.push: data, manifests, catalog, then deletes);
 *  3. the checkpoints, through the store wherever it keeps them (the folder or PostgreSQL).
 * A kill after 1 or 2 leaves checkpoints that name parts that are gone: verify finds those windows
 * again and the same command finishes the removal. Runs under the writer lock its caller holds.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { catalogEntries } from "../catalogEntries.ts"
import { readManifest, replacedParts, writeManifest } from "../compact/Manifest.ts"
import { CheckpointStore } from "../crawl/Checkpoint.ts"
import { SinkError } from "../Errors.ts"
import { buildCatalog } from "../sink/Catalog.ts"
import { OutputStore } from "../store/OutputStore.ts"

export interface Clearing {
  /** Absolute paths of the part files to delete. */
  readonly parts: ReadonlyArray<string>
  /** Compacted files to take out of their table's manifest and delete. */
  readonly compacted: ReadonlyArray<{ readonly table: string; readonly file: string }>
  readonly checkpoints: ReadonlyArray<{ readonly dataset: string; readonly slice: string }>
}

const io = (where: string) => (e: unknown) => new SinkError({ reason: "Io", path: where, detail: e instanceof Error ? e.message : String(e) })

export const clearOutput = (out: string, c: Clearing) =>
  Effect.gen(function* () {
    const store = yield* OutputStore
    // a dropped entry's replaced parts, if a killed compaction left them, would be read again without it
    const replaced = yield* Effect.tryPromise({
      try: async () => {
        const found: string[] = []
        for (const { table, file } of c.compacted) {
          const entry = (await readManifest(out, table)).files.find((f) => f.file === file)
          for (const rel of entry === undefined ? [] : replacedParts(entry)) {
            const abs = path.join(out, table, ...rel.split("/"))
            if (await fs.stat(abs).then(() => true, () => false)) found.push(abs)
          }
        }
        return found
      },
      catch: io(out)
    })
    const parts = [...new Set([...c.parts, ...replaced])]
    yield* Effect.tryPromise({ try: () => Promise.all(parts.map((p) => fs.rm(p, { force: true }))), catch: io(out) })
    yield* store.unpublish(parts)
    yield* Effect.logDebug(`refetch: ${parts.length} part(s) removed`)
    if (c.compacted.length > 0) {
      const tables = [...new Set(c.compacted.map((f) => f.table))]
      yield* Effect.tryPromise({
        try: async () => {
          for (const table of tables) {
            const drop = new Set(c.compacted.filter((f) => f.table === table).map((f) => f.file))
            const manifest = await readManifest(out, table)
            await writeManifest(out, { ...manifest, files: manifest.files.filter((f) => !drop.has(f.file)) })
          }
        },
        catch: io(out)
      })
      // the views name each live compacted file by its path: none may name a file about to go
      yield* buildCatalog(out, catalogEntries())
      const files = c.compacted.map((f) => path.join(out, f.table, ...f.file.split("/")))
      yield* Effect.tryPromise({ try: () => Promise.all(files.map((f) => fs.rm(f, { force: true }))), catch: io(out) })
      // a bucket: the manifests and the catalog up, then the objects no manifest lists any more
      yield* store.push
      yield* Effect.logDebug(`refetch: ${c.compacted.length} compacted file(s) removed`)
    }
    const checkpoints = yield* CheckpointStore
    for (const k of c.checkpoints) yield* checkpoints.remove(k.dataset, k.slice)
    yield* Effect.logDebug(`refetch: ${c.checkpoints.length} checkpoint(s) removed`)
  })
