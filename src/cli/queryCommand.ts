/**
 * `chainetl query "<sql>"`: one SQL statement over the catalog, opened read-only (a running
 * nightly can rebuild it meanwhile: the rename leaves this reader on the old file). Prints an
 * aligned table, or CSV / JSON / Parquet to `--output FILE` or stdout. A bad statement is a
 * usage error (exit 2) naming DuckDB's own message: the parser's, the binder's (unknown column
 * or view, with its suggestions) or the read-only refusal of a write. `--file FILE` reads the
 * statement from a file (the shipped analyses in examples/), comments and all.
 */
import { DuckDBInstance, quotedString } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { ConfigError, SinkError } from "../Errors.ts"
import { CATALOG_FILE } from "../sink/Catalog.ts"
import { refuseBucket, resolveOut } from "./output.ts"
import { table } from "./table.ts"

export const QUERY_FORMATS = ["table", "csv", "json", "parquet"] as const
export type QueryFormat = (typeof QUERY_FORMATS)[number]

export interface QueryArgs {
  /** The statement; or `file`, a file holding it (exactly one of the two). */
  readonly sql: string | undefined
  readonly file?: string | undefined
  readonly out: string | undefined
  readonly format: QueryFormat
  readonly output: string | undefined
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n").filter((l) => l.trim() !== "").slice(0, 3).join(" ")

export const queryCommand = (args: QueryArgs) =>
  Effect.gen(function* () {
    yield* refuseBucket(args.out, "query")
    const database = path.join(resolveOut(args.out), CATALOG_FILE)
    const exists = yield* Effect.promise(() => fs.stat(database).then(() => true, () => false))
    if (!exists) {
      return yield* Effect.fail(new ConfigError({ reason: "Missing", field: args.out === undefined ? "CHAINETL_OUT" : "--out", detail: `no catalog at ${database}`, fix: "pass the output folder of a run with --out, or run chainetl catalog there" }))
    }
    if ((args.sql === undefined) === (args.file === undefined)) {
      return yield* Effect.fail(new ConfigError({ reason: "Missing", field: "sql", detail: args.sql === undefined ? "no statement given" : "both a statement and --file given", fix: 'pass one statement, e.g. chainetl query "SELECT count(*) FROM delegators_latest", or --file FILE' }))
    }
    const statement = args.file === undefined
      ? args.sql!
      : yield* Effect.tryPromise({
          try: () => fs.readFile(path.resolve(args.file!), "utf8"),
          catch: (e) => new ConfigError({ reason: "Invalid", field: "--file", detail: `cannot read ${args.file}: ${firstLine(e)}`, fix: "pass a readable file holding one SQL statement" })
        })
    const sql = statement.trim().replace(/;\s*$/, "")
    if (sql === "") return yield* Effect.fail(new ConfigError({ reason: "Missing", field: "sql", detail: "the SQL is empty", fix: 'pass one statement, e.g. chainetl query "SELECT count(*) FROM delegators_latest"' }))
    const db = yield* Effect.tryPromise({
      try: () => DuckDBInstance.create(database, { access_mode: "READ_ONLY" }),
      catch: (e) => new SinkError({ reason: "Io", path: database, detail: firstLine(e) })
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => db.closeSync()))
    const connection = yield* Effect.promise(() => db.connect())
    yield* Effect.addFinalizer(() => Effect.sync(() => connection.closeSync()))
    const badSql = (e: unknown) => new ConfigError({ reason: "Invalid", field: "SQL", detail: firstLine(e), fix: "correct the statement (views: SELECT view_name FROM duckdb_views() WHERE NOT internal)" })
    if (args.format === "csv" || args.format === "parquet") {
      // DuckDB writes the file itself: exact decimals, nested types kept in Parquet; the newline
      // ends a trailing -- comment of a --file statement before the parenthesis
      // to stdout through a temporary file: DuckDB opening /dev/stdout would truncate a redirected file
      const tmpDir = args.output === undefined ? yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "chainetl-query-"))) : undefined
      if (tmpDir !== undefined) yield* Effect.addFinalizer(() => Effect.promise(() => fs.rm(tmpDir, { recursive: true, force: true })))
      const target = tmpDir === undefined ? path.resolve(args.output!) : path.join(tmpDir, `result.${args.format}`)
      const options = args.format === "csv" ? "FORMAT csv, HEADER true" : "FORMAT parquet, COMPRESSION zstd"
      yield* Effect.tryPromise({ try: () => connection.run(`COPY (${sql}\n) TO ${quotedString(target)} (${options})`), catch: badSql })
      if (tmpDir !== undefined) {
        const bytes = yield* Effect.promise(() => fs.readFile(target))
        yield* Effect.async<void>((resume) => void process.stdout.write(bytes, () => resume(Effect.void)))
      }
      return
    }
    const result = yield* Effect.tryPromise({ try: () => connection.runAndReadAll(sql), catch: badSql })
    const text =
      args.format === "json"
        ? `${JSON.stringify(result.getRowObjectsJson(), null, 1)}\n`
        : `${table(
            result.columnNames(),
            result.getRowsJson().map((r) => r.map((v) => (v === null ? "NULL" : typeof v === "object" ? JSON.stringify(v) : v)) as Array<string | number>)
          )}\n(${result.currentRowCount} row${result.currentRowCount === 1 ? "" : "s"})\n`
    if (args.output === undefined) process.stdout.write(text)
    else yield* Effect.tryPromise({ try: () => fs.writeFile(path.resolve(args.output!), text), catch: (e) => new SinkError({ reason: "Io", path: args.output!, detail: firstLine(e) }) })
  }).pipe(Effect.scoped)
