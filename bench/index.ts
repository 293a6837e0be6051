/**
 * Runs every benchmark: `npm run bench` (add `-- --rows 50000` for a quicker pass).
 * Benchmarks print their own tables; none asserts timings, which depend on the machine.
 */
import { runParquetWriters } from "./parquet-writers.ts"
import { runPlanning } from "./planning.ts"
import { runStartup } from "./startup.ts"

const args = process.argv.slice(2)
// --startup: only the CLI's start-up CPU (bench/startup.ts)
if (args.includes("--startup")) {
  await runStartup(args)
  process.exit(0)
}
runPlanning(args)
if (!args.includes("--planning-only")) await runParquetWriters(args)
await runStartup(args)
