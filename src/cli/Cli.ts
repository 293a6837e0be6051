/**
 * The `chainetl` command tree. Commands, flags and environment variables are public interface:
 * README documents each; keep them stable.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { datasetNames } from "../../pipelines/index.ts"
import { ConfigError } from "../Errors.ts"
import { catalogCommand } from "./catalogCommand.ts"
import { emulatorFlags } from "./emulatorOptions.ts"
import { runEmulator } from "./emulatorCommand.ts"
import { runCommand } from "./runCommand.ts"
import { statusCommand } from "./statusCommand.ts"

const out = Options.directory("out").pipe(
  Options.withDescription("Output folder (default: $CHAINETL_OUT or ./output)"),
  Options.optional
)

const run = Command.make(
  "run",
  {
    datasets: Args.text({ name: "dataset" }).pipe(Args.withDescription(`Datasets to run (default all): ${datasetNames.join(", ")}`), Args.repeated),
    network: Options.choice("network", ["mainnet", "fuji"]).pipe(Options.withDescription("Network to crawl (repeat; overrides the job's networks)"), Options.repeated),
    job: Options.file("job").pipe(
      Options.withDescription("Job file (JSON) choosing networks, chains, addresses, contracts (default: pipelines/jobs/emulator.json with --emulator, else built-in defaults)"),
      Options.optional
    ),
    out,
    emulator: Options.boolean("emulator").pipe(Options.withDescription("Start the built-in emulator in-process and crawl it")),
    emulatorSeed: Options.integer("emulator-seed").pipe(Options.withDescription("Seed of the in-process emulator"), Options.optional),
    emulatorScale: Options.float("emulator-scale").pipe(Options.withDescription("Scale of the in-process emulator"), Options.optional),
    // nested rows cost ~6 KB each while a part is built (bench): 25k keeps a part well under 200 MB
    partRows: Options.integer("part-rows").pipe(Options.withDescription("Rows per Parquet part (default 25000)"), Options.withDefault(25_000)),
    concurrency: Options.integer("concurrency").pipe(Options.withDescription("Slices crawled at once"), Options.withDefault(4)),
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Print the slices and a lower bound of requests; fetch and write nothing"))
  },
  (a) =>
    Effect.gen(function* () {
      const unknown = a.datasets.filter((d) => !datasetNames.includes(d))
      if (unknown.length > 0) {
        return yield* Effect.fail(
          new ConfigError({ reason: "Unknown", field: "dataset", detail: `unknown dataset ${unknown.join(", ")}`, fix: `choose from ${datasetNames.join(", ")}` })
        )
      }
      if (a.partRows < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--part-rows", detail: `got ${a.partRows}`, fix: "pass a whole number ≥ 1" }))
      if (a.concurrency < 1) return yield* Effect.fail(new ConfigError({ reason: "Invalid", field: "--concurrency", detail: `got ${a.concurrency}`, fix: "pass a whole number ≥ 1" }))
      return yield* runCommand({
        datasets: a.datasets,
        networks: a.network,
        job: Option.getOrUndefined(a.job),
        out: Option.getOrUndefined(a.out),
        emulator: a.emulator,
        emulatorSeed: Option.getOrUndefined(a.emulatorSeed),
        emulatorScale: Option.getOrUndefined(a.emulatorScale),
        partRows: a.partRows,
        concurrency: a.concurrency,
        dryRun: a.dryRun
      })
    })
).pipe(Command.withDescription("Crawl datasets into Parquet and rebuild the DuckDB catalog"))

const emulator = Command.make("emulator", emulatorFlags, (flags) => runEmulator(flags)).pipe(
  Command.withDescription("Serve the chain-data, metrics and node JSON-RPC emulator until interrupted")
)

const catalog = Command.make("catalog", { out }, (a) => catalogCommand(Option.getOrUndefined(a.out))).pipe(
  Command.withDescription("Rebuild output/catalog.duckdb and output/catalog.sql from the Parquet on disk")
)

const status = Command.make("status", { out }, (a) => statusCommand(Option.getOrUndefined(a.out))).pipe(
  Command.withDescription("Show every slice's checkpoint: pages, rows, state, last run")
)

export const chainetl = Command.make("chainetl").pipe(
  Command.withDescription("ETL for blockchain data: chain-data REST, metrics and node JSON-RPC to Parquet + DuckDB"),
  Command.withSubcommands([run, emulator, catalog, status])
)

export const cli = Command.run(chainetl, { name: "chainetl", version: "0.1.0" })
