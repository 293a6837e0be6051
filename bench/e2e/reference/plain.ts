/** Reference "plain": fetch pages → NDJSON → DuckDB COPY … PARTITION_BY. Run as a child by the bench. */
import * as path from "node:path"
import { convert } from "./convert.ts"
import { savePages } from "./savePages.ts"
import { readSpec } from "./spec.ts"

const spec = readSpec(process.argv[2])
const ndjson = path.join(spec.out, "..", `${spec.dataset}.ndjson`)
await savePages(spec, ndjson)
await convert(spec, ndjson, spec.out)
