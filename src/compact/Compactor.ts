/**
 * Compacts one table folder: in each partition folder, merges the small files compaction may
 * take (the caller's `mayMerge`: src/CompactionPolicy.ts; earlier compacted files included) into
 * files toward a target size, rows
 * sorted by the table's natural order, then commits them in the table's manifest. The recipe,
 * each step durable before the next (docs/compaction.md):
 *  1. write each merged file to `_staging/`, check its row count against its inputs, fsync it;
 *  2. rename it into its partition folder as `compact-<id>.parquet`: no view reads it yet (views
 *     read parts and the compacted files their manifest listed when they were built);
 *  3. fsync the folders, then commit the manifest (write aside, fsync, rename): the commit point;
 *  4. (the caller) rebuild the catalog, whose views now read the new files and not what they
 *     replace, and only then delete the replaced parts and superseded compacted files.
 * A kill before 3 leaves unlisted `compact-*` files (read by nobody); a kill after it leaves
 * replaced files (read by no view built since). The next run or compaction rebuilds the catalog
 * and deletes both (`garbageOf`), before it writes anything.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { quotedIdentifier, quotedString } from "@duckdb/node-api"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fsyncPath } from "../files/Durable.ts"
import { type CompactedFile, type Manifest, type PartRun, fileSet, parsePartName, readManifest, toRuns, writeManifest } from "./Manifest.ts"
import { STAGING_DIR } from "../files/StagingDir.ts"
import { PARQUET_OPTIONS } from "../files/ParquetOptions.ts"
import { compactedFileName } from "../files/PartName.ts"
import { type MergePlan, PROBE_COLUMNS, inOrder, orderBy, planMerge } from "./MergeOrder.ts"
import { MERGE_MEMORY, type MergeMemory, machineLimit, outOfMemory, runWithinMemory, setMemoryLimit } from "./MergeMemory.ts"
import { concatParquet, concatenable, readFooter } from "./ParquetConcat.ts"
import { MERGED_ROW_GROUP_ROWS, keepsRowGroups, rowGroupRows, uncompressedBytes } from "./RowGroups.ts"

export interface CompactTable {
  /** The table's folder name (a dataset, a child table, or `_rejects`). */
  readonly name: string
  /** Natural order of its rows; columns a file lacks are left out of the ORDER BY. */
  readonly sortBy: ReadonlyArray<string>
  /**
   * Where sortBy ties, a sort orders rows by these too (the dataset's key), so a merge redone after
   * a kill writes the same rows in the same order. Files concatenate without them: within a tie the
   * listing's own order is as natural.
   */
  readonly tieBreak?: ReadonlyArray<string>
  /**
   * The dataset whose slices own the parts of a partition folder (its path below the table,
   * `/`-separated): the dataset itself, a child table's parent, or the dataset a `_rejects` folder
   * names; undefined leaves the folder alone.
   */
  readonly ownerOf: (relDir: string) => string | undefined
}

/** A part file's slice and seq (`part-<slice>-<seq>.parquet`). */
export interface PartId {
  readonly slice: string
  readonly seq: number
}

/**
 * Which parts of a dataset's folders compaction may merge: those no later step of the crawler
 * needs as files of their own, which only the crawl's checkpoints tell (src/CompactionPolicy.ts).
 */
export type MayMerge = (dataset: string) => Promise<(part: PartId) => boolean>

export interface CompactSettings {
  /** A merged file holds at most this many rows… */
  readonly targetRows: number
  /** …and about this many bytes (its inputs' compressed sizes added up). */
  readonly targetBytes: number
  /** A folder is compacted when it holds at least this many small mergeable files (2: any). */
  readonly minFiles: number
}

export const DEFAULT_SETTINGS: CompactSettings = { targetRows: 1_000_000, targetBytes: 128 * 1024 * 1024, minFiles: 2 }

export interface TableResult {
  readonly table: string
  /** Partition folders compacted. */
  readonly folders: number
  /** Files merged, and compacted files written. */
  readonly filesIn: number
  readonly filesOut: number
  /** Files the committed manifest made dead, to delete once a catalog without them is in place. */
  readonly garbage: ReadonlyArray<string>
}

/**
 * How a merged file was written: its inputs' row groups moved as they are (ParquetConcat.ts), or
 * read and written again by DuckDB, concatenated in the order they were or sorted.
 */
