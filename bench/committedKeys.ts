/**
 * Memory of reading a restarting slice's committed keys (issue 11): `npm run bench -- --committed-keys [--rows N]`.
 * Writes N keys (0x hashes, 66 characters, as evm tx hashes) as four Parquet parts of one slice,
 * then reads them in a fresh child process per form: the digests the crawler keeps
 * (`CommittedKeys.digests`) and, for comparison, the key texts in a `Set` (what it kept before,
 * read here with one DuckDB query), and prints what each holds after a full collection (heap and array buffers) and
 * the child's peak RSS (DuckDB's reading included).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { SinkError } from "../src/Errors.ts"

const MB = 2 ** 20

interface Measured {
  readonly form: string
  readonly keys: number
  /** Heap and array buffers held after a full collection, beyond what the child held before. */
  readonly retainedBytes: number
  readonly peakRssBytes: number
}

/** The key texts as a `Set`, read in chunks as the crawler read them before it kept digests. */
const textSet = async (out: string): Promise<Set<string>> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const keys = new Set<string>()
  const result = await conn.stream(`SELECT tx_hash FROM read_parquet('${path.join(out, "txs", "*", "part-w1-*.parquet")}')`)
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (const [k] of chunk.getRows()) keys.add(String(k))
  }
  conn.closeSync()
  db.closeSync()
  return keys
}

/** In the child: read the keys in one form and measure. */
const child = async (out: string, form: "read" | "digests", modulePath: string): Promise<void> => {
  const { CommittedKeys } = (await import(modulePath)) as typeof import("../src/crawl/CommittedKeys.ts")
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error("run with --expose-gc")
  const held = () => {
    gc()
    const m = process.memoryUsage()
    return m.heapUsed + m.arrayBuffers
  }
  const before = held()
  const keys =
    form === "read"
      ? await textSet(out)
      : await Effect.runPromise(
          Effect.flatMap(CommittedKeys, (k): Effect.Effect<{ readonly size: number }, SinkError> => k.digests("txs", "w1", ["tx_hash"], 1)).pipe(
            Effect.provide(CommittedKeys.layer(out))
          )
        )
  const retained = held() - before
  const result: Measured = { form, keys: keys.size, retainedBytes: retained, peakRssBytes: process.resourceUsage().maxRSS * 1024 }
  process.stdout.write(JSON.stringify(result))
}

const writeParts = async (out: string, rows: number): Promise<void> => {
  const dir = path.join(out, "txs", "date=2024-03-01")
  fs.mkdirSync(dir, { recursive: true })
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const quarter = Math.ceil(rows / 4)
  for (let p = 0; p < 4; p++) {
    const from = p * quarter
    const to = Math.min(rows, from + quarter)
    await conn.run(
      `COPY (SELECT '0x' || lpad(lower(to_hex(i * 2654435761)), 64, '0') AS tx_hash FROM range(${from}, ${to}) t(i)) TO '${path.join(dir, `part-w1-${p}.parquet`)}' (FORMAT parquet)`
    )
  }
  conn.closeSync()
  db.closeSync()
}

export const committedKeysBench = async (rows: number, modulePath = "../src/crawl/CommittedKeys.ts"): Promise<Measured[]> => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "chainetl-committed-keys-bench-"))
  try {
    await writeParts(out, rows)
    const self = fileURLToPath(import.meta.url)
    const measured = (["read", "digests"] as const).map((form) => {
      const text = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", self, "--child", out, form, modulePath], { encoding: "utf8" })
      return JSON.parse(text) as Measured
    })
    for (const m of measured) {
      console.log(
        `${m.form.padEnd(8)} ${m.keys.toLocaleString("en-US")} keys: held ${(m.retainedBytes / MB).toFixed(1)} MB (${(m.retainedBytes / m.keys).toFixed(0)} bytes a key), peak RSS ${(m.peakRssBytes / MB).toFixed(0)} MB`
      )
    }
    return measured
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
}

const argv = process.argv.slice(2)
if (argv[0] === "--child") {
  await child(argv[1]!, argv[2] as "read" | "digests", argv[3]!)
}
