/**
 * Keys already committed for a slice, read back from its Parquet parts. Used only when a listing
 * restarts from its first page (expired token), to skip rows that are already on disk.
 * Memory is one slice's keys, and only during a restart: as digests (~40 bytes a key, ~42 MB for
 * a 1M-row slice; a `Set` of the key texts took more than twice that:
 * docs/performance.md#crawl-memory-part-size-and-the-listing-guard).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Context, Effect, Layer } from "effect"
import { promises as fs } from "node:fs"
import * as path from "node:path"
import { SinkError } from "../Errors.ts"
import { holdsPartOf, readManifest } from "../compact/Manifest.ts"
import { KeyDigests } from "./KeyDigests.ts"

export class CommittedKeys extends Context.Tag("chainetl/CommittedKeys")<
  CommittedKeys,
  {
    /**
     * The keys as digests with `seed`: the listing guard's seed of their kind (`ROW_SEED` for a
     * dataset's rows, `REJECT_SEED` for `_rejects`), so it looks them up with the digest it made
     * of the page's key anyway.
     */
    readonly digests: (
      dataset: string,
      slice: string,
      columns: ReadonlyArray<string>,
      seed: number
    ) => Effect.Effect<KeyDigests, SinkError>
  }
>() {
  static readonly layer = (outDir: string) =>
    Layer.succeed(CommittedKeys, {
      digests: (d, s, c, seed) => readKeys(outDir, d, s, c, seed)
    })
}

/**
 * The key of a row as the crawler compares it: columns joined by a separator no value contains.
 * Instants are epoch microseconds so a JS Date and a Parquet TIMESTAMPTZ spell the same key.
 */
export const keyOf = (row: Record<string, unknown>, columns: ReadonlyArray<string>): string => {
  // the usual key is one text column: no array and join per record
  if (columns.length === 1) {
    const v = row[columns[0]!]
    return typeof v === "string" ? v : keyPart(v)
  }
  return columns.map((c) => keyPart(row[c])).join("\u0001")
}

const keyPart = (v: unknown): string => (v instanceof Date ? String(BigInt(v.getTime()) * 1000n) : String(v))

/** The SQL twin of keyPart for a column of the given DuckDB type. */
const sqlKeyPart = (column: string, type: string): string =>
  type.startsWith("TIMESTAMP") ? `epoch_us("${column}")::VARCHAR` : `CAST("${column}" AS VARCHAR)`

const partsOf = async (dir: string, slice: string): Promise<string[]> => {
  const out: string[] = []
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else if (e.name.startsWith(`part-${slice}-`) && e.name.endsWith(".parquet")) out.push(p)
    }
  }
  await walk(dir)
  return out
}

const readKeys = (outDir: string, dataset: string, slice: string, columns: ReadonlyArray<string>, seed: number) =>
  Effect.tryPromise({
    try: async () => {
      // a slice that may restart its listing is never compacted (src/CompactionPolicy.ts): its keys
      // are in its own parts. Should that ever not hold, skipping too few keys would double rows
      const merged = holdsPartOf(await readManifest(outDir, dataset), slice, () => true)
      if (merged !== undefined) throw new Error(`slice ${slice} has parts merged into ${merged}: its committed keys cannot be told apart`)
      const files = await partsOf(path.join(outDir, dataset), slice)
      if (files.length === 0) return KeyDigests.of(seed, [])
      const db = await DuckDBInstance.create(":memory:")
      const conn = await db.connect()
      try {
        const list = files.map((f) => `'${f.replaceAll("'", "''")}'`).join(", ")
        const source = `read_parquet([${list}], hive_partitioning = false, union_by_name = true)`
        const described = await conn.runAndReadAll(`DESCRIBE SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM ${source}`)
        const types = new Map(described.getRowObjectsJS().map((r) => [String(r["column_name"]), String(r["column_type"])]))
        const cols = columns.map((c) => sqlKeyPart(c, types.get(c) ?? "VARCHAR")).join(" || chr(1) || ")
        // Parquet footers hold the row count: the digest table is sized once, without a scan
        const counted = await conn.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM ${source}`)
        const into = KeyDigests.builder(seed, Number(counted.getRows()[0]?.[0] ?? 0))
        // chunk by chunk (2,048 rows): never all the key texts at once, only what they become
        const result = await conn.stream(`SELECT ${cols} AS k FROM ${source}`)
        for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
          for (const k of chunk.getColumnValues(0)) into.add(String(k))
        }
        return into.done()
      } finally {
        conn.closeSync()
        db.closeSync()
      }
    },
    catch: (e) => new SinkError({ reason: "Io", path: path.join(outDir, dataset), detail: `reading committed keys: ${String(e)}` })
  })
