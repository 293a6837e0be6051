/**
 * Parquet writer benchmark: which writer ParquetSink should use, measured on this machine.
 *
 *   npm run bench -- --rows 200000 --repeat 3   (all writers × flat and nested datasets, best of 3)
 *   node --import tsx bench/parquet-writers.ts --rows 50000 --writer duckdb-appender
 *
 * Each (writer, dataset) runs in its own child process so peak RSS belongs to that writer alone.
 * Per run: rows/s of the write (row generation excluded), total file size, peak RSS (and how far
 * it rose above the RSS after generating the rows), and a lossless check: every value read back
 * through DuckDB compared with what was written, including int64 2^53+1 and uint64 2^64−1 cells,
 * plus whether DuckDB sees each column with its declared type.
 */
import { DuckDBInstance, quotedString } from "@duckdb/node-api"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { sqlTypeOf } from "../src/sink/DuckTypes.ts"
import { canonicalFromDuck, canonicalRow } from "../src/sink/ReadBack.ts"
import { type BenchDataset, datasets } from "./data.ts"
import { duckdbAppender, duckdbAppenderPartsFresh, duckdbAppenderPartsShared } from "./writers/duckdbAppender.ts"
import { ndjsonReadJson } from "./writers/ndjson.ts"
import { parquetjsLite } from "./writers/parquetjsLite.ts"
import { parquetWasm } from "./writers/parquetWasm.ts"
import type { Writer } from "./writers/types.ts"

const writers: Readonly<Record<string, Writer>> = {
  "duckdb-appender": duckdbAppender,
  "duckdb-appender-parts": duckdbAppenderPartsShared,
  "duckdb-appender-parts-fresh": duckdbAppenderPartsFresh,
  "ndjson-read-json": ndjsonReadJson,
  "parquetjs-lite": parquetjsLite,
  "parquet-wasm": parquetWasm
}

interface Result {
  readonly writer: string
  readonly dataset: string
  readonly rows: number
  readonly seconds: number
  /** CPU time of the write in all threads of the process: steadier than wall time on a busy machine. */
  readonly cpuSeconds: number
  readonly bytes: number
  readonly peakRss: number
  readonly rssAfterRows: number
  readonly mismatches: number
  readonly firstMismatch: string
  readonly probes: Readonly<Record<string, boolean>>
  readonly typesExact: number
  readonly typesTotal: number
  readonly typeDiffs: string
  /** 1-minute load average when the write ended: on a shared machine, how disturbed the run was. */
  readonly load: number
  readonly error?: string
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? undefined : process.argv[i + 1]
}

/** Leaves compared as text: a value that survived with another JS type is a type issue, not a loss. */
const leafText = (v: unknown): unknown => {
  if (v === null || v === undefined) return null
  if (Array.isArray(v)) return v.map(leafText)
  if (v instanceof Uint8Array) return Buffer.from(v).toString("hex")
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, leafText(x)]))
  return String(v)
}

const firstDifference = (a: unknown, b: unknown, where: string): string | undefined => {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return a === b ? undefined : `${where}: wrote ${String(a)}, read ${String(b)}`
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${where}.${key}`)
    if (d !== undefined) return d
  }
  return undefined
}

const check = async (dataset: BenchDataset, rows: ReadonlyArray<Record<string, unknown>>, files: ReadonlyArray<string>) => {
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  const list = `[${[...files].sort().map(quotedString).join(", ")}]`
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list})`)).getRowObjectsJS()
  // DESCRIBE quotes struct field names only when it must; the DDL spelling always does
  const unquoted = (t: string) => t.replaceAll('"', "")
  const actualTypes = new Map(described.map((d) => [String(d["column_name"]), unquoted(String(d["column_type"]))]))
  const typeDiffs = dataset.schema.fields
    .filter((f) => actualTypes.get(f.name) !== unquoted(sqlTypeOf(f.type, f.name)))
    .map((f) => `${f.name}: ${actualTypes.get(f.name) ?? "missing"}`)
  const result = await connection.stream(
    `SELECT * EXCLUDE (filename, file_row_number) FROM read_parquet(${list}, filename = true, file_row_number = true) ORDER BY filename, file_row_number`
  )
  const names = result.deduplicatedColumnNames()
  let index = 0
  let mismatches = 0
  let firstMismatch = ""
  const probes: Record<string, boolean> = {}
  for (;;) {
    const chunk = await result.fetchChunk()
    if (chunk === null || chunk.rowCount === 0) break
    for (const raw of chunk.getRowObjects(names)) {
      const read = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, canonicalFromDuck(v)]))
      if (index === 0) {
        for (const p of dataset.probes) probes[p.label] = leafText(p.pick(read)) === String(p.expected)
      }
      const written = rows[index] === undefined ? undefined : canonicalRow(dataset.schema.fields, rows[index]!)
      const d = firstDifference(leafText(written), leafText(read), `row ${index}`)
      if (d !== undefined) {
        mismatches++
        if (firstMismatch === "") firstMismatch = d
      }
      index++
    }
  }
  if (index !== rows.length) {
    mismatches += Math.abs(rows.length - index)
    firstMismatch ||= `read ${index} rows of ${rows.length}`
  }
  connection.closeSync()
  db.closeSync()
  return { mismatches, firstMismatch, probes, typesExact: dataset.schema.fields.length - typeDiffs.length, typesTotal: dataset.schema.fields.length, typeDiffs: typeDiffs.join("; ") }
}