export type MergeWay = "row groups moved" | "concatenated" | "sorted"

/** Moments a test (or a debug log) can see: after a merged file is in its folder, after the manifest commit. */
export type CompactionEvent =
  | { readonly type: "merged"; readonly table: string; readonly file: string; readonly inputs: number; readonly way: MergeWay }
  | { readonly type: "manifest"; readonly table: string; readonly files: number }

interface Candidate {
  readonly abs: string
  readonly rows: number
  readonly bytes: number
  /** The parts it holds (a part: itself). */
  readonly runs: ReadonlyArray<PartRun>
  /** Set for an earlier compacted file: its manifest entry. */
  readonly entry?: CompactedFile
}

const sqlList = (files: ReadonlyArray<string>) => `[${files.map(quotedString).join(", ")}]`

const rowsOf = async (conn: DuckDBConnection, files: ReadonlyArray<string>): Promise<Map<string, number>> => {
  if (files.length === 0) return new Map()
  const read = await conn.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata(${sqlList(files)})`)
  return new Map(read.getRowsJS().map(([f, n]) => [String(f), Number(n)]))
}

/** Greedy bins in the given order, each within the targets; a file alone in its bin stays as it is. */
export const binsOf = <T extends { readonly rows: number; readonly bytes: number }>(files: ReadonlyArray<T>, s: CompactSettings): T[][] => {
  const bins: T[][] = []
  let bin: T[] = []
  let rows = 0
  let bytes = 0
  for (const f of files) {
    if (bin.length > 0 && (rows + f.rows > s.targetRows || bytes + f.bytes > s.targetBytes)) {
      bins.push(bin)
      bin = []
      rows = bytes = 0
    }
    bin.push(f)
    rows += f.rows
    bytes += f.bytes
  }
  if (bin.length > 0) bins.push(bin)
  return bins.filter((b) => b.length > 1)
}

/** A deterministic id of a merge: the same inputs give the same name, so a redo replaces its own orphan. */
const mergeId = (table: string, inputs: ReadonlyArray<string>): string =>
  createHash("sha256").update(`${table}\n${[...inputs].sort().join("\n")}`).digest("hex").slice(0, 16)

const readParquet = (files: ReadonlyArray<string>, extra = "") => `read_parquet(${sqlList(files)}, hive_partitioning = false, union_by_name = true${extra})`

const SORT_ASCENDING: MergePlan = { direction: "asc" }

/** The merge's plan from its key columns (MergeOrder.ts), within the concatenation's memory. */
const probe = async (conn: DuckDBConnection, files: ReadonlyArray<string>, order: ReadonlyArray<string>, memory: MergeMemory): Promise<MergePlan> => {
  await setMemoryLimit(conn, memory.concatenation[0] ?? machineLimit())
  // a probe that does not fit leaves the merge to the sort, which spills
  return planMerge(conn, readParquet(files, ", filename = true, file_row_number = true"), order).catch((e: unknown) => {
    if (outOfMemory(e)) return SORT_ASCENDING
    throw e
  })
}

/**
 * Writes the merged rows of `files` to `staged` in the table's natural order: concatenated when
 * the files are in order already (MergeOrder.ts; ascending or, for parts of a newest-first
 * listing, descending), else sorted, in the direction most of them follow (ascending when none).
 * A concatenation of files whose row groups are of a reader's size already moves those row groups
 * as they are (ParquetConcat.ts); others are read and written again by DuckDB.
 */
const copyMerged = async (conn: DuckDBConnection, table: CompactTable, files: ReadonlyArray<string>, rows: number, staged: string, memory: MergeMemory): Promise<MergeWay> => {
  const source = readParquet(files)
  // the union's columns in the inputs' order, whatever order the files are read in
  const columns = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowsJS().map(([c]) => String(c))
  const order = table.sortBy.filter((c) => columns.includes(c))
  /** Writes `select` to `staged` through DuckDB, in row groups sized by the inputs' width, within `ladder`'s limits. */
  const rewrite = async (select: string, ladder: ReadonlyArray<string>) => {
    // asked only here: a merge that moves row groups as they are needs no row-group size
    const groupRows = rowGroupRows(rows > 0 ? (await uncompressedBytes(conn, files)) / rows : 0)
    // the parts' codec and level: level 2 merges in less CPU into smaller files than DuckDB's
    // default level 3 (docs/performance.md#compaction-row-groups)
    const copy = `COPY (${select}) TO ${quotedString(staged)} (${PARQUET_OPTIONS}, ROW_GROUP_SIZE ${groupRows})`
    // rows too wide for full row groups skip the first limit: it never held them, and trying it
    // cost a `staking_transactions` compaction a sizeable share of its CPU
    // (docs/performance.md#compaction-memory)
    await runWithinMemory(conn, copy, groupRows < MERGED_ROW_GROUP_ROWS && ladder.length > 1 ? ladder.slice(1) : ladder)
  }
  const probeable = order.length > 0 && !columns.some((c) => PROBE_COLUMNS.includes(c))
  const plan = probeable ? await probe(conn, files, order, memory) : SORT_ASCENDING
  if (plan.files !== undefined) {
    // a footer this reader cannot walk is left to DuckDB, which reads it or says what is wrong
    const footers = await Promise.all(plan.files.map(readFooter)).catch(() => undefined)
    const moved = footers !== undefined && concatenable(footers) && keepsRowGroups(footers.flatMap((f) => f.rowGroups))
    if (moved) {
      // row groups of a reader's size already: moved as they are, nothing decoded or compressed again
      await concatParquet(footers, staged)
    } else {
      await rewrite(`SELECT ${columns.map(quotedIdentifier).join(", ")} FROM ${readParquet(plan.files)}`, memory.concatenation)
    }
    // one thread reads the files in the order listed; the check makes that a fact, not a hope. Row
    // groups moved as they are hold the probed files' rows in the order listed by construction
    if (!moved && !(await inOrder(conn, `read_parquet(${quotedString(staged)}, file_row_number = true)`, order, plan.direction))) {
      throw new Error(`merged file of ${files.length} files is not in ${plan.direction} order of ${order.join(", ")}`)
    }
    return moved ? "row groups moved" : "concatenated"
  }
  const sortKey = [...order, ...(table.tieBreak ?? []).filter((c) => columns.includes(c) && !order.includes(c))]
  await rewrite(`SELECT * FROM ${source}${sortKey.length === 0 ? "" : ` ORDER BY ${orderBy(sortKey, plan.direction)}`}`, memory.sort)
  return "sorted"
}

const writeMerged = async (
  conn: DuckDBConnection,
  outDir: string,
  table: CompactTable,
  dir: string,
  bin: ReadonlyArray<Candidate>,
  memory: MergeMemory
): Promise<{ readonly made: CompactedFile; readonly way: MergeWay }> => {
  const files = bin.map((c) => c.abs)
  const id = mergeId(table.name, files.map((f) => path.relative(outDir, f)))
  const staged = path.join(outDir, STAGING_DIR, `compact.${table.name}.${id}.${process.pid}.parquet`)
  await fs.mkdir(path.dirname(staged), { recursive: true })
  try {
    const expected = bin.reduce((n, c) => n + c.rows, 0)
    const way = await copyMerged(conn, table, files, expected, staged, memory)
    // the merged file must hold exactly its inputs' rows before anything points at it
    const written = (await rowsOf(conn, [staged])).get(staged)
    if (written !== expected) throw new Error(`merged file of ${files.length} files holds ${written} rows, not ${expected}`)
    await fsyncPath(staged)
    const dest = path.join(dir, compactedFileName(id))
    await fs.rename(staged, dest)
    const runs = toRuns(bin.flatMap((c) => c.runs.flatMap((r) => Array.from({ length: r.to - r.from + 1 }, (_, i) => ({ slice: r.slice, seq: r.from + i })))))
    const made = { file: path.relative(path.join(outDir, table.name), dest).split(path.sep).join("/"), rows: expected, bytes: (await fs.stat(dest)).size, replaces: runs }
    return { made, way }
  } finally {
    await fs.rm(staged, { force: true })
  }
}

export interface CompactDeps {
  /** The connection merges run on, asked for at the first merge: most runs merge nothing. */
  readonly conn: () => Promise<DuckDBConnection>
  readonly mayMerge: MayMerge
  readonly onEvent?: (event: CompactionEvent) => Promise<void> | void
  /** Default MERGE_MEMORY. */
  readonly memory?: MergeMemory
}

/** Compacts one table folder and commits its manifest; returns what became dead. */
export const compactTable = async (outDir: string, table: CompactTable, settings: CompactSettings, deps: CompactDeps): Promise<TableResult> => {
  const root = path.join(outDir, table.name)
  const manifest: Manifest = await readManifest(outDir, table.name)
  const listed = new Map(manifest.files.map((e) => [path.join(root, ...e.file.split("/")), e]))
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return []
    throw e
  })
  const byDir = new Map<string, Array<{ abs: string; part?: { slice: string; seq: number }; entry?: CompactedFile }>>()
  for (const e of entries) {
    if (!e.isFile()) continue
    const abs = path.join(e.parentPath, e.name)
    const part = parsePartName(e.name)
    const entry = listed.get(abs)
    if (part === undefined && entry === undefined) continue
    byDir.set(e.parentPath, [...(byDir.get(e.parentPath) ?? []), { abs, ...(part === undefined ? {} : { part }), ...(entry === undefined ? {} : { entry }) }])
  }
  // parts an earlier compaction replaced but whose deletion a kill interrupted are dead already
  const dead = new Set((await fileSet(outDir, table.name, manifest)).replaced)
  const added: CompactedFile[] = []
  const superseded = new Set<string>()
  const garbage: string[] = []
  let folders = 0
  let filesIn = 0
  for (const [dir, files] of [...byDir].sort(([a], [b]) => a.localeCompare(b))) {
    const rel = path.relative(root, dir).split(path.sep).join("/")
    const owner = table.ownerOf(rel)
    if (owner === undefined) continue
    const mayMerge = await deps.mayMerge(owner)
    const chosen = files.filter((f) => (f.entry !== undefined ? true : !dead.has(f.abs) && f.part !== undefined && mayMerge(f.part)))
    if (chosen.length < Math.max(2, settings.minFiles)) continue
    const rows = await rowsOf(await deps.conn(), chosen.filter((f) => f.entry === undefined).map((f) => f.abs))
    const candidates: Candidate[] = []
    for (const f of chosen) {
      const bytes = f.entry?.bytes ?? (await fs.stat(f.abs)).size
      const n = f.entry?.rows ?? rows.get(f.abs) ?? 0
      // files past half a target are big enough: merging them would rewrite much for little
      if (n * 2 >= settings.targetRows || bytes * 2 >= settings.targetBytes) continue
      candidates.push({ abs: f.abs, rows: n, bytes, runs: f.entry?.replaces ?? [{ slice: f.part!.slice, from: f.part!.seq, to: f.part!.seq }], ...(f.entry === undefined ? {} : { entry: f.entry }) })
    }
    if (candidates.length < Math.max(2, settings.minFiles)) continue
    // earlier compacted files first (already in order), then parts by slice and seq
    candidates.sort((a, b) => Number(b.entry !== undefined) - Number(a.entry !== undefined) || a.abs.localeCompare(b.abs))
    const bins = binsOf(candidates, settings)
    for (const bin of bins) {
      const { made, way } = await writeMerged(await deps.conn(), outDir, table, dir, bin, deps.memory ?? MERGE_MEMORY)
      added.push(made)
      for (const c of bin) {
        if (c.entry !== undefined) superseded.add(c.entry.file)
        garbage.push(c.abs)
      }
      filesIn += bin.length
      await deps.onEvent?.({ type: "merged", table: table.name, file: made.file, inputs: bin.length, way })
    }
    if (bins.length > 0) {
      folders++
      await fsyncPath(dir)
    }
  }
  if (added.length === 0) return { table: table.name, folders: 0, filesIn: 0, filesOut: 0, garbage: [] }
  await writeManifest(outDir, { ...manifest, files: [...manifest.files.filter((e) => !superseded.has(e.file)), ...added] })
  await deps.onEvent?.({ type: "manifest", table: table.name, files: added.length })
  return { table: table.name, folders, filesIn, filesOut: added.length, garbage }
}

/** What a table holds that no view built from its manifest reads: replaced parts and unlisted compacted files. */
export const garbageOf = async (outDir: string, table: string): Promise<string[]> => {
  const set = await fileSet(outDir, table)
  return [...set.replaced, ...set.orphans]
}

/** Deletes dead files and fsyncs their folders (to be called once a catalog without them is in place). */
export const deleteFiles = async (files: ReadonlyArray<string>): Promise<void> => {
  for (const f of files) await fs.rm(f, { force: true })
  for (const dir of new Set(files.map((f) => path.dirname(f)))) await fsyncPath(dir).catch(() => undefined)
}
