/**
 * The catalog of an output where no dataset has files yet, built once per chainetl version and
 * kept in the user's cache, so a catalog build runs only the statements of datasets whose files
 * changed their view.
 *
 * Why: DuckDB spends a fixed cost of CPU on every statement, and the catalog is a view and a
 * comment per column for each dataset, empty ones included: a share of every run worth saving,
 * most of it for datasets the run never touched (measured: docs/performance.md#catalog). An
 * empty dataset's statements depend only on its declaration, so the built file is the same for
 * every output: Catalog.ts copies it and replaces the views of datasets that have files.
 *
 * The file is named by a SHA-256 of DuckDB's version and every statement it holds, so a new
 * version, a changed schema or comment is a new file, never a stale one; the 8 last used are
 * kept. It lives in
 * CHAINETL_CACHE_DIR (default `$XDG_CACHE_HOME/chainetl`, else `~/.cache/chainetl`), a folder
 * only the user writes to (the catalog's views are SQL another user must not plant). A cache that
 * cannot be written is skipped: the catalog is then built whole, as before.
 */
import { type DuckDBConnection, DuckDBInstance, version as duckdbVersion } from "@duckdb/node-api"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { replaceFile } from "../files/Durable.ts"

/** One dataset's statements (or the schema table's), run as one query. */
export interface CatalogBatch {
  readonly dataset: string
  readonly statements: ReadonlyArray<string>
}

export const CACHE_DIR_ENV = "CHAINETL_CACHE_DIR"

export const cacheDir = (): string => {
  const set = process.env[CACHE_DIR_ENV]
  if (set !== undefined && set !== "") return path.resolve(set)
  const xdg = process.env["XDG_CACHE_HOME"]
  return path.join(xdg !== undefined && xdg !== "" && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache"), "chainetl")
}

/**
 * Runs the batches in one transaction on `connection`'s database. DuckDB spends a fixed cost of CPU
 * on every statement, even a COMMENT: one query per dataset (not per statement), without the
 * optimizer (DDL and VALUES have nothing to optimize; a connection setting, not stored in the
 * file, so readers of the catalog keep theirs) and without waking worker threads. One
 * transaction: a commit per statement cost more CPU (docs/performance.md#catalog).
 */
export const runBatches = async (
  connection: { run(sql: string): Promise<unknown> },
  batches: ReadonlyArray<CatalogBatch>
): Promise<void> => {
  await connection.run("PRAGMA disable_optimizer")
  await connection.run("SET threads = 1")
  await connection.run("BEGIN TRANSACTION")
  for (const batch of batches) {
    if (batch.statements.length === 0) continue
    await connection.run(batch.statements.join("\n")).catch((e: unknown) => {
      throw new Error(`${batch.dataset}: ${e instanceof Error ? e.message : String(e)}`)
    })
  }
  await connection.run("COMMIT")
}

/** Opens (or creates) the DuckDB database `file`, runs `use` on a connection, and closes both. */
export const withDatabase = async <A>(file: string, use: (connection: DuckDBConnection) => Promise<A>): Promise<A> => {
  const db = await DuckDBInstance.create(file)
  try {
    const connection = await db.connect()
    try {
      return await use(connection)
    } finally {
      connection.closeSync()
    }
  } finally {
    db.closeSync()
  }
}

/**
 * A database as replaceFile's content: `build` makes it at the temporary name (anything a failed
 * attempt left there goes first), and the write-ahead log DuckDB may leave beside it goes after,
 * built or not, so the one file renamed into place holds everything.
 */
export const databaseContent = (build: (file: string) => Promise<void>) => async (file: string): Promise<void> => {
  try {
    await Promise.all([fs.rm(file, { force: true }), fs.rm(`${file}.wal`, { force: true })])
    await build(file)
  } finally {
    await fs.rm(`${file}.wal`, { force: true })
  }
}

const PREFIX = "catalog-template-"
/** Templates kept: one per chainetl version (or set of datasets) in use; older ones go when a new one is made. */
const KEEP = 8

const prune = async (dir: string): Promise<void> => {
  const names = (await fs.readdir(dir)).filter((n) => n.startsWith(PREFIX) && n.endsWith(".duckdb"))
  const dated = await Promise.all(names.map(async (n) => ({ n, at: (await fs.stat(path.join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })))
  for (const { n } of dated.sort((a, b) => b.at - a.at).slice(KEEP)) await fs.rm(path.join(dir, n), { force: true })
}

const keyOf = (batches: ReadonlyArray<CatalogBatch>): string => {
  const h = createHash("sha256").update(`duckdb ${duckdbVersion()}\n`)
  for (const b of batches) h.update(`-- ${b.dataset}\n${b.statements.join("\n")}\n`)
  return h.digest("hex").slice(0, 32)
}

/**
 * The cached template holding `batches` (each dataset's statements with no files), built first
 * when missing; undefined when the cache cannot be used (the caller builds everything).
 */
export const catalogTemplate = async (batches: ReadonlyArray<CatalogBatch>): Promise<string | undefined> => {
  const dir = cacheDir()
  const file = path.join(dir, `${PREFIX}${keyOf(batches)}.duckdb`)
  // a hit is touched, so the templates in use are the newest when old ones are pruned
  const now = new Date()
  if (await fs.utimes(file, now, now).then(() => true, () => false)) return file
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 })
    // two processes building it at once build equal catalogs: whichever rename lands last wins
    await replaceFile(file, databaseContent((tmp) => withDatabase(tmp, (connection) => runBatches(connection, batches))))
    await prune(dir)
    return file
  } catch {
    return undefined
  }
}
