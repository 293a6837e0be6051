/**
 * Writes the registry's metadata for `chainetl status` (src/crawl/DatasetMeta.ts) into the folder
 * given as its argument: an entry of scripts/build.mjs, run once per build, so the compiled CLI
 * finds it beside its modules (src/status/registry.ts).
 */
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { datasets } from "../../../pipelines/index.ts"
import { DATASET_META_FILE, metaOf } from "../../crawl/DatasetMeta.ts"

const dir = process.argv[2]
if (dir === undefined) throw new Error("usage: writeMeta <folder of the compiled CLI>")
writeFileSync(path.join(dir, DATASET_META_FILE), `${JSON.stringify(metaOf(datasets), null, 1)}\n`)
