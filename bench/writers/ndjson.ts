/**
 * NDJSON staged to disk, then DuckDB `read_json` with explicit `columns` (so nothing is inferred)
 * and `COPY … zstd`. Bigints go out as bare JSON numbers: DuckDB reads even 38-digit numbers into
 * DECIMAL(38,0) exactly (checked on 1.5), whereas strings would cost a VARCHAR→DECIMAL cast, the
 * slow path. Node 20's JSON.stringify cannot print a bigint bare, so it prints a marked string
 * that one regex unquotes. Dates go out as ISO strings.
 */
import { DuckDBInstance, quotedIdentifier, quotedString } from "@duckdb/node-api"
import { createWriteStream } from "node:fs"
import { once } from "node:events"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlTypeOf } from "../../src/sink/DuckTypes.ts"
import type { Writer } from "./types.ts"

const LINES_PER_WRITE = 1000

const MARK = "\u0001n"
const replacer = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? `${MARK}${value}` : value)
const UNQUOTE = /"\\u0001n(-?\d+)"/g

export const ndjsonReadJson: Writer = {
  name: "NDJSON + read_json (columns)",
  write: async (schema, rows, dir) => {
    await fs.mkdir(dir, { recursive: true })
    const staged = path.join(dir, "rows.ndjson")
    const out = path.join(dir, "part.parquet")
    const stream = createWriteStream(staged)
    for (let from = 0; from < rows.length; from += LINES_PER_WRITE) {
      const lines = rows.slice(from, from + LINES_PER_WRITE).map((r) => JSON.stringify(r, replacer))
      if (!stream.write(`${lines.join("\n").replace(UNQUOTE, "$1")}\n`)) await once(stream, "drain")
    }
    stream.end()
    await once(stream, "finish")
    const columns = schema.fields.map((f) => `${quotedString(f.name)}: ${quotedString(sqlTypeOf(f.type, f.name))}`).join(", ")
    const select = schema.fields.map((f) => quotedIdentifier(f.name)).join(", ")
    const db = await DuckDBInstance.create(":memory:")
    const connection = await db.connect()
    await connection.run(
      `COPY (SELECT ${select} FROM read_json(${quotedString(staged)}, format = 'newline_delimited', columns = {${columns}})) ` +
        `TO ${quotedString(out)} (FORMAT parquet, COMPRESSION zstd)`
    )
    connection.closeSync()
    db.closeSync()
    await fs.rm(staged)
    return [out]
  }
}
