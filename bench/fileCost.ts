/**
 * What one more file costs the sink (issue 11's "per-file overhead ≤ 2 ms CPU"): the same rows
 * written through the production sink (`ParquetSink.layer`: staging, one COPY per part, fsync,
 * rename) once as few large files and once spread over many partitions, in the same process,
 * interleaved, medians. The difference in CPU divided by the difference in files is the cost of a
 * file beyond its rows. `npm run bench -- --file-cost [--repeat N]`.
 *
 * The runs' folders are removed after the last run, not after each: on ext4 without a journal
 * (this machine's disk) a new inode is allocated past every inode freed in the last ~5 s, one
 * lookup each, so removing a run's 2,000 files made the next run's file creations cost
 * noticeably more per file (measured: docs/performance.md#the-bench-and-its-scripts), a cost a
 * run of chainetl does not pay: it removes no thousands of files before it writes. For the same
 * reason, start it again only ~5 s after the last ended.
 */
import { Effect } from "effect"
import { promises as fs } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ParquetSink } from "../src/sink/ParquetSink.ts"
import { datasets } from "./data.ts"

const PARTS = 10
const ROWS_PER_PART = 2_000
const MANY_PARTITIONS = 200

const cpuSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** CPU seconds and files of writing PARTS parts of the rows, each spread over `partitions` partitions. */
const writeAll = (name: string, partitions: number) =>
  Effect.gen(function* () {
    const sink = yield* ParquetSink
    const bench = datasets.find((d) => d.name === name)!
    const rows = bench.rows(PARTS * ROWS_PER_PART)
    // the partition of each row is fixed before the clock starts: only the sink is measured
    const groupOf = new Map(rows.map((r, i) => [r, String(i % partitions)]))
    const partitionBy = [{ key: "p", type: "VARCHAR" as const, value: (r: Record<string, unknown>) => groupOf.get(r)! }]
    const start = cpuSeconds()
    let files = 0
    for (let seq = 0; seq < PARTS; seq++) {
      const part = rows.slice(seq * ROWS_PER_PART, (seq + 1) * ROWS_PER_PART)
      files += (yield* sink.writePart({ dataset: name, slice: "bench", seq, schema: bench.schema, rows: part, partitionBy })).length
    }
    return { cpu: cpuSeconds() - start, files }
  })

/** Every run's output folder, removed once all runs are done. */
const folders: string[] = []

const once = (name: string, partitions: number) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const out = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "chainetl-filecost-")))
        folders.push(out)
        return yield* writeAll(name, partitions).pipe(Effect.provide(ParquetSink.layer(out)))
      })
    )
  )

const measure = async (repeat: number): Promise<void> => {
  for (const name of ["flat", "nested"]) {
    await once(name, 1) // warm-up: module code, DuckDB's first COPY
    const few: number[] = []
    const many: number[] = []
    let files = { few: 0, many: 0 }
    for (let r = 0; r < repeat; r++) {
      const a = await once(name, 1)
      const b = await once(name, MANY_PARTITIONS)
      few.push(a.cpu)
      many.push(b.cpu)
      files = { few: a.files, many: b.files }
    }
    const perFileMs = ((median(many) - median(few)) / (files.many - files.few)) * 1000
    console.log(
      `${name.padEnd(7)} ${files.few} files: ${median(few).toFixed(3)} CPU-s; ${files.many} files: ${median(many).toFixed(3)} CPU-s; ` +
        `per extra file ${perFileMs.toFixed(2)} ms CPU`
    )
  }
}

export const runFileCost = async (argv: ReadonlyArray<string>): Promise<void> => {
  const i = argv.indexOf("--repeat")
  const repeat = i >= 0 ? Number(argv[i + 1]) : 5
  console.log(`file cost: ${PARTS} parts of ${ROWS_PER_PART} rows, 1 vs ${MANY_PARTITIONS} partitions, median of ${repeat}, interleaved`)
  try {
    await measure(repeat)
  } finally {
    for (const out of folders.splice(0)) await fs.rm(out, { recursive: true, force: true })
  }
}
