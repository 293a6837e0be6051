/**
 * Runs every benchmark: `npm run bench` (add `-- --rows 50000` for a quicker pass).
 * Benchmarks print their own tables; none asserts timings, which depend on the machine.
 */
import { runParquetWriters } from "./parquet-writers.ts"

await runParquetWriters(process.argv.slice(2))
