/**
 * A first look at the command line, before @effect/cli parses it, for the mistakes its own
 * messages explain badly: an unknown flag (which `run` would take for a dataset name), a missing
 * required flag (named, with what to pass). The flag lists are public interface, kept equal to
 * the commands' `--help` by test/cli/argv.test.ts.
 */
import { ConfigError } from "../Errors.ts"
import { didYouMean } from "../DidYouMean.ts"

const crawl = ["--network", "--job", "--out", "--emulator", "--emulator-seed", "--emulator-scale", "--as-of", "--part-rows", "--part-mb", "--concurrency", "--dry-run", "--offline", "--quiet", "--json", "--no-compact", "--distributed"]

export const commandFlags: Readonly<Record<string, ReadonlyArray<string>>> = {
  run: [...crawl, "--refetch-slice"],
  backfill: [...crawl, "--from", "--to", "--window", "--refetch"],
  emulator: [
    "--port", "--host", "--seed", "--scale", "--now", "--token-ttl", "--utxo-churn", "--node-network", "--auth", "--api-key",
    "--unprivileged-key", "--rate-limit-keyless", "--rate-limit-keyed", "--rate-limit-metrics", "--fault-seed", "--fault-5xx",
    "--fault-429", "--fault-429-burst", "--fault-retry-after", "--fault-latency-ms", "--fault-reset", "--fault-truncate",
    "--fault-malformed", "--fault-extra-fields"
  ],
  worker: ["--out", "--concurrency", "--quiet"],
  catalog: ["--out", "--ddl", "--location", "--database", "--mirror"],
  compact: ["--out", "--target-rows", "--target-mb", "--quiet"],
  status: ["--out", "--live", "--json"],
  query: ["--file", "--out", "--format", "--output"],
  report: ["--out", "--file"],
  verify: ["--out", "--job", "--json", "--repair", "--metrics-file"]
}

/** Flags @effect/cli adds to every command. */
const BUILT_IN = ["--help", "-h", "--version", "--wizard", "--completions", "--log-level"]

const required: Readonly<Record<string, ReadonlyArray<{ readonly flag: string; readonly fix: string }>>> = {
  backfill: [
    { flag: "--from", fix: "add --from DATE|HEIGHT, the start of the range (included), e.g. --from 2025-01-01" },
    { flag: "--to", fix: "add --to DATE|HEIGHT, the end of the range (excluded), e.g. --to 2025-02-01" }
  ]
}

/** `argv` without node and the script: the first problem found, or undefined. */
export const checkArgv = (args: ReadonlyArray<string>): ConfigError | undefined => {
  const command = args[0]
  if (command === undefined || command.startsWith("-")) return undefined
  const known = commandFlags[command]
  if (known === undefined) {
    return new ConfigError({
      reason: "Unknown",
      field: "command",
      detail: `unknown command ${command}${didYouMean(command, Object.keys(commandFlags))}`,
      fix: `use one of ${Object.keys(commandFlags).join(", ")} (chainetl --help)`
    })
  }
  const rest = args.slice(1)
  const end = rest.indexOf("--")
  const flags = (end === -1 ? rest : rest.slice(0, end)).filter((a) => a.startsWith("--")).map((a) => a.split("=")[0] as string)
  if (flags.some((f) => f === "--help" || f === "--wizard")) return undefined
  for (const f of flags) {
    if (!known.includes(f) && !BUILT_IN.includes(f)) {
      return new ConfigError({
        reason: "Unknown",
        field: f,
        detail: `chainetl ${command} has no flag ${f}${didYouMean(f, known)}`,
        fix: `see chainetl ${command} --help for its flags`
      })
    }
  }
  for (const r of required[command] ?? []) {
    if (!flags.includes(r.flag)) return new ConfigError({ reason: "Missing", field: r.flag, detail: `chainetl ${command} needs ${r.flag}`, fix: r.fix })
  }
  return undefined
}
