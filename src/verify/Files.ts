/**
 * The files of a table folder as verify sees them: its parts (slice, seq, whether a view reads
 * them), the compacted files its manifest lists with the rows it says they hold, and compacted
 * files no manifest lists. A part belongs to a dataset's slice: a child table's parts carry their
 * parent's slice ids, and `_rejects/dataset=<name>/` holds each dataset's rejects.
 */
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { fileSet, parsePartName, readManifest, replacedParts } from "../compact/Manifest.ts"

export interface PartFile {
  /** The dataset whose slice wrote it. */
  readonly owner: string
  readonly abs: string
  /** Below the output folder, `/`-separated. */
  readonly rel: string
  readonly slice: string
  readonly seq: number
  /** False once a compacted file replaces it (its rows are read from there). */
  readonly live: boolean
}

export interface TableFiles {
  readonly table: string
  readonly parts: ReadonlyArray<PartFile>
  readonly compacted: ReadonlyArray<{ readonly owner: string; readonly abs: string; readonly rel: string; readonly manifestRows: number; readonly slices: ReadonlySet<string> }>
  readonly orphans: ReadonlyArray<{ readonly owner: string; readonly rel: string }>
}

const ownerIn = (table: string, owner: string | undefined, rel: string): string => {
  if (owner !== undefined) return owner
  // _rejects/dataset=<name>/…: partition values are percent-encoded
  const seg = rel.split("/").find((s) => s.startsWith("dataset="))
  return seg === undefined ? table : decodeURIComponent(seg.slice("dataset=".length))
}

/** `owner`: the dataset of every file of the table (a dataset or its child); undefined for `_rejects`. */
export const tableFiles = async (outDir: string, table: string, owner: string | undefined): Promise<TableFiles> => {
  const root = path.join(outDir, table)
  const relOf = (abs: string) => path.relative(outDir, abs).split(path.sep).join("/")
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  const manifest = await readManifest(outDir, table)
  const replaced = new Set(manifest.files.flatMap(replacedParts).map((r) => path.join(root, ...r.split("/"))))
  const parts: PartFile[] = []
  for (const e of entries) {
    if (!e.isFile()) continue
    const parsed = parsePartName(e.name)
    if (parsed === undefined) continue
    const abs = path.join(e.parentPath, e.name)
    const rel = relOf(abs)
    parts.push({ owner: ownerIn(table, owner, path.relative(root, abs).split(path.sep).join("/")), abs, rel, ...parsed, live: !replaced.has(abs) })
  }
  const set = await fileSet(outDir, table, manifest)
  const compacted = manifest.files.map((f) => {
    const abs = path.join(root, ...f.file.split("/"))
    return { owner: ownerIn(table, owner, f.file), abs, rel: relOf(abs), manifestRows: f.rows, slices: new Set(f.replaces.map((r) => r.slice)) }
  })
  const orphans = set.orphans.map((abs) => ({ owner: ownerIn(table, owner, path.relative(root, abs).split(path.sep).join("/")), rel: relOf(abs) }))
  return { table, parts: parts.sort((a, b) => a.rel.localeCompare(b.rel)), compacted, orphans }
}
