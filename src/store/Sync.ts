/**
 * Keeping a local working copy and a bucket prefix equal, in the order that keeps readers exact.
 *
 * The bucket is the output; the working copy is a cache the commands read and write through the
 * same code as a folder output. Under the writer lock, `pull` makes the copy equal to the bucket
 * (whatever the copy held: a crash may have left files there that never reached the bucket).
 *
 * Push order: a manifest lists compacted files, so they go first; a catalog names files, so it
 * goes after the manifests it was built from; what compaction replaced is deleted last, and
 * nothing else is deleted by a push (see deadFiles). A kill
 * anywhere in between leaves the bucket readable as before or as after, as in a folder
 * (docs/compaction.md): an unlisted compacted file or a replaced part is read by no view.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { MANIFEST_DIR, readManifest, replacedParts } from "../compact/Manifest.ts"
import { COMPACTED_PATTERN } from "../files/PartName.ts"
import { replaceFile } from "../files/Durable.ts"
import type { ObjectInfo, ObjectStoreClient, SyncStats } from "./OutputStore.ts"

/** The catalog for engines that read the bucket: written beside the local catalog, uploaded as `catalog.sql`. */
export const BUCKET_CATALOG_FILE = "catalog.s3.sql"
export const BUCKET_CATALOG_KEY = "catalog.sql"
export const OUTPUT_ID_REL = "_state/output-id"

const TEMP = /\.tmp-\d+|\.pull-\d+/

/** Files that are this machine's alone: staging, the local catalog and report, the lock, temporaries. */
export const localOnly = (rel: string): boolean =>
  rel.startsWith("_staging/") ||
  rel.startsWith("catalog.") ||
  rel.startsWith("report.html") ||
  rel.startsWith("_state/writer.lock") ||
  rel.startsWith("_state/checkpoints/") ||
  TEMP.test(path.posix.basename(rel))

/** What chainetl writes to a bucket: data files, its `_state` files, run reports. Nothing else is touched. */
export const managed = (rel: string): boolean =>
  !localOnly(rel) && (rel.endsWith(".parquet") || rel.startsWith("_state/") || rel.startsWith("_runs/"))

/** Upload rank: data, then the id and schemas, then manifests, then run reports. */
const rank = (rel: string): number =>
  rel.startsWith("_state/manifests/") ? 2 : rel.startsWith("_runs/") ? 3 : rel.startsWith("_state/") ? 1 : 0

export interface LocalFile {
  readonly rel: string
  readonly file: string
  readonly size: number
}

export const listLocal = async (dir: string): Promise<LocalFile[]> => {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  const files: LocalFile[] = []
  for (const e of entries) {
    if (!e.isFile()) continue
    const file = path.join(e.parentPath, e.name)
    const rel = path.relative(dir, file).split(path.sep).join("/")
    if (!managed(rel)) continue
    const st = await fs.stat(file).catch(() => undefined)
    if (st !== undefined) files.push({ rel, file, size: st.size })
  }
  return files
}

const md5Of = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash("md5")
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")))
  })

/**
 * Same bytes? A data file is never rewritten under its name with other bytes but by a rerun of its
 * slice, which publishes it itself: its size says enough. State files are rewritten in place, so
 * their MD5 is compared with the ETag (an ETag that is no MD5, as with SSE-KMS, only costs a transfer).
 */
export const same = async (local: LocalFile, remote: ObjectInfo): Promise<boolean> => {
  if (local.size !== remote.size) return false
  if (local.rel.endsWith(".parquet")) return true
  return remote.etag !== undefined && (await md5Of(local.file)) === remote.etag
}

/**
 * Runs `work` over `items`, `limit` at a time. On the first failure it starts nothing more, but it
 * rejects only once the work already in flight has settled: a caller that cleans up after a
 * failed upload (unpublish) must not race an upload that lands after its delete.
 */
export const pool = async <A>(items: ReadonlyArray<A>, limit: number, work: (a: A) => Promise<void>): Promise<void> => {
  let next = 0
  let failure: { readonly error: unknown } | undefined
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      try {
        await work(items[next++]!)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure !== undefined) throw failure.error
}

export interface SyncTarget {
  readonly client: ObjectStoreClient
  /** Local working copy. */
  readonly dir: string
  /** Object key of a relative path. */
  readonly keyOf: (rel: string) => string
  /** The prefix listed: `<prefix>/`, or "" for a bucket root. */
  readonly listPrefix: string
}

const remoteFiles = async (t: SyncTarget): Promise<Map<string, ObjectInfo>> => {
  const objects = await t.client.list(t.listPrefix)
  const byRel = new Map<string, ObjectInfo>()
  for (const o of objects) {
    const rel = o.key.slice(t.listPrefix.length)
    if (managed(rel)) byRel.set(rel, o)
  }
  return byRel
}

/**
 * Downloads `key` to `file` through replaceFile, so a reader never sees half a file; its folder is
 * not fsynced: the working copy is the bucket's, pulled again whatever a power cut took.
 */
export const downloadTo = (t: SyncTarget, key: string, file: string): Promise<void> =>
  replaceFile(file, (tmp) => t.client.download(key, tmp), { syncFolder: false })

