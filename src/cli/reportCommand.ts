/**
 * `chainetl report`: one self-contained HTML page about an output folder, for the morning after
 * a night: per dataset rows per day and the days or heights without data, freshness and lag,
 * files and size per partition, the last runs with their failures, and the example analyses as
 * charts. It reads the folder (the catalog opened read-only, checkpoints, run reports) and writes
 * nothing but the page: `<out>/report.html`, or `--file`.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ConfigError, ReportError } from "../Errors.ts"
import { replaceFile } from "../files/Durable.ts"
import { stateLayer } from "../state/StateLayer.ts"
import { ChartRenderer } from "../report/ChartRenderer.ts"
import { CatalogReader } from "../report/CatalogReader.ts"
import { collectReport, type ExampleFile } from "../report/collect.ts"
import { bytesText } from "../report/format.ts"
import { renderReport } from "../report/render.ts"
import { CATALOG_FILE } from "../sink/Catalog.ts"
import { refuseBucket, resolveOut } from "./output.ts"

/** The shipped analyses (the chunks of dist/cli sit two folders down, as this file does). */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../examples/", import.meta.url))

/** The page's name inside the output folder when --file is not given. */
export const REPORT_FILE = "report.html"

export interface ReportArgs {
  readonly out: string | undefined
  readonly file: string | undefined
}

/** The analyses to run: every `.sql` of `dir`, by name (none when the folder is gone). */
const readExamples = (dir: string) =>
  Effect.tryPromise({
    try: async (): Promise<ReadonlyArray<ExampleFile>> => {
      const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".sql")).sort()
      return Promise.all(names.map(async (f) => ({ name: f.slice(0, -".sql".length), sql: await fs.readFile(path.join(dir, f), "utf8") })))
    },
    catch: (e) => new ReportError({ reason: "Read", what: dir, detail: e instanceof Error ? e.message : String(e) })
  })

const kindOf = (p: string) =>
  fs.stat(p).then(
    (s) => (s.isDirectory() ? "directory" : "file"),
    () => "missing" as const
  )

/** Where the page goes; a --file whose folder is missing or that names a folder is refused before any work. */
const targetOf = (out: string, file: string | undefined) =>
  Effect.gen(function* () {
    if (file === undefined) return path.join(out, REPORT_FILE)
    const target = path.resolve(file)
    if ((yield* Effect.promise(() => kindOf(target))) === "directory") {
      return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--file", detail: `${target} is a folder`, fix: `name a file, e.g. --file ${path.join(file, REPORT_FILE)}` }))
    }
    if ((yield* Effect.promise(() => kindOf(path.dirname(target)))) !== "directory") {
      return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--file", detail: `no folder ${path.dirname(target)}`, fix: "create the folder first, or name a file in an existing one" }))
    }
    return target
  })

export const reportCommand = (args: ReportArgs) =>
  Effect.gen(function* () {
    yield* refuseBucket(args.out, "report")
    const out = resolveOut(args.out)
    const catalogFile = path.join(out, CATALOG_FILE)
    if ((yield* Effect.promise(() => kindOf(catalogFile))) !== "file") {
      return yield* Effect.fail(
        new ConfigError({ reason: "Missing", field: args.out === undefined ? "CHAINETL_OUT" : "--out", detail: `no catalog at ${catalogFile}`, fix: "pass the output folder of a run with --out, or run chainetl catalog there" })
      )
    }
    const target = yield* targetOf(out, args.file)
    const examples = yield* readExamples(EXAMPLES_DIR)
    const report = yield* collectReport(out, catalogFile, examples, new Date()).pipe(Effect.provide(CatalogReader.layer(catalogFile)), Effect.provide(stateLayer(out)))
    const { html, charts } = yield* renderReport(report).pipe(Effect.provide(ChartRenderer.vega))
    yield* Effect.tryPromise({
      try: () => replaceFile(target, html),
      catch: (e) => new ReportError({ reason: "Write", what: target, detail: e instanceof Error ? e.message : String(e) })
    })
    const n = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`
    const failing = report.failing.length
    console.log(
      `report: ${target} (${n(report.datasets.length, "dataset")} with rows, ${n(charts, "chart")}, ${n(report.runs.length, "run")}${failing > 0 ? `, ${n(failing, "slice")} failing` : ""}; ${bytesText(String(Buffer.byteLength(html)))})`
    )
  })
