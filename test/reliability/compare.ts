/**
 * What "loses nothing" is checked against: two output folders compared row by row in DuckDB
 * (EXCEPT ALL both ways, lineage columns aside), and an output folder inspected for anything a
 * crash could leave behind (staged parts, temporary files, parts past their checkpoint, a lock).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import type { CheckpointState } from "../../src/crawl/Checkpoint.ts"
import { fileSet } from "../../src/sink/Manifest.ts"

/** Lineage: differs between any two runs by design. */
export const LINEAGE = ["run_id", "ingested_at"] as const

export interface DatasetDiff {
  readonly dataset: string
  readonly rowsA: number
  readonly rowsB: number
  /** Rows of A not in B and of B not in A, counted with multiplicity (EXCEPT ALL). */
  readonly onlyA: number
  readonly onlyB: number
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`

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
    await conn.run(`ATTACH ${quote(path.join(outA, "catalog.duckdb"))} AS a (READ_ONLY)`)
    await conn.run(`ATTACH ${quote(path.join(outB, "catalog.duckdb"))} AS b (READ_ONLY)`)
    const views = async (db: string) =>
      (await conn.runAndReadAll(`SELECT view_name FROM duckdb_views() WHERE database_name = ${quote(db)} AND NOT internal ORDER BY 1`))
        .getRows()
        .map(([v]) => String(v))
    const inA = await views("a")
    const inB = await views("b")
    const names = [...new Set([...inA, ...inB])].sort()
    const count = async (sql: string) => Number((await conn.runAndReadAll(`SELECT count(*) FROM (${sql})`)).getRows()[0]![0])
    const out: DatasetDiff[] = []
    for (const name of names) {
      const cols = async (db: string) =>
        (await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE ${db}."${name}")`)).getRows().map(([c]) => String(c))
      if (!inA.includes(name) || !inB.includes(name)) {
        const rows = async (db: string, has: boolean) => (has ? count(`SELECT * FROM ${db}."${name}"`) : 0)
        const rowsA = await rows("a", inA.includes(name))
        const rowsB = await rows("b", inB.includes(name))
        out.push({ dataset: name, rowsA, rowsB, onlyA: rowsA, onlyB: rowsB })
        continue
      }
      const skip = new Set([...LINEAGE, ...exclude])
      const colsA = (await cols("a")).filter((c) => !skip.has(c))
      const colsB = new Set((await cols("b")).filter((c) => !skip.has(c)))
      // a column on one side only is a difference of its own: compare the shared ones and say so
      if (colsA.length !== colsB.size || colsA.some((c) => !colsB.has(c))) {
        throw new Error(`${name}: columns differ: ${colsA.join(",")} vs ${[...colsB].join(",")}`)
      }
      // Each side is read once, each row as a 64-bit hash of all its columns: DuckDB compares
      // nested rows (a staking transaction's lists of structs) slowly, reading a view again per
      // count re-reads its files, and materialising rows costs most of all (24k `primary_blocks`
      // rows: 210 ms as they are, 370 ms as JSON text, 60 ms as hashes). Equal rows hash equal, so
      // every difference the hashes show is real; two different rows of equal hash would hide
      // one, at a chance of ~2^-64 a pair.
      const list = colsA.map((c) => `"${c}"`).join(", ")
      for (const side of ["a", "b"]) await conn.run(`CREATE OR REPLACE TEMP TABLE side_${side} AS SELECT hash(s) AS r FROM (SELECT ${list} FROM ${side}."${name}") s`)
      const [rowsA, rowsB, onlyA, onlyB] = (
        await conn.runAndReadAll(
          `SELECT (SELECT count(*) FROM side_a), (SELECT count(*) FROM side_b),
                  (SELECT count(*) FROM (SELECT r FROM side_a EXCEPT ALL SELECT r FROM side_b)),
                  (SELECT count(*) FROM (SELECT r FROM side_b EXCEPT ALL SELECT r FROM side_a))`
        )
      ).getRows()[0]!.map(Number)
      out.push({ dataset: name, rowsA: rowsA!, rowsB: rowsB!, onlyA: onlyA!, onlyB: onlyB! })
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

export const readCheckpoints = async (out: string): Promise<CheckpointState[]> => {
  const root = path.join(out, "_state", "checkpoints")
  const files = (await filesBelow(root)).filter((f) => f.endsWith(".json"))
  return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(path.join(root, f), "utf8")) as CheckpointState))
}

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
