/** Reference "duckdb-only": the saved NDJSON pages to partitioned Parquet, nothing fetched: the writer's limit. */
import { convert } from "./convert.ts"
import { readSpec } from "./spec.ts"

const spec = readSpec(process.argv[2])
await convert(spec, spec.ndjson, spec.out)
