/**
 * The compaction manifest of a dataset: which compacted files are live, and which parts each one
 * replaces. One JSON file per dataset under `<out>/_state/manifests/<dataset>.json`, replaced
 * whole (replaceFile), so a kill leaves the old or the new manifest, never a torn one.
 *
 * A dataset's live files are its `part-*.parquet` files that no manifest entry replaces, plus the
 * compacted files the manifest lists. Parts are not listed (a commit of a part writes no manifest:
 * the write path's cost stays with rows), compacted files always are: a `compact-*.parquet` file
 * the manifest does not list is an orphan of a killed compaction, read by nobody and deleted by
 * the next run. Views (CatalogSql) read exactly the live set.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { replaceFile } from "../files/Durable.ts"
import { COMPACTED_PATTERN, PART_PATTERN, partFileName } from "../files/PartName.ts"

export const MANIFEST_DIR = path.join("_state", "manifests")

/** Parts `part-<slice>-<from>` … `part-<slice>-<to>` of one folder, every one of them merged. */
export interface PartRun {
  readonly slice: string
  readonly from: number
  readonly to: number
}

export interface CompactedFile {
  /** Path below the dataset folder, `/`-separated: `<k>=<v>/…/compact-<id>.parquet`. */
  readonly file: string
  readonly rows: number
  readonly bytes: number
  /** The parts (of the file's folder) whose rows it holds, directly or through an earlier compacted file. */
  readonly replaces: ReadonlyArray<PartRun>
}

export interface Manifest {
  readonly version: 1
  readonly dataset: string
  readonly files: ReadonlyArray<CompactedFile>
}

export const emptyManifest = (dataset: string): Manifest => ({ version: 1, dataset, files: [] })

export const manifestPath = (outDir: string, dataset: string): string => path.join(outDir, MANIFEST_DIR, `${dataset}.json`)

export const readManifest = async (outDir: string, dataset: string): Promise<Manifest> => {
  const text = await fs.readFile(manifestPath(outDir, dataset), "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined
    throw e
  })
  if (text === undefined) return emptyManifest(dataset)
  const parsed = JSON.parse(text) as Manifest
  if (parsed.version !== 1 || parsed.dataset !== dataset || !Array.isArray(parsed.files)) {
    throw new Error(`${manifestPath(outDir, dataset)} is not a version-1 manifest of ${dataset}`)
  }
  return parsed
}

/** The commit point of a compaction: after it, the listed files are live and the parts they replace are not. */
export const writeManifest = async (outDir: string, manifest: Manifest): Promise<void> => {
  await replaceFile(manifestPath(outDir, manifest.dataset), `${JSON.stringify(manifest, null, 1)}\n`)
}

/** Runs of consecutive seqs per slice, sorted: the compact spelling of a set of parts. */
export const toRuns = (parts: ReadonlyArray<{ readonly slice: string; readonly seq: number }>): PartRun[] => {
  const bySlice = new Map<string, number[]>()
  for (const p of parts) bySlice.set(p.slice, [...(bySlice.get(p.slice) ?? []), p.seq])
  const runs: PartRun[] = []
  for (const slice of [...bySlice.keys()].sort()) {
    const seqs = [...new Set(bySlice.get(slice)!)].sort((a, b) => a - b)
    let from = seqs[0]!
    let to = from
    for (const s of seqs.slice(1)) {
      if (s === to + 1) to = s
      else {
        runs.push({ slice, from, to })
        from = to = s
      }
    }
    runs.push({ slice, from, to })
  }
  return runs
}

/** Paths (below the dataset folder) of the parts an entry replaces. */
export const replacedParts = (entry: CompactedFile): string[] => {
  const dir = path.posix.dirname(entry.file)
  const out: string[] = []
  for (const run of entry.replaces) {
    for (let seq = run.from; seq <= run.to; seq++) out.push(path.posix.join(dir, partFileName(run.slice, seq)))
  }
  return out
}

/** Whether some compacted file holds a part of `slice` whose seq satisfies `test`. */
export const holdsPartOf = (manifest: Manifest, slice: string, test: (seq: number) => boolean): string | undefined => {
  for (const entry of manifest.files) {
    for (const run of entry.replaces) {
      if (run.slice !== slice) continue
      for (let seq = run.from; seq <= run.to; seq++) if (test(seq)) return entry.file
    }
  }
  return undefined
}

export interface DatasetFileSet {
  /** Absolute paths of the manifest's compacted files. */
  readonly compacted: ReadonlyArray<string>
  /** Absolute paths of parts still on disk that a compacted file replaces (a compaction not yet finished). */
  readonly replaced: ReadonlyArray<string>
  /** Absolute paths of compacted files no manifest lists (a killed compaction's). */
  readonly orphans: ReadonlyArray<string>
}

const toAbs = (root: string, rel: string) => path.join(root, ...rel.split("/"))

/** The files of a dataset folder as the manifest sees them (one recursive listing). */
export const fileSet = async (outDir: string, dataset: string, manifest?: Manifest): Promise<DatasetFileSet> => {
  const m = manifest ?? (await readManifest(outDir, dataset))
  const root = path.join(outDir, dataset)
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  const present = new Set<string>()
  for (const e of entries) if (e.isFile()) present.add(path.join(e.parentPath, e.name))
  const compacted = m.files.map((f) => toAbs(root, f.file))
  const listed = new Set(compacted)
  const replaced = m.files.flatMap(replacedParts).map((rel) => toAbs(root, rel)).filter((p) => present.has(p))
  const orphans = [...present].filter((p) => COMPACTED_PATTERN.test(path.basename(p)) && !listed.has(p)).sort()
  return { compacted, replaced, orphans }
}

/** Parsed `part-<slice>-<seq>.parquet`, or undefined for any other name. */
export const parsePartName = (name: string): { readonly slice: string; readonly seq: number } | undefined => {
  const m = PART_PATTERN.exec(name)
  return m === null ? undefined : { slice: m[1]!, seq: Number(m[2]) }
}
