/**
 * A worker's pull of one slice: before it crawls a slice of an s3:// output, the files of that
 * slice in its working copy are made equal to the bucket's objects, together with the manifests
 * of the slice's tables. A worker keeps no copy of the whole output (the enqueuer's is the one that
 * compacts and builds the catalog), and the slice is all it reads: recovery walks the slice's parts
 * past its checkpoint (and deletes their objects, since they are now local files), committed-key
 * reads scan the slice's parts, and both consult the table's manifest. Without this, a worker
 * taking over a slice another worker started would see none of that worker's parts: recovery
 * would leave its parts past the checkpoint in the bucket, and a restarted listing would write
 * its committed keys again.
 *
 * Only this slice's files change (local files of it the bucket lacks are removed: the bucket is
 * the truth), so the other slices this worker crawls at the same time are not disturbed; the
 * slice lock held by the caller keeps every other writer of this slice away.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { MANIFEST_DIR } from "../compact/Manifest.ts"
import { SEQ_DIGITS } from "../files/PartName.ts"
import type { ObjectInfo, SyncStats } from "./OutputStore.ts"
import { type LocalFile, mirror, type SyncTarget } from "./Sync.ts"

const slicePart = (slice: string): RegExp => new RegExp(`^part-${slice.replace(/[^a-z0-9_-]/g, "")}-\\d{${SEQ_DIGITS},}\\.parquet$`)

const localParts = async (dir: string, table: string, isPart: (name: string) => boolean): Promise<LocalFile[]> => {
  const root = path.join(dir, table)
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  const out: LocalFile[] = []
  for (const e of entries) {
    if (!e.isFile() || !isPart(e.name)) continue
    const file = path.join(e.parentPath, e.name)
    const st = await fs.stat(file).catch(() => undefined)
    if (st !== undefined) out.push({ rel: path.relative(dir, file).split(path.sep).join("/"), file, size: st.size })
  }
  return out
}

const localFile = async (dir: string, rel: string): Promise<LocalFile | undefined> => {
  const file = path.join(dir, ...rel.split("/"))
  const st = await fs.stat(file).catch(() => undefined)
  return st === undefined ? undefined : { rel, file, size: st.size }
}

/** Makes `slice`'s parts in `tables`, and those tables' manifests, equal to the bucket's. */
export const pullSlice = async (t: SyncTarget, tables: ReadonlyArray<string>, slice: string): Promise<SyncStats> => {
  const isPart = (name: string) => slicePart(slice).test(name)
  const manifestDir = MANIFEST_DIR.split(path.sep).join("/")
  const remote = new Map<string, ObjectInfo>()
  const manifests = new Set(tables.map((table) => `${manifestDir}/${table}.json`))
  for (const o of await t.client.list(`${t.listPrefix}${manifestDir}/`)) {
    const rel = o.key.slice(t.listPrefix.length)
    if (manifests.has(rel)) remote.set(rel, o)
  }
  const local = new Map<string, LocalFile>()
  for (const table of tables) {
    for (const o of await t.client.list(`${t.listPrefix}${table}/`)) {
      const rel = o.key.slice(t.listPrefix.length)
      if (isPart(path.posix.basename(rel))) remote.set(rel, o)
    }
    for (const l of await localParts(t.dir, table, isPart)) local.set(l.rel, l)
  }
  for (const rel of manifests) {
    const l = await localFile(t.dir, rel)
    if (l !== undefined) local.set(rel, l)
  }
  return mirror(t, remote, local)
}
