/** `chainetl catalog`: rebuild the DuckDB catalog from the parts on disk (e.g. after moving output/). */
import { Effect } from "effect"
import { catalogEntries } from "../catalogEntries.ts"
import { buildCatalog } from "../sink/Catalog.ts"
import { resolveOut } from "./output.ts"

export const catalogCommand = (outFlag: string | undefined) =>
  Effect.gen(function* () {
    const out = resolveOut(outFlag)
    const built = yield* buildCatalog(out, catalogEntries())
    console.log(`catalog: ${built.databasePath}`)
    console.log(`sql:     ${built.sqlPath}`)
    if (built.empty.length > 0) console.log(`empty views (no parts yet): ${built.empty.join(", ")}`)
  })
