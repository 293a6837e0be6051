/**
 * The `chainetl` command tree. Commands, flags and environment variables are public interface:
 * docs/cli.md and docs/configuration.md document each; keep them stable.
 *
 * Each command's work is imported when the command runs, not here: `--version`, `--help` and
 * `status` must not load the pipelines, DuckDB, Arrow or the emulator (seconds of start-up).
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Either, Option } from "effect"
import type { Backfill } from "../crawl/Dataset.ts"
import { DEFAULT_PART_MB, DEFAULT_PART_ROWS, MB } from "../crawl/PartSize.ts"
import { SLICE_CAP } from "../pace/InFlight.ts"
import { ConfigError } from "../Errors.ts"
import { parseAsOf } from "./asOf.ts"
import { emulatorFlags } from "./emulatorOptions.ts"
import { BACKFILLABLE, datasetNames } from "./services.ts"
import { closest } from "../DidYouMean.ts"

// text, not Options.directory: its existence check throws a raw ENOTDIR for a path under a
// file; outPath.ts checks the folder and names the cause
const out = Options.text("out").pipe(
  Options.withDescription("Output folder, or s3://bucket/prefix (default: $CHAINETL_OUT or ./output)"),
  Options.optional
)

/** Flags `run` and `backfill` share: where to read and write, and how hard to pull. */
const crawlFlags = {
  network: Options.choice("network", ["mainnet", "fuji"]).pipe(Options.withDescription("Network to crawl (repeat; overrides the job's networks)"), Options.repeated),
  job: Options.text("job").pipe(
    Options.withDescription("Job file (JSON) choosing networks, chains, addresses, contracts (default: pipelines/jobs/emulator.json with --emulator, else built-in defaults)"),
    Options.optional
  ),
  out,
  emulator: Options.boolean("emulator").pipe(Options.withDescription("Start the built-in emulator in-process and crawl it")),
  emulatorSeed: Options.integer("emulator-seed").pipe(Options.withDescription("Seed of the in-process emulator"), Options.optional),
  emulatorScale: Options.float("emulator-scale").pipe(Options.withDescription("Scale of the in-process emulator"), Options.optional),
  asOf: Options.text("as-of").pipe(
    Options.withDescription("With --emulator: the emulated network's now, for a nightly rehearsal: +1d (a day past the emulator's start; +3d, +6h…) or a UTC date/instant (2025-01-04)"),
    Options.optional
  ),
  // a part's table and its COPY are most of the peak RSS: 10k rows lowered it against 25k at the
  // same CPU; nested rows cost several times a flat row while a part is built, hence the second
  // bound (src/crawl/PartSize.ts; measured:
  // docs/performance.md#crawl-memory-part-size-and-the-listing-guard)
  partRows: Options.integer("part-rows").pipe(
    Options.withDescription(`Most rows per Parquet part (default ${DEFAULT_PART_ROWS}); a part is written when it reaches this or --part-mb`),
    Options.withDefault(DEFAULT_PART_ROWS)
  ),
  partMb: Options.integer("part-mb").pipe(
    Options.withDescription(`Most megabytes a part holds in memory before it is written (default ${DEFAULT_PART_MB}): bounds a slice's memory on wide, nested rows`),
    Options.withDefault(DEFAULT_PART_MB)
  ),
  concurrency: Options.integer("concurrency").pipe(Options.withDescription("Slices (windows) crawled at once, at most: below it they follow each host's round trip and rate, all under one rate limit per host"), Options.withDefault(SLICE_CAP)),
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Print the slices, the requests they take (at least, likely, at most), the allowance and the wall time that follow; write nothing (asks each windowed listing's newest window for its first page, unless --offline)")),
  offline: Options.boolean("offline").pipe(Options.withDescription("With --dry-run: send no request at all (the round trip is not measured; the wall time is the rate's part alone)")),
  quiet: Options.boolean("quiet").pipe(Options.withDescription("No progress and no summary: only errors (exit code says how it went)")),
  json: Options.boolean("json").pipe(Options.withDescription("Progress as JSON lines on stdout (one event per line), no summary table")),
  noCompact: Options.boolean("no-compact").pipe(Options.withDescription("Skip the compaction of partitions past the threshold after the crawl")),
  distributed: Options.boolean("distributed").pipe(
    Options.withDescription("Plan here, crawl on `chainetl worker` processes: enqueue one job per slice in CHAINETL_STATE_URL's database, wait for the workers, then compact and rebuild the catalog")
  )
}

type CrawlFlags = {
  readonly [K in keyof typeof crawlFlags]: (typeof crawlFlags)[K] extends Options.Options<infer A> ? A : never
}

const checkDatasets = (names: ReadonlyArray<string>) => {
  const unknown = names.filter((d) => !datasetNames.includes(d))
  if (unknown.length === 0) return Effect.void
  const guesses = unknown.map((u) => closest(u, datasetNames)).filter((g): g is string => g !== undefined)
  return Effect.fail(
    new ConfigError({
      reason: "Unknown",
      field: "dataset",
      detail: `unknown dataset ${unknown.join(", ")}${guesses.length === unknown.length ? ` (did you mean ${guesses.join(", ")}?)` : ""}`,
      fix: guesses.length === unknown.length ? `write ${guesses.join(", ")}, or choose from ${datasetNames.join(", ")}` : `choose from ${datasetNames.join(", ")}`
    })
  )
}

const runCommand = (args: Parameters<typeof import("./runCommand.ts").runCommand>[0]) =>
  Effect.flatMap(Effect.promise(() => import("./runCommand.ts")), (m) => m.runCommand(args))

const runArgs = (datasets: ReadonlyArray<string>, a: CrawlFlags, backfill?: Backfill) =>
  Effect.gen(function* () {
    yield* checkDatasets(datasets)
    if (a.partRows < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--part-rows", detail: `got ${a.partRows}`, fix: "pass a whole number ≥ 1" }))
    if (a.partMb < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--part-mb", detail: `got ${a.partMb}`, fix: "pass a whole number of megabytes ≥ 1" }))
    if (a.concurrency < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--concurrency", detail: `got ${a.concurrency}`, fix: "pass a whole number ≥ 1" }))
    if (a.quiet && a.json) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--quiet", detail: "--quiet and --json both given", fix: "choose one" }))
    const asOf = Option.isNone(a.asOf) ? undefined : parseAsOf(a.asOf.value, a.emulator)
    if (asOf !== undefined && Either.isLeft(asOf)) return yield* Effect.fail(asOf.left)
    return {
      datasets,
      networks: a.network,
      job: Option.getOrUndefined(a.job),
      out: Option.getOrUndefined(a.out),
      emulator: a.emulator,
      emulatorSeed: Option.getOrUndefined(a.emulatorSeed),
      emulatorScale: Option.getOrUndefined(a.emulatorScale),
      ...(asOf === undefined ? {} : { asOf: asOf.right }),
      partRows: a.partRows,
      partBytes: a.partMb * MB,
      concurrency: a.concurrency,
      dryRun: a.dryRun,
      offline: a.offline,
      quiet: a.quiet,
      json: a.json,
      noCompact: a.noCompact,
      distributed: a.distributed,
      ...(backfill === undefined ? {} : { backfill })
    }
  })

const run = Command.make(
  "run",
  {
    datasets: Args.text({ name: "dataset" }).pipe(Args.withDescription(`Datasets to run (default all): ${datasetNames.join(", ")}`), Args.repeated),
    refetchSlice: Options.text("refetch-slice").pipe(
      Options.withDescription("Crawl this slice (its id, as `chainetl verify` prints it) again whole: its checkpoint is set back first and its parts go (a dataset that takes no range; repeat for more)"),
      Options.repeated
    ),
    ...crawlFlags
  },
  (a) =>
    Effect.gen(function* () {
      const args = yield* runArgs(a.datasets, a)
      if (a.refetchSlice.length > 0) {
        const { refetchSlicesFirst } = yield* Effect.promise(() => import("./refetchSliceCommand.ts"))
        yield* refetchSlicesFirst(args, a.refetchSlice)
      }
      return yield* runCommand(args)
    })
).pipe(Command.withDescription("Crawl what is new (the nightly run) into Parquet and rebuild the DuckDB catalog"))

const backfill = Command.make(
  "backfill",
  {
    datasets: Args.text({ name: "dataset" }).pipe(Args.withDescription(`Datasets to backfill: ${BACKFILLABLE.join(", ")}`), Args.atLeast(1)),
    from: Options.text("from").pipe(Options.withDescription("Start of the range, included: a UTC date (2025-01-01) or instant (2025-01-01T06:00:00Z); a block height for node_x_blocks / node_p_blocks")),
    to: Options.text("to").pipe(Options.withDescription("End of the range, excluded: a UTC date or instant, or a block height")),
    window: Options.text("window").pipe(Options.withDescription("Size of the new windows: a duration like 1d or 6h (default: the job's incremental section), or a number of blocks for heights (default: nodeHeightWindow)"), Options.optional),
    refetch: Options.boolean("refetch").pipe(
      Options.withDescription("Crawl the windows (or node block heights) of [from, to) again whole: their parts, the compacted files holding them and their checkpoints are removed first, in the folder or bucket and wherever the state is; a range cutting a window or a file is refused naming the one that takes it whole (what `chainetl verify` prints for rows that are wrong, not missing)")
    ),
    ...crawlFlags
  },
  (a) =>
    Effect.gen(function* () {
      yield* checkDatasets(a.datasets)
      const { parseBackfill } = yield* Effect.promise(() => import("./backfillPlan.ts"))
      const range = parseBackfill(a.datasets, a.from, a.to, Option.getOrUndefined(a.window))
      if (Either.isLeft(range)) return yield* Effect.fail(range.left)
      const args = yield* runArgs(a.datasets, a, range.right)
      if (a.refetch) {
        const { refetchFirst } = yield* Effect.promise(() => import("./refetchCommand.ts"))
        yield* refetchFirst(args)
      }
      return yield* runCommand(args)
    })
).pipe(Command.withDescription("Crawl a range of history [from, to) in parallel windows; a rerun does only the windows still missing"))

const worker = Command.make(
  "worker",
  {
    out,
    concurrency: Options.integer("concurrency").pipe(Options.withDescription("Slices this worker crawls at once (default 4)"), Options.withDefault(4)),
    quiet: Options.boolean("quiet").pipe(Options.withDescription("Print nothing but errors"))
  },
  (a) =>
    Effect.gen(function* () {
      if (a.concurrency < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--concurrency", detail: `got ${a.concurrency}`, fix: "pass a whole number ≥ 1" }))
      const { workerCommand } = yield* Effect.promise(() => import("./workerCommand.ts"))
      return yield* workerCommand({ out: Option.getOrUndefined(a.out), concurrency: a.concurrency, quiet: a.quiet })
    })
).pipe(Command.withDescription("Crawl the slices that distributed runs and backfills enqueue for this output folder, until stopped (docs/scale-out.md#distributed-slices)"))

const emulator = Command.make("emulator", emulatorFlags, (flags) =>
  Effect.flatMap(Effect.promise(() => import("./emulatorCommand.ts")), (m) => m.runEmulator(flags))
).pipe(
  Command.withDescription("Serve the chain-data, metrics and node JSON-RPC emulator until interrupted")
)

const catalog = Command.make(
  "catalog",
  {
    out,
    ddl: Options.choice("ddl", ["spark", "trino", "athena"]).pipe(
      Options.withDescription("Print external-table DDL for this engine over the same folders instead of rebuilding the catalog"),
      Options.optional
    ),
    location: Options.text("location").pipe(Options.withDescription("With --ddl: where the engine finds the output folder, e.g. s3://bucket/chainetl (default: file URL of --out)"), Options.optional),
    database: Options.text("database").pipe(Options.withDescription("With --ddl: database (Trino: schema) of the tables (default chainetl)"), Options.withDefault("chainetl")),
    mirror: Options.text("mirror").pipe(
      Options.withDescription("With --out s3://…: download the bucket's files to this folder and build catalog.duckdb over them (default: the working copy under $CHAINETL_STAGING_DIR)"),
      Options.optional
    )
  },
  (a) =>
    Effect.flatMap(Effect.promise(() => import("./catalogCommand.ts")), (m) =>
      m.catalogCommand({
        out: Option.getOrUndefined(a.out),
        database: a.database,
        ...Option.match(a.mirror, { onNone: () => ({}), onSome: (mirror) => ({ mirror }) }),
        ...Option.match(a.ddl, { onNone: () => ({}), onSome: (ddl) => ({ ddl }) }),
        ...Option.match(a.location, { onNone: () => ({}), onSome: (location) => ({ location }) })
      })
    )
).pipe(
  Command.withDescription("Rebuild output/catalog.duckdb and output/catalog.sql from the Parquet on disk, or print DDL for Spark, Trino or Athena")
)

const compact = Command.make(
  "compact",
  {
    datasets: Args.text({ name: "dataset" }).pipe(Args.withDescription("Datasets to compact (default all; child tables and rejects follow their dataset)"), Args.repeated),
    out,
    targetRows: Options.integer("target-rows").pipe(Options.withDescription("Rows a merged file holds at most (default 1000000)"), Options.withDefault(1_000_000)),
    targetMb: Options.float("target-mb").pipe(Options.withDescription("Size a merged file grows to at most, MB of its inputs (default 128)"), Options.withDefault(128)),
    quiet: Options.boolean("quiet").pipe(Options.withDescription("Print nothing but errors"))
  },
  (a) =>
    Effect.gen(function* () {
      yield* checkDatasets(a.datasets)
      if (a.targetRows < 2) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--target-rows", detail: `got ${a.targetRows}`, fix: "pass a whole number ≥ 2" }))
      if (!(a.targetMb > 0)) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--target-mb", detail: `got ${a.targetMb}`, fix: "pass a number > 0" }))
      const { compactCommand } = yield* Effect.promise(() => import("./compactCommand.ts"))
      return yield* compactCommand({ datasets: a.datasets, out: Option.getOrUndefined(a.out), targetRows: a.targetRows, targetMb: a.targetMb, quiet: a.quiet })
    })
).pipe(Command.withDescription("Merge each partition's small files toward a target size, rows in the dataset's natural order"))

const status = Command.make(
  "status",
  {
    out,
    live: Options.boolean("live").pipe(Options.withDescription("Ask each windowed listing's service for its newest block and show the lag behind it (one request each)")),
    json: Options.boolean("json").pipe(Options.withDescription("Print the status as one JSON document"))
  },
  (a) =>
    Effect.flatMap(Effect.promise(() => import("./statusCommand.ts")), (m) =>
      m.statusCommand({ out: Option.getOrUndefined(a.out), live: a.live, json: a.json })
    )
).pipe(Command.withDescription("Show watermarks, lag, pending windows, every dataset's slices, the last runs and failed slices"))

const query = Command.make(
  "query",
  {
    sql: Args.text({ name: "sql" }).pipe(Args.withDescription("One SQL statement over the catalog's views, e.g. \"SELECT count(*) FROM delegators_latest\" (or --file)"), Args.optional),
    file: Options.text("file").pipe(Options.withDescription("Read the statement from this file instead, e.g. examples/avax_staked_per_day.sql"), Options.optional),
    out,
    format: Options.choice("format", ["table", "csv", "json", "parquet"]).pipe(Options.withDescription("Output format (default: an aligned table)"), Options.withDefault("table" as const)),
    output: Options.text("output").pipe(Options.withDescription("Write the result to this file instead of stdout"), Options.optional)
  },
  (a) =>
    Effect.flatMap(Effect.promise(() => import("./queryCommand.ts")), (m) =>
      m.queryCommand({ sql: Option.getOrUndefined(a.sql), file: Option.getOrUndefined(a.file), out: Option.getOrUndefined(a.out), format: a.format, output: Option.getOrUndefined(a.output) })
    )
).pipe(Command.withDescription("Run one SQL statement over the catalog (read-only) and print the result"))

const report = Command.make(
  "report",
  {
    out,
    file: Options.text("file").pipe(Options.withDescription("Write the page here instead of <out>/report.html"), Options.optional)
  },
  (a) =>
    Effect.flatMap(Effect.promise(() => import("./reportCommand.ts")), (m) => m.reportCommand({ out: Option.getOrUndefined(a.out), file: Option.getOrUndefined(a.file) }))
).pipe(
  Command.withDescription(
    "Write one self-contained HTML page about the output: rows per day and gaps, freshness and lag, files per partition, the last runs and their failures, the example analyses as charts (reads the output, writes only the page)"
  )
)

const verify = Command.make(
  "verify",
  {
    datasets: Args.text({ name: "dataset" }).pipe(Args.withDescription("Datasets to verify (default: every dataset the output holds)"), Args.repeated),
    out,
    job: Options.text("job").pipe(Options.withDescription("The job file the output is crawled with: its windows' since, partition grains and freshness SLAs (default: built-in defaults)"), Options.optional),
    json: Options.boolean("json").pipe(Options.withDescription("Print the verdict as one JSON document")),
    repair: Options.boolean("repair").pipe(Options.withDescription("Run the re-crawl of every failure (the backfills verify prints), then verify again")),
    metricsFile: Options.text("metrics-file").pipe(Options.withDescription("Write Prometheus text-format metrics here (atomically), for node_exporter's textfile collector"), Options.optional)
  },
  (a) =>
    Effect.gen(function* () {
      yield* checkDatasets(a.datasets)
      const { verifyCommand } = yield* Effect.promise(() => import("./verifyCommand.ts"))
      return yield* verifyCommand({ datasets: a.datasets, out: Option.getOrUndefined(a.out), job: Option.getOrUndefined(a.job), json: a.json, repair: a.repair, metricsFile: Option.getOrUndefined(a.metricsFile) })
    })
).pipe(
  Command.withDescription(
    "Check the output whole: heights contiguous, parent links, every window crawled, each key once, manifests and footers, freshness; print the backfill that re-crawls each failure (exit 1), --repair runs them"
  )
)

export const chainetl = Command.make("chainetl").pipe(
  Command.withDescription("ETL for blockchain data: chain-data REST, metrics and node JSON-RPC to Parquet + DuckDB"),
  Command.withSubcommands([run, backfill, worker, emulator, catalog, compact, status, query, report, verify])
)

export const cli = Command.run(chainetl, { name: "chainetl", version: "0.1.0" })