const child = async (writerId: string, datasetName: string, n: number): Promise<Result> => {
  const writer = writers[writerId]!
  const dataset = datasets.find((d) => d.name === datasetName)!
  const rows = dataset.rows(n)
  const rssAfterRows = process.memoryUsage().rss
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `chainetl-bench-${writerId}-`))
  const base = { writer: writer.name, dataset: dataset.name, rows: n, rssAfterRows, load: 0, cpuSeconds: 0 }
  try {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const files = await writer.write(dataset.schema, rows, dir)
    const seconds = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    const load = os.loadavg()[0]!
    const peakRss = process.resourceUsage().maxRSS * 1024
    const sizes = await Promise.all(files.map((f) => fs.stat(f).then((s) => s.size)))
    const checked = await check(dataset, rows, files)
    return { ...base, seconds, cpuSeconds, load, bytes: sizes.reduce((a, b) => a + b, 0), peakRss, ...checked }
  } catch (e) {
    return {
      ...base,
      seconds: 0,
      bytes: 0,
      peakRss: process.resourceUsage().maxRSS * 1024,
      mismatches: -1,
      firstMismatch: "",
      probes: {},
      typesExact: 0,
      typesTotal: dataset.schema.fields.length,
      typeDiffs: "",
      error: String(e instanceof Error ? e.message : e).slice(0, 200)
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1)

const formatTable = (results: ReadonlyArray<Result>): string => {
  const header = ["dataset", "writer", "rows/s", "rows/CPU-s", "file MB", "peak RSS MB (+over rows)", "lossless", "2^53+1", "2^64-1", "types exact", "load"]
  const lines = results.map((r) =>
    r.error !== undefined
      ? [r.dataset, r.writer, "failed", "", "", mb(r.peakRss), r.error, "", "", "", ""]
      : [
          r.dataset,
          r.writer,
          Math.round(r.rows / r.seconds).toLocaleString("en-US"),
          Math.round(r.rows / r.cpuSeconds).toLocaleString("en-US"),
          mb(r.bytes),
          `${mb(r.peakRss)} (+${mb(r.peakRss - r.rssAfterRows)})`,
          r.mismatches === 0 ? "yes" : `NO: ${r.mismatches} rows differ`,
          r.probes["2^53+1"] ? "ok" : "LOST",
          r.probes["2^64-1"] ? "ok" : "LOST",
          `${r.typesExact}/${r.typesTotal}`,
          r.load.toFixed(1)
        ]
  )
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const row = (cells: ReadonlyArray<string>) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`
  const notes = results
    .filter((r) => r.error === undefined && (r.mismatches > 0 || r.typeDiffs !== ""))
    .map((r) => `- ${r.writer} / ${r.dataset}: ${r.firstMismatch}${r.firstMismatch && r.typeDiffs ? "; " : ""}${r.typeDiffs ? `types: ${r.typeDiffs}` : ""}`)
  return [row(header), row(widths.map((w) => "-".repeat(w))), ...lines.map(row), "", ...notes].join("\n")
}

/** Runs every writer on every dataset, each in a child process, and prints the table. */
export const runParquetWriters = async (argv: ReadonlyArray<string>): Promise<string> => {
  const rowsIndex = argv.indexOf("--rows")
  const n = rowsIndex < 0 ? 200_000 : Number(argv[rowsIndex + 1])
  const only = argv.includes("--writer") ? [argv[argv.indexOf("--writer") + 1]!] : Object.keys(writers)
  const repeatIndex = argv.indexOf("--repeat")
  const repeat = repeatIndex < 0 ? 1 : Number(argv[repeatIndex + 1])
  const self = fileURLToPath(import.meta.url)
  const results: Result[] = []
  console.log(
    `parquet writers: ${n.toLocaleString("en-US")} rows, best of ${repeat}, node ${process.version}, ${os.cpus().length} cores`
  )
  for (const dataset of datasets) {
    for (const writerId of only) {
      // best of N: on a shared machine the fastest run is the one least disturbed by other work
      let best: Result | undefined
      for (let attempt = 0; attempt < repeat; attempt++) {
        const out = execFileSync(
          process.execPath,
          ["--import", "tsx", self, "--child", "--writer", writerId, "--dataset", dataset.name, "--rows", String(n)],
          { maxBuffer: 16 * 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] }
        )
        const result = JSON.parse(out.toString().trim().split("\n").at(-1)!) as Result
        console.log(
          `  ${dataset.name} / ${result.writer}: ${result.error ?? `${result.seconds.toFixed(2)} s (CPU ${result.cpuSeconds.toFixed(2)} s), load ${result.load.toFixed(1)}`}`
        )
        if (best === undefined || (result.error === undefined && (best.error !== undefined || result.seconds < best.seconds))) best = result
        if (result.error !== undefined) break
      }
      results.push(best!)
    }
  }
  const table = formatTable(results)
  console.log(`\n${table}`)
  return table
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--child")) {
    const result = await child(arg("writer")!, arg("dataset")!, Number(arg("rows")))
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } else {
    await runParquetWriters(process.argv.slice(2))
  }
}
