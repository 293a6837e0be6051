/**
 * Schema versions of each dataset. A dataset's schema is its Arrow schema as the catalog reads it
 * (column names, DuckDB types, nullability, in order); its hash is the first 16 hex of the SHA-256
 * of that canonical text. Each catalog build appends a dataset's hash to its history,
 * `_state/schemas/<dataset>.json`, when it differs from the last one recorded: the history numbers
 * the versions 1, 2, … in the order the catalog first met them, and the catalog's
 * `chainetl_schema_versions` table shows it, with how many files on disk hold each version's
 * columns (a file written before a column was added holds an older version's; the view reads
 * both, the missing column as NULL).
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type * as arrow from "../ArrowTypes.ts"
import { sqlTypeOf } from "./DuckTypes.ts"
import { replaceFile } from "../files/Durable.ts"

export const SCHEMA_DIR = path.join("_state", "schemas")

/** The catalog table listing every dataset's schema versions. */
export const SCHEMA_TABLE = "chainetl_schema_versions"

export interface SchemaColumn {
  readonly name: string
  readonly type: string
  readonly nullable: boolean
}

export interface SchemaVersion {
  readonly version: number
  readonly hash: string
  readonly columns: ReadonlyArray<SchemaColumn>
  /** When a catalog build first met it (ISO instant). */
  readonly firstSeen: string
}

export interface SchemaHistory {
  readonly dataset: string
  readonly versions: ReadonlyArray<SchemaVersion>
}

export const schemaColumns = (schema: arrow.Schema, name: string): ReadonlyArray<SchemaColumn> =>
  schema.fields.map((f) => ({ name: f.name, type: sqlTypeOf(f.type, `${name}.${f.name}`), nullable: f.nullable }))

export const schemaHash = (columns: ReadonlyArray<SchemaColumn>): string =>
  createHash("sha256")
    .update(columns.map((c) => `${c.name} ${c.type}${c.nullable ? "" : " NOT NULL"}`).join("\n"))
    .digest("hex")
    .slice(0, 16)

const historyPath = (outDir: string, dataset: string) => path.join(outDir, SCHEMA_DIR, `${dataset}.json`)

export const readHistory = async (outDir: string, dataset: string): Promise<SchemaHistory> => {
  const text = await fs.readFile(historyPath(outDir, dataset), "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined
    throw e
  })
  if (text === undefined) return { dataset, versions: [] }
  const parsed = JSON.parse(text) as SchemaHistory
  if (parsed.dataset !== dataset || !Array.isArray(parsed.versions)) throw new Error(`${historyPath(outDir, dataset)} is not a schema history of ${dataset}`)
  return parsed
}

/**
 * The history with the dataset's current schema as its last version: unchanged when it already
 * is, else appended and the file replaced (replaceFile). A schema that returns to an older
 * shape gets a new version number: versions follow time, not shapes.
 */
export const recordSchema = async (outDir: string, dataset: string, schema: arrow.Schema, now: Date): Promise<SchemaHistory> => {
  const history = await readHistory(outDir, dataset)
  const columns = schemaColumns(schema, dataset)
  const hash = schemaHash(columns)
  if (history.versions.at(-1)?.hash === hash) return history
  const next: SchemaHistory = {
    dataset,
    versions: [...history.versions, { version: history.versions.length + 1, hash, columns, firstSeen: now.toISOString() }]
  }
  await replaceFile(historyPath(outDir, dataset), `${JSON.stringify(next, null, 1)}\n`)
  return next
}
