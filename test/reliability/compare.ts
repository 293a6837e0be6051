/**
 * What "loses nothing" is checked against: two output folders compared row by row in DuckDB
 * (EXCEPT ALL both ways, lineage columns aside), and an output folder inspected for anything a
 * crash could leave behind (staged parts, temporary files, parts past their checkpoint, a lock).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { attachOutputs, columnsOf, diffRows, ident, LINEAGE, rowCount, type RowCounts, viewsOf } from "../../scripts/rowDiff.ts"
import { Effect } from "effect"
import { CheckpointStore, type CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { fileSet } from "../../src/compact/Manifest.ts"

export { LINEAGE }

export interface DatasetDiff extends RowCounts {
  readonly dataset: string
}

/**
 * Every view of both catalogs, compared: row counts and EXCEPT ALL both ways over all columns but
 * lineage (and `exclude`). A view missing on one side counts as empty there.
 */
export const compareCatalogs = async (
  outA: string,
  outB: string,
  exclude: ReadonlyArray<string> = []
): Promise<DatasetDiff[]> => {
  // one thread: the suite's two workers already fill both cores, and the tables are small
  const db = await DuckDBInstance.create(":memory:", { threads: "1" })
  const conn = await db.connect()
  try {
    await attachOutputs(conn, outA, outB)
    const inA = await viewsOf(conn, "a")
    const inB = await viewsOf(conn, "b")
    const names = [...new Set([...inA, ...inB])].sort()
    const out: DatasetDiff[] = []
    for (const name of names) {
      if (!inA.includes(name) || !inB.includes(name)) {
        const rowsA = inA.includes(name) ? await rowCount(conn, "a", name) : 0
        const rowsB = inB.includes(name) ? await rowCount(conn, "b", name) : 0
        out.push({ dataset: name, rowsA, rowsB, onlyA: rowsA, onlyB: rowsB })
        continue
      }
      const skip = new Set<string>([...LINEAGE, ...exclude])
      const colsA = (await columnsOf(conn, "a", name)).filter((c) => !skip.has(c))
      const colsB = new Set((await columnsOf(conn, "b", name)).filter((c) => !skip.has(c)))
      // a column on one side only is a difference of its own: compare the shared ones and say so
      if (colsA.length !== colsB.size || colsA.some((c) => !colsB.has(c))) {
        throw new Error(`${name}: columns differ: ${colsA.join(",")} vs ${[...colsB].join(",")}`)
      }
      const list = colsA.map(ident).join(", ")
      out.push({ dataset: name, ...(await diffRows(conn, name, list, list)) })
    }
    return out
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** Every file below `dir`, relative, sorted; [] when it does not exist. */
export const filesBelow = async (dir: string): Promise<string[]> =>
  (await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()

/** Every slice's state as a run reads it: its checkpoint file, or a new slice's opening journal (crawl/OpeningJournal.ts). */
export const readCheckpoints = (out: string): Promise<ReadonlyArray<CheckpointState>> =>
  Effect.runPromise(Effect.flatMap(CheckpointStore, (store) => store.list()).pipe(Effect.provide(CheckpointStore.layer(out))))

export interface Leftovers {
  /** Files in `_staging/`. */
  readonly staging: ReadonlyArray<string>
  /** Temporary files of atomic writes (`*.tmp-<pid>`: checkpoints, run reports, the catalog). */
  readonly temps: ReadonlyArray<string>
  /** The writer lock and takeover claims. */
  readonly locks: ReadonlyArray<string>
  /** Parts no checkpoint accounts for: seq past the slice's last committed seq, before its kept seq, or of no known slice. */
  readonly strayParts: ReadonlyArray<string>
  /** Files a compaction made dead (replaced parts, unlisted compacted files) still on disk. */
  readonly deadFiles: ReadonlyArray<string>
}

const PART = /^part-([a-z0-9_-]+)-(\d{6,})\.parquet$/

/** What a crash may leave in an output folder; all empty after a run that finished. */
export const leftovers = async (out: string): Promise<Leftovers> => {
  const all = await filesBelow(out)
  const bySlice = new Map((await readCheckpoints(out)).map((c) => [c.slice, c]))
  const strayParts: string[] = []
  for (const f of all) {
    if (f.startsWith("_")  && !f.startsWith("_rejects/")) continue
    const m = PART.exec(path.basename(f))
    if (m === null) continue
    const c = bySlice.get(m[1]!)
    const seq = Number(m[2])
    if (c === undefined || seq > c.lastSeq || (c.keepFromSeq !== null && seq < c.keepFromSeq)) strayParts.push(f)
  }
  const tables = [...new Set(all.filter((f) => !f.startsWith("_") || f.startsWith("_rejects/")).map((f) => f.split("/")[0]!).filter((t) => !t.includes(".")))]
  const deadFiles: string[] = []
  for (const t of tables) {
    const set = await fileSet(out, t)
    deadFiles.push(...[...set.replaced, ...set.orphans].map((f) => path.relative(out, f)))
  }
  return {
    deadFiles: deadFiles.sort(),
    staging: all.filter((f) => f.startsWith("_staging/")),
    temps: all.filter((f) => /\.tmp-\d+/.test(f)),
    locks: all.filter((f) => f.startsWith("_state/writer.lock")),
    strayParts
  }
}

export const isClean = (l: Leftovers): boolean =>
  l.staging.length === 0 && l.temps.length === 0 && l.locks.length === 0 && l.strayParts.length === 0 && l.deadFiles.length === 0