/** Makes the working copy equal to the bucket: downloads what differs, deletes what the bucket lacks. */
export const pull = async (t: SyncTarget): Promise<SyncStats> =>
  mirror(t, await remoteFiles(t), new Map((await listLocal(t.dir)).map((f) => [f.rel, f])))

/** Makes these local files equal to these objects (by relative path): the part of a pull after listing. */
export const mirror = async (t: SyncTarget, remote: ReadonlyMap<string, ObjectInfo>, local: ReadonlyMap<string, LocalFile>): Promise<SyncStats> => {
  const wanted: Array<readonly [string, ObjectInfo]> = []
  for (const [rel, o] of remote) {
    const l = local.get(rel)
    if (l === undefined || !(await same(l, o))) wanted.push([rel, o])
  }
  let bytes = 0
  await pool(wanted, 8, async ([rel, o]) => {
    await downloadTo(t, o.key, path.join(t.dir, ...rel.split("/")))
    bytes += o.size
  })
  const gone = [...local.values()].filter((l) => !remote.has(l.rel))
  for (const l of gone) await fs.rm(l.file, { force: true })
  return { transferred: wanted.length, deleted: gone.length, bytes }
}

/**
 * The catalog for engines reading the bucket: the local catalog's statements with the working
 * copy's paths replaced by the bucket's URLs (the views name each live compacted file and each
 * replaced part by its path, so those follow too).
 */
export const bucketCatalogSql = (localSql: string, dir: string, url: string): string => {
  const header = [
    `-- chainetl catalog of ${url}: the views read the bucket's objects (s3:// URLs).`,
    "-- DuckDB: INSTALL httpfs; LOAD httpfs; CREATE SECRET (TYPE s3, PROVIDER credential_chain); then .read this file.",
    "-- Spark, Trino, Athena: chainetl catalog --out <s3 url> --ddl spark|trino|athena.",
    ""
  ].join("\n")
  const body = localSql.split("\n").filter((l) => !l.startsWith("-- ")).join("\n")
  return `${header}${body.split(`${dir}/`).join(`${url}/`)}`
}

/** Writes the bucket's catalog beside the local one (when there is one); returns its path. */
export const writeBucketCatalog = async (dir: string, url: string): Promise<string | undefined> => {
  const local = await fs.readFile(path.join(dir, "catalog.sql"), "utf8").catch(() => undefined)
  if (local === undefined) return undefined
  const file = path.join(dir, BUCKET_CATALOG_FILE)
  await replaceFile(file, bucketCatalogSql(local, dir, url))
  return file
}

/**
 * Which objects a push may delete: only files the working copy's manifests make dead (a part a
 * compacted file replaces, a compacted file no manifest lists any more). Everything else a
 * command deletes (parts past a checkpoint, a part taken back) it deletes from the bucket itself
 * when it deletes the file; so an object missing from the copy for any other reason (put there
 * after the pull, by hand or by another process) is never deleted by a push.
 */
const deadFiles = async (dir: string): Promise<(rel: string) => boolean> => {
  const replaced = new Set<string>()
  const listed = new Set<string>()
  const names = await fs.readdir(path.join(dir, MANIFEST_DIR)).catch(() => [] as string[])
  for (const name of names) {
    if (!name.endsWith(".json")) continue
    const table = name.slice(0, -".json".length)
    const manifest = await readManifest(dir, table)
    for (const entry of manifest.files) {
      listed.add(`${table}/${entry.file}`)
      for (const part of replacedParts(entry)) replaced.add(`${table}/${part}`)
    }
  }
  return (rel) => replaced.has(rel) || (COMPACTED_PATTERN.test(path.posix.basename(rel)) && !listed.has(rel))
}

/** Makes the bucket equal to the working copy, in reader-safe order (see the top). */
export const push = async (t: SyncTarget, url: string): Promise<SyncStats> => {
  const remote = await remoteFiles(t)
  const local = await listLocal(t.dir)
  const changed: LocalFile[] = []
  for (const l of local) {
    const r = remote.get(l.rel)
    if (r === undefined || !(await same(l, r))) changed.push(l)
  }
  let bytes = 0
  for (let level = 0; level <= 3; level++) {
    const batch = changed.filter((l) => rank(l.rel) === level)
    await pool(batch, 8, async (l) => {
      await t.client.upload(l.file, t.keyOf(l.rel))
      bytes += l.size
    })
  }
  const catalog = await writeBucketCatalog(t.dir, url)
  if (catalog !== undefined) await t.client.upload(catalog, t.keyOf(BUCKET_CATALOG_KEY))
  const present = new Set(local.map((l) => l.rel))
  const dead = await deadFiles(t.dir)
  // sorted so a push deletes in the same order whatever order the bucket listed its keys in
  const gone = [...remote.keys()].filter((rel) => !present.has(rel) && dead(rel)).sort()
  if (gone.length > 0) await t.client.remove(gone.map((rel) => t.keyOf(rel)))
  return { transferred: changed.length + (catalog === undefined ? 0 : 1), deleted: gone.length, bytes }
}
