/**
 * Runs every benchmark: `npm run bench` (add `-- --rows 50000` for a quicker pass).
 * Benchmarks print their own tables; none asserts timings, which depend on the machine.
 */
import { runParquetWriters } from "./parquet-writers.ts"
import { runPlanning } from "./planning.ts"

const args = process.argv.slice(2)
runPlanning(args)
if (!args.includes("--planning-only")) await runParquetWriters(args)
